"""Module 6 (self-attention) syncs from its content files beside Module 5, and every one of its
keys is marked correct through the student's path (submission_create in a course): the
scores matrix names its misconceptions, the chain scores -> weight -> output carries a slip
forward, and the prediction is graded against what the self-attention lab measured."""

import math
import shutil
from typing import Any, cast

import pytest
from django.contrib.auth.models import User

from courses.models import Course, Enrollment, Lab, Module, Part
from courses.services import content_sync
from grading.checkers import CHECKERS
from grading.models import Submission
from grading.services import submission_create
from grading.variant_assignment import variant_for
from labs.models import LabRun
from labs.predictions import lab_run_execute_and_grade
from tests.conftest import CONTENT_ROOT
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def module_06() -> Module:
    content_sync(root=CONTENT_ROOT)
    return Module.objects.get(slug="module-06")


@pytest.fixture
def carol(module_06: Module):
    """A student of a course that runs Module 6."""
    course = Course.objects.create(slug="attention-winter", title="Attention, winter", module=module_06)
    user = cast(User, UserFactory(username="carol"))
    course.enrollments.create(user=user, role=Enrollment.Role.STUDENT)
    return user, course


def _part(exercise: str, key: str) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug=exercise, key=key)


def _params(student, course: Course, part: Part) -> dict[str, Any]:
    return variant_for(student=student, course=course, exercise=part.exercise).params


def _submit(student, course: Course, part: Part, raw: str) -> Submission:
    return submission_create(student=student, course=course, part=part, raw_answer=raw)


def test_module_06_syncs_with_its_sections_exercises_and_lab(module_06):
    assert module_06.title == "Self-attention"
    assert list(module_06.sections.order_by("order").values_list("number", flat=True)) == [
        "6.1", "6.2", "6.3", "6.4"]
    assert sorted(module_06.exercises.values_list("slug", flat=True)) == [
        "attention-weighted-sum", "multi-head-shapes", "predict-unscaled-peak", "scores-matrix"]
    lab = Lab.objects.get(module=module_06)
    assert (lab.slug, lab.simulation) == ("self-attention", "self-attention")
    assert Module.objects.filter(slug="module-05").exists()


def test_a_second_sync_changes_nothing(module_06):
    report = content_sync(root=CONTENT_ROOT)
    assert (report.change_count, report.unchanged > 0) == (0, True)


def test_adding_module_06_leaves_module_05_unchanged(tmp_path):
    shutil.copytree(CONTENT_ROOT / "module-05", tmp_path / "module-05")
    content_sync(root=tmp_path)
    report = content_sync(root=CONTENT_ROOT)
    assert (report.updated, report.archived, report.restored) == ([], [], [])
    assert "module module-06" in report.created and "lab self-attention" in report.created


@pytest.mark.parametrize(("exercise", "key"), [
    ("scores-matrix", "scores"),
    ("multi-head-shapes", "head_shape"),
    ("multi-head-shapes", "score_entries_all_heads"),
    ("multi-head-shapes", "score_entries"),
])
def test_each_key_is_correct_for_the_students_variant(carol, exercise, key):
    student, course = carol
    part = _part(exercise, key)
    answer = CHECKERS[part.spec["type"]].reference_answer(part.spec, _params(student, course, part))
    stored = _submit(student, course, part, answer)
    assert (stored.outcome, stored.score) == ("correct", 1.0), (answer, stored.feedback)


def test_the_chain_keys_are_correct_in_order(carol):
    student, course = carol
    params = _params(student, course, _part("attention-weighted-sum", "scores"))
    q, k1, k2, d = params["q"], params["k1"], params["k2"], params["d"]
    s1, s2 = (sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(d) for k in (k1, k2))
    weight = math.exp(s1) / (math.exp(s1) + math.exp(s2))
    output = weight * params["v1"] + (1 - weight) * params["v2"]
    for key, raw in (("scores", f"[{s1}, {s2}]"), ("weight", f"{weight:.5f}"),
                     ("output", f"{output:.5f}")):
        stored = _submit(student, course, _part("attention-weighted-sum", key), raw)
        assert (stored.outcome, stored.score) == ("correct", 1.0), (key, stored.feedback)


@pytest.mark.parametrize(("reference", "tag"), [
    ("Q*transpose(K)", "missing-scale"),
    ("K*transpose(Q)/sqrt(d)", "transposed"),
])
def test_the_scores_matrix_names_the_misconception(carol, reference, tag):
    student, course = carol
    part = _part("scores-matrix", "scores")
    wrong = CHECKERS["matrix"].reference_answer({**part.spec, "reference": reference},
                                                _params(student, course, part))
    stored = _submit(student, course, part, wrong)
    assert (stored.outcome, stored.misconception) == ("incorrect", tag), stored.feedback


def test_a_slip_in_the_scores_is_carried_to_the_weight_and_the_output(carol):
    student, course = carol
    params = _params(student, course, _part("attention-weighted-sum", "scores"))
    q, k1, k2, d = params["q"], params["k1"], params["k2"], params["d"]
    s1, s2 = (sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(d) for k in (k1, k2))
    slip = (s1 + 1, s2)  # a slip in the first score
    scores = _submit(student, course, _part("attention-weighted-sum", "scores"),
                     f"[{slip[0]}, {slip[1]}]")
    assert scores.outcome == "incorrect"
    weight = math.exp(slip[0]) / (math.exp(slip[0]) + math.exp(slip[1]))
    w = _submit(student, course, _part("attention-weighted-sum", "weight"), f"{weight:.5f}")
    assert (w.outcome, w.score) == ("partial", 0.75), w.feedback
    assert "Marked using your answer to (scores)" in w.feedback
    output = weight * params["v1"] + (1 - weight) * params["v2"]
    out = _submit(student, course, _part("attention-weighted-sum", "output"), f"{output:.5f}")
    assert (out.outcome, out.score) == ("partial", 0.75), out.feedback


@pytest.mark.parametrize(("prediction", "tag"), [("one-hot", None), ("uniform", "scale-direction")])
def test_the_prediction_is_graded_against_the_self_attention_lab_without_the_scale(
    carol, prediction, tag, django_capture_on_commit_callbacks
):
    student, course = carol
    part = _part("predict-unscaled-peak", "peak")
    params = _params(student, course, part)
    with django_capture_on_commit_callbacks(execute=True):
        stored = _submit(student, course, part, prediction)
    assert stored.outcome == Submission.Outcome.PENDING
    run = LabRun.objects.get(submission=stored)
    assert (run.lab.slug, run.params["d"], run.params["power"]) == ("self-attention", params["d"], 0.0)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=run.pk)
    stored.refresh_from_db()
    run.refresh_from_db()
    # The measurement decides: without the scale, d >= 512 gives one-hot rows in all but
    # about 2 runs of 100,000; a rare spread run must grade the prediction against itself too.
    right = run.result["peak"] == prediction
    assert stored.outcome == ("correct" if right else "incorrect"), stored.feedback
    if not right:
        assert stored.misconception == tag
