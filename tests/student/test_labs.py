# ruff: noqa: RUF001 - the labs write sigma_max as the Greek letter
"""Lab pages: the parameter form with defaults and bounds, a plain POST requests a run, the
run page shows status then plot and key numbers; another student's run is 404."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from courses.models import Lab
from labs.models import LabRun
from labs.services import lab_run_execute, lab_run_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab(module_05) -> Lab:
    return Lab.objects.get(slug="vanishing-gradient")


def _lab_url(course, slug="vanishing-gradient") -> str:
    return reverse("lab", args=[course.slug, slug])


def test_the_form_shows_every_parameter_with_its_label_default_and_bounds(client, alice, course,
                                                                          lab):
    client.force_login(alice)
    page = client.get(_lab_url(course)).content.decode()
    assert '<label for="id_units">Hidden units</label>' in page
    assert re.search(r'<input[^>]*name="units"[^>]*value="32"', page)
    assert 'min="2"' in page and 'max="256"' in page
    assert 'value="0.5, 1, 1.5, 3"' in page
    assert "4 numbers, separated by commas, each from 0.05 to 10" in page
    assert "You have not run this lab yet." in page


def test_a_choice_parameter_is_a_select_with_its_options(client, alice, course):
    client.force_login(alice)
    page = client.get(_lab_url(course, "word-vectors")).content.decode()
    assert '<select name="word_a"' in page and '<option value="carburetor">' in page


def test_a_plain_post_requests_a_run_and_redirects_to_its_page(client, alice, course, lab):
    client.force_login(alice)
    response = client.post(_lab_url(course), {"units": "16", "steps": "", "sigmas": "0.5 1 2 3",
                                              "input_scale": "1"})
    run = LabRun.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("lab-run", args=[course.slug, run.uuid])
    assert run.params == {"units": 16, "steps": 60, "sigmas": [0.5, 1.0, 2.0, 3.0],
                          "input_scale": 1.0}
    assert run.requester == alice and run.status == LabRun.Status.QUEUED


def test_bad_parameters_are_shown_on_their_fields_and_nothing_is_run(client, alice, course, lab):
    client.force_login(alice)
    response = client.post(_lab_url(course), {"units": "1000", "sigmas": "0.5, 1"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Hidden units must be between 2 and 256" in page
    assert "give exactly 4 numbers (got 2)" in page
    assert 'value="1000"' in page  # what was typed is kept
    assert not LabRun.objects.exists()


def test_the_run_page_shows_status_then_plot_and_key_numbers(client, alice, course, lab):
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=1)
    client.force_login(alice)
    url = reverse("lab-run", args=[course.slug, run.uuid])
    page = client.get(url).content.decode()
    assert "Queued" in page and "<progress" in page and "data-poll" in page
    status = client.get(reverse("lab-run-status", args=[course.slug, run.uuid])).json()
    assert status == {"status": "queued", "label": "Queued", "progress": 0.0,
                      "finished": False, "error": ""}

    lab_run_execute(run_id=run.pk)
    page = client.get(url).content.decode()
    assert "Succeeded" in page and "data-poll" not in page
    assert "<svg" in page and 'role="img"' in page
    assert "Gradient size 40 steps back, <math" in page
    from django.core.cache import cache

    from labs.services import PLOT_VERSION

    assert cache.get(f"lab-plot:{PLOT_VERSION}:{run.uuid}")  # rendered once, then cached
    assert client.get(reverse("lab-run-status", args=[course.slug, run.uuid])).json()["finished"]


def test_earlier_runs_are_listed_on_the_lab_page(client, alice, bob, course, lab):
    lab_run_request(lab=lab, course=course, requester=alice, params={"units": 8}, seed=1)
    lab_run_request(lab=lab, course=course, requester=bob, params={"units": 9}, seed=1)
    client.force_login(alice)
    page = client.get(_lab_url(course)).content.decode()
    text = re.sub(r"<[^>]+>", "", page)
    assert "Hidden units = 8" in text and "Hidden units = 9" not in text


def test_another_students_run_is_404(client, alice, bob, course, lab):
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=1)
    client.force_login(bob)
    assert client.get(reverse("lab-run", args=[course.slug, run.uuid])).status_code == 404
    assert client.get(reverse("lab-run-status", args=[course.slug, run.uuid])).status_code == 404


def test_labs_need_membership_and_csrf(alice, course, other_course, lab):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.get(_lab_url(other_course)).status_code == 404
    assert client.get(reverse("lab", args=[course.slug, "no-such-lab"])).status_code == 404
    assert client.post(_lab_url(course), {}).status_code == 403
    assert not LabRun.objects.exists()


# --- labels that agree with the results, parameters as a readable list (items 13, 14) ------

def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def test_the_forms_show_the_authors_labels_without_raw_parameter_names(client, alice, course):
    client.force_login(alice)
    attention = client.get(_lab_url(course, "attention")).content.decode()
    label = re.search(r'<label for="id_sharpness">(.*?)</label>', attention, re.S)
    assert label is not None and _text(label.group(1)) == "Score scale (length of v)"
    words = client.get(_lab_url(course, "word-vectors")).content.decode()
    assert '<label for="id_word_a">First word</label>' in words


def test_a_form_label_is_the_schemas_label(client, alice, course, lab):
    client.force_login(alice)
    page = client.get(_lab_url(course)).content.decode()
    assert '<label for="id_steps">Steps</label>' in page
    assert re.search('<label for="id_sigmas"><math[^>]*>.*?</math> values</label>', page)


def test_a_run_page_lists_its_parameters_with_labels_not_a_dict(client, alice, course, lab):
    run = lab_run_request(lab=lab, course=course, requester=alice,
                          params={"units": 8, "sigmas": "0.5, 1, 1.5, 2"}, seed=1)
    client.force_login(alice)
    page = client.get(reverse("lab-run", args=[course.slug, run.uuid])).content.decode()
    text = _text(page)
    assert "Hidden units = 8" in text and "values = 0.5, 1, 1.5, 2" in text
    assert "sigmas" not in text and "param-name" not in page
    assert re.search(r'<span class="param-label"><math[^>]*>.*?</math> values</span>', page)
    assert "{" not in text.split("Parameters", 1)[1].split("Seed", 1)[0]


def test_the_near_one_regime_is_worded_as_what_the_measured_gradient_did(
    client, alice, course, lab, django_capture_on_commit_callbacks
):
    run = lab_run_request(lab=lab, course=course, requester=alice, params={"units": 8}, seed=1)
    lab_run_execute(run_id=run.pk)
    client.force_login(alice)
    text = _text(client.get(reverse("lab-run", args=[course.slug, run.uuid])).content.decode())
    key = text.split("Key numbers", 1)[1].split("Plot", 1)[0]
    assert "near-one" not in key
    assert "σmax=1" in key and "vanishing, although the bound stays near 1" in key
