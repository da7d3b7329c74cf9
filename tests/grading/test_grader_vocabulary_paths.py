# ruff: noqa: RUF001 - maths symbols are the point of these tests
"""The grader's vocabulary and precision reach students by every path: the live preview (how
the answer was read, as MathML) and the API (the verdict), not only check_answers."""

import pytest
from rest_framework.test import APIClient

from courses.models import Part
from grading.models import Submission
from tests.grading.answer_paths import preview_then_submit

pytestmark = pytest.mark.django_db

CASES = [
    # (spec, answer, canonical as previewed, outcome through the API)
    ({"type": "symbolic", "reference": "atan(x)", "variables": ["x"]}, "arctan(x)",
     "atan(x)", "correct"),
    ({"type": "symbolic", "reference": "n!/(k!(n-k)!)", "variables": ["n", "k"]},
     "nCr(n, k)", "binomial(n, k)", "correct"),
    ({"type": "symbolic", "reference": "n + m", "variables": ["n", "m"]},
     "（n ＋ m）", "n + m", "correct"),
    ({"type": "symbolic", "reference": "f(g(n), 1)", "variables": ["n"],
      "functions": {"f": 2, "g": 1}}, "f(g(n), 1)", "f(g(n), 1)", "correct"),
    ({"type": "symbolic", "reference": "1/(1 + e^-x)", "variables": ["x"],
      "functions": ["sigma"]}, "σ(x)", "sigmoid(x)", "correct"),
    ({"type": "symbolic", "reference": "2y/3", "variables": ["y"]}, "0.6666666667 y",
     "0.6666666667*y", "incorrect"),
    ({"type": "integer", "reference": "7140"}, "120!/(118!·2)", "120!/(118!*2) = 7140",
     "correct"),
    ({"type": "numeric", "reference": "0.01235", "sigfigs": 3}, "0.0123", "0.0123",
     "incorrect"),
    ({"type": "numeric", "reference": "-oo", "allow_infinity": True}, "-infty + 99",
     "-oo + 99 ≈ -oo", "correct"),
    ({"type": "numeric", "reference": "0.0015"}, "0,0015", "0.0015", "correct"),
]


@pytest.fixture
def part(module_05):
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


@pytest.mark.parametrize(("spec", "answer", "canonical", "outcome"), CASES,
                         ids=[c[1] for c in CASES])
def test_preview_and_api_read_and_grade_the_whole_vocabulary(client, alice, course, part, spec,
                                                            answer, canonical, outcome):
    preview_then_submit(client, alice, course, part, spec, answer, canonical, outcome)


def test_an_undecidable_symbolic_answer_is_stored_for_review(client, alice, course, part,
                                                            monkeypatch):
    from grading.checkers import isolation

    monkeypatch.setattr(isolation, "sympy_equivalent", lambda *args, **kwargs: None)
    Part.objects.filter(pk=part.pk).update(spec={
        "type": "symbolic", "reference": "sqrt(-1 - x^2)", "variables": ["x"]})
    api = APIClient()
    api.force_login(alice)
    response = api.post(f"/api/v1/courses/{course.slug}/submissions/",
                        {"part": part.pk, "answer": "sqrt(-(x^2 + 1))"}, format="json")
    assert response.status_code == 201
    assert response.json()["outcome"] == "review"
    assert Submission.objects.get(pk=response.json()["id"]).outcome == "review"


NEXT_MODULE_EXERCISE = '''uuid = "0c9d5e52-64a4-4c1e-9a51-3a2b4c7d9e10"
slug = "vocabulary-check"
kind = "apply"
section = "5.3"
order = 99
title = "Vocabulary"
prompt = "Answers in the vocabulary of any maths course, for N = {{ N }}."
max_attempts = 5
penalty = 0.1

[parameters.N]
default = 10
choices = [10, 12, 20]

[[parts]]
key = "pairs"
type = "integer"
points = 1
prompt = "How many pairs?"
reference = "binomial(N, 2)"

  [[parts.misconceptions]]
  answer = "N^2"
  tag = "ordered-pairs"
  label = "Counts ordered pairs"
  feedback = "Each pair was counted twice."

[[parts]]
key = "angle"
type = "symbolic"
points = 1
prompt = "The angle."
reference = "arctan(y/x) + log(N, 2) - log_2(N)"
variables = ["x", "y"]
rtol = 1e-9

  [[parts.misconceptions]]
  answer = "atan(x/y)"
  tag = "swapped"
  label = "Swaps the legs"
  feedback = "Opposite over adjacent."

[[parts]]
key = "composed"
type = "symbolic"
points = 1
prompt = "f of g."
reference = "f(g(x), N) + σ(x) + relu(x) + sec(x)^2 - tan(x)^2"
variables = ["x"]
functions = {f = 2, g = 1, "σ" = 1}
domain = "real"

[[parts]]
key = "bound"
type = "numeric"
points = 1
prompt = "The bound, to two decimal places."
reference = "sqrt(N)"
decimals = 2
written_decimals = 2

[[parts]]
key = "limit"
type = "numeric"
points = 1
prompt = "The limit."
reference = "-oo"
allow_infinity = true
'''


def test_sync_content_accepts_the_whole_vocabulary_in_references_and_misconceptions(tmp_path):
    import shutil

    from django.conf import settings

    from courses.services import content_sync

    target = tmp_path / "module-05"
    shutil.copytree(settings.CONTENT_ROOT / "module-05", target)
    (target / "exercises" / "vocabulary-check.toml").write_text(NEXT_MODULE_EXERCISE,
                                                                encoding="utf-8")
    content_sync(root=target)
    spec = Part.objects.get(exercise__slug="vocabulary-check", key="pairs").spec
    assert spec["misconceptions"][0]["label"] == "Counts ordered pairs"
