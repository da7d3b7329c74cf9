"""Module 6's worked example and its figures tell the same numbers: the scores and weights
the text of sections 6.2 and 6.3 computes are recomputed here with numpy from the text's Q
and K, and must be the numbers of Figures 6.2 (heat map of S), 6.3a (heat map of A) and 6.3b
(bars of A's first row); the module page draws them, 6.3's folded until its prediction."""

import html
import re
import tomllib
from typing import cast

import numpy as np
import pytest
from django.contrib.auth.models import User

from courses.models import Course, Enrollment, Figure, Module
from courses.services import content_sync
from tests.conftest import CONTENT_ROOT
from tests.factories import UserFactory

MODULE = CONTENT_ROOT / "module-06"


def _body(name: str) -> str:
    return (MODULE / "sections" / name).read_text()


def _matrices(text: str) -> dict[str, np.ndarray]:
    """Every `NAME = \\begin{bmatrix} ... \\end{bmatrix}` of a section, as arrays."""
    found = {}
    for name, body in re.findall(r"(\w) = \\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", text, re.DOTALL):
        rows = [[float(cell) for cell in row.split("&")] for row in body.split(r"\\")]
        found[name] = np.array(rows)
    return found


def _data(slug: str) -> dict:
    return tomllib.loads((MODULE / "figures" / f"{slug}.toml").read_text())["data"]


@pytest.fixture(scope="module")
def worked() -> dict[str, np.ndarray]:
    """Q, K and S as section 6.2 prints them, and A = softmax(S) computed here."""
    matrices = _matrices(_body("02-scaled-scores.md"))
    scores = matrices["Q"] @ matrices["K"].T / np.sqrt(matrices["Q"].shape[1])
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    return {**matrices, "computed_S": scores, "A": weights}


def test_the_scores_the_text_prints_are_qk_transposed_over_root_d(worked):
    np.testing.assert_allclose(worked["S"], worked["computed_S"])
    assert "$S_{13} = 0.5$" in _body("02-scaled-scores.md")
    assert worked["computed_S"][0, 2] == 0.5


def test_figure_6_2_is_the_heat_map_of_those_scores(worked):
    data = _data("worked-scores")
    np.testing.assert_allclose(data["values"], worked["computed_S"])
    assert data["rows"] == data["columns"] == ["the", "cat", "sat"]


def test_figure_6_3a_holds_the_softmax_of_every_row_to_three_places(worked):
    np.testing.assert_allclose(_data("worked-weights")["values"], worked["A"], atol=5e-4)


def test_figure_6_3b_is_the_first_row_of_weights(worked):
    bars = _data("worked-softmax-row")
    np.testing.assert_allclose(bars["values"], worked["A"][0], atol=5e-4)
    assert bars["labels"] == ["the", "cat", "sat"]


def test_the_text_of_6_3_prints_the_same_weights_and_sums(worked):
    text = _body("03-softmax-weighted-sum.md")
    first = np.exp(worked["computed_S"][0])
    assert f"add up to ${first.sum():.3f}$" in text
    assert f"$e^1 \\approx {first[0]:.3f}$" in text and f"$e^{{0.5}} \\approx {first[2]:.3f}$" in text
    for row in worked["A"]:
        assert "(" + ", ".join(f"{w:.3f}" for w in row) + ")" in text or (
            np.allclose(row, 1 / 3) and "1/3 \\approx 0.333" in text)


@pytest.fixture
def dora(db) -> tuple[User, Course]:
    content_sync(root=CONTENT_ROOT)
    course = Course.objects.create(slug="attention-spring", title="Attention",
                                   module=Module.objects.get(slug="module-06"))
    user = cast(User, UserFactory(username="dora"))
    course.enrollments.create(user=user, role=Enrollment.Role.STUDENT)
    return user, course


def test_the_module_page_draws_the_figures_of_the_worked_example(client, dora):
    user, course = dora
    client.force_login(user)
    page = client.get(f"/courses/{course.slug}/").content.decode()
    section = page[page.index('id="s-6.2"'):page.index('id="s-6.3"')]
    figure = section[section.index('id="figure-worked-scores"'):section.index("</figure>")]
    assert '<svg class="drawn-figure heatmap"' in figure and 'role="img"' in figure
    assert "Figure 6.2: The scaled scores of the worked example</title>" in figure
    assert figure.count("<rect x=") == 9 and ">0.5</text>" in figure
    assert "Data table of Figure 6.2" in figure and '<th scope="row">cat</th>' in figure
    assert 'id="reveal-worked-scores"' not in page  # 6.2 has no prediction
    assert html.unescape(Figure.objects.get(slug="worked-scores").in_words) in html.unescape(figure)


def test_the_figures_of_6_3_wait_for_its_prediction(client, dora):
    user, course = dora
    client.force_login(user)
    page = client.get(f"/courses/{course.slug}/").content.decode()
    for slug, kind in (("worked-weights", "heatmap"), ("worked-softmax-row", "bars")):
        folded = page[page.index(f'<details class="reveal" id="reveal-{slug}"'):]
        folded = folded[:folded.index("</details>\n")]
        assert f'<svg class="drawn-figure {kind}"' in folded
