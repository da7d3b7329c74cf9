# ruff: noqa: RUF001, RUF002 - maths symbols are the point of these tests
"""Maths in the labs typeset like the module's text (issue 25, item 12): the descriptions,
the parameters' labels and help, the key numbers of a run and the parameters a run lists
are MathML, never `σ_max^k`, `W_hh`, `h_t` or `sigma_max` as plain text; where no MathML can
go (a plot's description, an error message) the maths is spelt out without LaTeX."""

import html
import re
import tomllib
from pathlib import Path

import pytest
from django.urls import reverse

from courses.models import Lab
from labs.services import LabParamsInvalid, lab_run_execute, lab_run_plot, lab_run_request

pytestmark = pytest.mark.django_db
CONTENT = Path(__file__).resolve().parents[2] / "courses" / "content"
#: Maths written as plain text: a name with a subscript or a power, or a Greek letter.
PLAIN_MATHS = re.compile(r"\b[A-Za-zσ]+_[A-Za-z0-9{]|\w\^|[α-ω]")
MATHS = re.compile(r"\$\$.+?\$\$|\$.+?\$", re.DOTALL)


def _outside_maths(text: str) -> list[str]:
    return PLAIN_MATHS.findall(MATHS.sub("", text))


def _text(page: str) -> str:
    """The page's text as a reader sees it, MathML left out."""
    page = re.sub(r"<math.*?</math>", " ", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("path", sorted(CONTENT.glob("*/labs/*.toml")), ids=lambda p: p.stem)
def test_every_lab_description_writes_its_maths_as_latex(path):
    description = tomllib.loads(path.read_text())["description"]
    assert _outside_maths(description) == []


def test_the_lab_card_and_page_typeset_the_description_labels_and_help(client, alice, course):
    client.force_login(alice)
    module = client.get(reverse("course-module", args=[course.slug])).content.decode()
    card = module[module.index('id="lab-vanishing-gradient"'):]
    card = card[:card.index("</aside>")]
    assert card.count("<math") >= 4 and _outside_maths(_text(card)) == []
    page = client.get(reverse("lab", args=[course.slug, "vanishing-gradient"])).content.decode()
    label = re.search(r'<label for="id_sigmas">(.*?)</label>', page, re.DOTALL)
    assert label and "<math" in label.group(1) and "values" in label.group(1)
    helps = re.findall(r'<p class="help" id="id_\w+_helptext">(.*?)</p>', page, re.DOTALL)
    assert sum("<math" in h for h in helps) >= 3  # h_t, W_hh, h
    assert not re.search(r"sigma_max|σ_max|W_hh|h_t\b", _text(page))


def test_a_run_s_key_numbers_and_parameters_are_typeset_its_plot_spelt_out(client, alice,
                                                                          course):
    lab = Lab.objects.get(slug="vanishing-gradient")
    run = lab_run_request(lab=lab, course=course, requester=alice,
                          params={"input_scale": 0.0}, seed=1)
    lab_run_execute(run_id=run.pk)
    client.force_login(alice)
    page = client.get(reverse("lab-run", args=[course.slug, run.uuid])).content.decode()
    numbers = page[page.index('<dl class="key-results">'):]
    numbers = numbers[:numbers.index("</dl>")]
    assert numbers.count("<math") >= 4 + 2  # one sigma per row; W_hh and sigma in phrases
    assert not re.search(r"sigma_max|σ_max|W_hh|\$", _text(numbers))
    facts = page[page.index('<dl class="facts">'):]
    assert "<math" in facts[:facts.index("</dl>")]  # the sigmas' label
    run.refresh_from_db()
    desc = re.search(r"<desc[^>]*>(.*?)</desc>", lab_run_plot(run=run), re.DOTALL)
    assert desc and "σ_max 0.5" in desc.group(1) and "bound σ_max^k" in desc.group(1)
    assert "$" not in desc.group(1) and "\\sigma" not in desc.group(1)


def test_an_error_naming_a_parameter_spells_its_maths_out(alice, course):
    lab = Lab.objects.get(slug="vanishing-gradient")
    with pytest.raises(LabParamsInvalid) as raised:
        lab_run_request(lab=lab, course=course, requester=alice, params={"sigmas": "0.5, 1"})
    assert raised.value.errors["sigmas"].startswith("σ_max values: give exactly 4 numbers")
