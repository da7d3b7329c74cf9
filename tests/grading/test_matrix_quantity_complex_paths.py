# ruff: noqa: RUF001 - the multiplication sign of shapes and unit symbols are tested
"""Matrices, quantities and complex numbers by every path: a content folder using each type
syncs (its keys self-checked), check_answers grades them inline and from content, the live
preview shows how they were read, and the API stores the verdict."""

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from courses.models import Exercise, Part
from courses.services import content_sync
from grading.models import Submission
from tests.grading.answer_paths import preview_then_submit

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).parent / "content" / "module-answer-types"

CASES = [
    # (spec, answer, canonical as previewed, outcome through the API)
    ({"type": "matrix", "reference": "[[2.83, 0], [0, 1.41]]"}, "[[2.83, 0], [0, 1.41]]",
     "[[2.83, 0], [0, 1.41]]", "correct"),
    ({"type": "matrix", "reference": [[1, 2], [3, 4]]}, "[1 3; 2 4]", "[[1, 3], [2, 4]]",
     "incorrect"),
    ({"type": "quantity", "reference": "3.2", "unit": "m/s"}, "3200 mm/s", "3200 mm/s",
     "correct"),
    ({"type": "numeric", "reference": "9.81", "units": "N/kg"}, "9.81 m·s^-2", "9.81 m/s^2",
     "correct"),
    ({"type": "numeric", "reference": "2*e^(i*pi/3)", "imaginary_unit": "i"}, "2 e^(iπ/3)",
     "2*e^(i*pi/3) ≈ 1 + 1.73205i", "correct"),
]


@pytest.fixture
def part(module_05):
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


@pytest.mark.parametrize(("spec", "answer", "canonical", "outcome"), CASES,
                         ids=[c[1] for c in CASES])
def test_preview_and_api(client, alice, course, part, spec, answer, canonical, outcome):
    preview_then_submit(client, alice, course, part, spec, answer, canonical, outcome)


def test_a_wrong_shape_is_stored_invalid_and_uses_no_attempt(client, alice, course, part):
    Part.objects.filter(pk=part.pk).update(spec={"type": "matrix", "points": 1,
                                                 "reference": [[1, 2, 3], [4, 5, 6]]})
    api = APIClient()
    api.force_login(alice)
    response = api.post(f"/api/v1/courses/{course.slug}/submissions/",
                        {"part": part.pk, "answer": "[1 4; 2 5; 3 6]"}, format="json")
    assert response.status_code in (201, 400), response.content
    stored = Submission.objects.get(part=part)
    assert stored.outcome == "invalid"
    assert "expected a 2×3 matrix, got 3×2" in stored.feedback


def test_the_fixture_module_syncs_and_its_keys_grade_correct(db):
    content_sync(root=FIXTURE)
    exercises = Exercise.objects.filter(module__slug="module-answer-types")
    assert sorted(e.slug for e in exercises) == [
        "complex-root", "matrix-attention-scores", "quantity-potential-energy"]
    lines = [
        {"id": "scores", "exercise": "matrix-attention-scores", "part": "scores",
         "answer": "[0.5 1.5; 1 2]"},
        {"id": "scale", "exercise": "matrix-attention-scores", "part": "scores",
         "answer": "[[1, 3], [2, 4]]"},
        {"id": "axis", "exercise": "matrix-attention-scores", "part": "weights",
         "answer": "[[0.378, 0.378], [0.622, 0.622]]"},
        {"id": "energy", "exercise": "quantity-potential-energy", "part": "energy",
         "answer": "0.1962 kJ"},
        {"id": "force", "exercise": "quantity-potential-energy", "part": "energy",
         "answer": "19.62 N"},
        {"id": "tokens", "exercise": "quantity-potential-energy", "part": "tokens",
         "answer": "600 ktokens"},
        {"id": "root", "exercise": "complex-root", "part": "root",
         "answer": "2(cos(π/3) + i sin(π/3))"},
        {"id": "wave", "exercise": "complex-root", "part": "wave",
         "answer": "cos(2t) + i sin(2t)"},
        {"id": "inline", "answer": "[1 2; 3 4]",
         "spec": {"type": "matrix", "reference": "A"}, "params": {"A": [[1, 2], [3, 4]]}},
    ]
    results = {r["id"]: r for r in _check(lines)}
    assert results["scores"]["outcome"] == "correct"
    assert results["scale"]["misconception"] == "missing-scale"
    assert results["axis"]["misconception"] == "softmax-axis"
    assert results["energy"]["outcome"] == "correct"
    assert results["force"]["misconception"] == "force-not-energy"
    assert results["tokens"]["outcome"] == "correct"
    assert results["root"]["outcome"] == "correct"
    assert results["wave"]["outcome"] == "correct"
    assert results["inline"]["outcome"] == "correct"


def test_a_broken_matrix_key_is_refused_at_sync_with_file_and_line(tmp_path):
    root = tmp_path / "module-answer-types"
    shutil.copytree(FIXTURE, root)
    exercise = root / "exercises" / "matrix-attention-scores.toml"
    exercise.write_text(exercise.read_text(encoding="utf-8").replace(
        'reference = "Q*transpose(K)/sqrt(d)"', 'reference = "Q*K*transpose(Q)*[1, 2, 3]"'),
        encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was applied"):
        call_command("sync_content", str(root), stdout=StringIO(), stderr=err)
    assert "matrix-attention-scores.toml:" in err.getvalue()
    assert "cannot multiply" in err.getvalue() or "reference" in err.getvalue()


def _check(lines):
    out = StringIO()
    source = Path(FIXTURE.parent.parent) / "_answer_types.jsonl"
    try:
        source.write_text("\n".join(json.dumps(line) for line in lines) + "\n",
                          encoding="utf-8")
        call_command("check_answers", str(source), stdout=out)
    finally:
        source.unlink(missing_ok=True)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_dry_run_regrade_lists_answers_with_units_and_matrices_the_new_grader_reads(
        alice, course, module_05):
    from grading.services import submission_create

    part = Part.objects.get(exercise__slug="apply-3-context-value")
    Part.objects.filter(pk=part.pk).update(spec={"type": "numeric", "reference": "3.2",
                                                 "points": 1})
    speed = submission_create(student=alice, course=course, part=Part.objects.get(pk=part.pk),
                              raw_answer="3.2 m/s")
    assert speed.outcome == "invalid" and "unknown name 'm'" in speed.feedback
    Submission.objects.filter(pk=speed.pk).update(grader_version="2.0.0")
    Part.objects.filter(pk=part.pk).update(spec={"type": "numeric", "reference": "3.2",
                                                 "units": "m/s", "points": 1})
    out = StringIO()
    call_command("regrade", "--all", "--dry-run", stdout=out, stderr=StringIO())
    text = out.getvalue()
    assert f"#{speed.pk} " in text and "invalid None -> correct 1.0" in text
    assert "[graded by 2.0.0]" in text
    speed.refresh_from_db()
    assert speed.outcome == "invalid"  # a dry run stores nothing
