# ruff: noqa: RUF001 - maths symbols are the point of these tests
"""Equations, sets, lists, strings and alternatives reach students by every path: a content
module that syncs (tests/fixtures/answer_types), the live preview, the API, check_answers,
and regrade --dry-run (which lists the '(0, 1]' vector verdict the old grader got wrong)."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from courses.models import Part
from courses.services import content_sync
from grading.models import Submission
from tests.grading.answer_paths import preview_then_submit

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "answer_types"

CASES = [
    # (spec, answer, canonical as previewed (None: no preview), outcome through the API)
    ({"type": "equation", "reference": "y = 2x + 1", "variables": ["x", "y"]},
     "2y = 4x + 2", "2*y = 4*x + 2", "correct"),
    ({"type": "equation", "reference": "-2 <= x < 5", "variables": ["x"]},
     "x ≥ -2 and x < 5", "x >= -2 and x < 5", "correct"),
    ({"type": "set", "reference": "(-oo, 0) U (1, oo)"}, "(1, ∞) ∪ (-∞, 0)",
     "(1, oo) U (-oo, 0)", "correct"),
    ({"type": "set", "reference": "(0, 1]"}, "(0, 1)", "(0, 1)", "incorrect"),
    ({"type": "list", "reference": ["2", "-3"]}, "-3, 2", "-3, 2", "correct"),
    ({"type": "string", "reference": "softmax"}, " SoftMax ", None, "correct"),
    ({"type": "symbolic", "reference": "2x", "variables": ["x"], "alternatives": [
        {"answer": "x + x", "match": "written", "credit": 0.5}]}, "x+x", "x + x", "partial"),
]


@pytest.fixture
def part(module_05):
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


@pytest.mark.parametrize(("spec", "answer", "canonical", "outcome"), CASES,
                         ids=[c[1] for c in CASES])
def test_preview_and_api(client, alice, course, part, spec, answer, canonical, outcome):
    preview_then_submit(client, alice, course, part, spec, answer, canonical, outcome)


def test_a_mismatched_bracket_is_previewed_as_invalid_with_its_position(client, alice, course,
                                                                         part):
    Part.objects.filter(pk=part.pk).update(spec={"type": "set", "reference": "{0, 1}"})
    client.force_login(alice)
    preview = client.get(reverse("part-preview", args=[course.slug, part.pk]),
                         {"answer": "{0, 1)"}).json()
    assert not preview["valid"] and preview["position"] == 6


def test_the_fixture_module_syncs_with_every_new_type():
    report = content_sync(root=FIXTURE)
    assert report is not None
    types = set(Part.objects.filter(exercise__module__slug="module-90-answer-types")
                .values_list("spec__type", flat=True))
    assert {"equation", "set", "list", "string"} <= types


def test_a_broken_new_type_spec_is_refused_with_file_and_line(tmp_path):
    import shutil

    from courses.services import ContentInvalid

    root = tmp_path / "content"
    shutil.copytree(FIXTURE, root)
    path = root / "module-90" / "exercises" / "sets.toml"
    path.write_text(path.read_text().replace('reference = "(-oo, -1) U (1, oo)"',
                                             'reference = "(-oo, -1} U (1, oo)"'))
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=root)
    messages = [str(e) for e in caught.value.errors]
    assert any("sets.toml:" in m and "reference" in m for m in messages), messages


def test_check_answers_grades_inline_specs_of_the_new_types():
    lines = [
        {"spec": {"type": "equation", "reference": "x^2 = 4", "variables": ["x"]},
         "answer": "x = 2 or x = -2"},
        {"spec": {"type": "set", "reference": "[2, oo)"}, "answer": "[2, inf)"},
        {"spec": {"type": "list", "reference": ["1", "2"], "ordered": True}, "answer": "2, 1"},
        {"spec": {"type": "string", "pattern": "soft-?max"}, "answer": "Soft-Max"},
        {"spec": {"type": "vector", "reference": ["0", "1"]}, "answer": "(0, 1]"},
    ]
    source = StringIO("\n".join(json.dumps(line) for line in lines) + "\n")
    out = StringIO()
    import sys

    stdin, sys.stdin = sys.stdin, source
    try:
        call_command("check_answers", "-", stdout=out)
    finally:
        sys.stdin = stdin
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["outcome"] for r in results] == ["correct", "correct", "incorrect", "correct",
                                               "invalid"]


def test_regrade_dry_run_lists_the_interval_read_as_a_vector(alice, course, part):
    # The grader before 2.1.0 read "(0, 1]" as the vector [0, 1] and stored "correct".
    Part.objects.filter(pk=part.pk).update(spec={"type": "vector", "reference": ["0", "1"],
                                                 "points": 1})
    stored = Submission.objects.create(
        student=alice, course=course, part=part, raw_answer="(0, 1]", variant_seed=1,
        outcome="correct", score=1.0, feedback="Correct.", grader_version="2.0.0")
    out = StringIO()
    call_command("regrade", "--all", "--dry-run", stdout=out, stderr=StringIO())
    assert "'(0, 1]': correct 1.0 -> invalid" in out.getvalue(), out.getvalue()
    stored.refresh_from_db()
    assert stored.outcome == "correct"  # a dry run stores nothing
