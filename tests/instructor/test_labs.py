"""Labs and predictions on the dashboard: runs per lab, failures, and predictions against
what the lab measured."""

import pytest

from courses.models import Lab, Part
from grading.models import Submission
from instructor.labs import labs_overview
from labs.models import LabRun
from labs.services import params_key


@pytest.fixture
def analogy(module_05):
    return (Part.objects.get(exercise__slug="predict-analogy", key="endpoint"),
            Lab.objects.get(slug="word-vectors"))


def _prediction(student, course, part, lab, predicted, outcome, *, status, nearest=None):
    submission = Submission.objects.create(
        student=student, course=course, part=part, raw_answer=predicted, canonical=predicted,
        outcome=outcome, score=1.0 if outcome == "correct" else 0.0, counts_as_attempt=True)
    LabRun.objects.create(
        lab=lab, course=course, requester=student, submission=submission, params={},
        params_key=params_key({}), seed=1, status=status,
        result=None if nearest is None else {"nearest": nearest, "words": ["king", "queen"]})
    return submission


def test_runs_per_lab_count_successes_and_failures(course, alice, bob, analogy):
    part, lab = analogy
    _prediction(alice, course, part, lab, "queen", "correct", status=LabRun.Status.SUCCEEDED,
                nearest="queen")
    _prediction(bob, course, part, lab, "woman", "error", status=LabRun.Status.FAILED)
    LabRun.objects.create(lab=lab, course=course, requester=bob, params={},
                          params_key=params_key({}), seed=2, status=LabRun.Status.QUEUED)
    usage = next(u for u in labs_overview(course=course).labs if u.lab.pk == lab.pk)
    assert (usage.runs, usage.succeeded, usage.failed, usage.unfinished, usage.students) == (
        3, 1, 1, 1, 2)
    assert usage.failure_pct == pytest.approx(50.0)


def test_predictions_are_compared_with_the_measured_value(course, alice, bob, irene, analogy):
    part, lab = analogy
    _prediction(alice, course, part, lab, "queen", "correct", status=LabRun.Status.SUCCEEDED,
                nearest="queen")
    _prediction(bob, course, part, lab, "woman", "incorrect", status=LabRun.Status.SUCCEEDED,
                nearest="queen")
    calibration = next(c for c in labs_overview(course=course).calibrations if c.part.pk == part.pk)
    assert (calibration.predictions, calibration.agreed, calibration.awaiting_lab) == (2, 1, 0)
    assert calibration.agreed_pct == pytest.approx(50.0)
    cells = sorted((c.predicted, c.measured, c.count, c.agrees) for c in calibration.cells)
    assert cells == [("queen", "queen", 1, True), ("woman", "queen", 1, False)]


def test_runs_by_staff_are_not_counted(course, irene, analogy):
    _, lab = analogy
    LabRun.objects.create(lab=lab, course=course, requester=irene, params={},
                          params_key=params_key({}), seed=3, status=LabRun.Status.SUCCEEDED)
    usage = next(u for u in labs_overview(course=course).labs if u.lab.pk == lab.pk)
    assert usage.runs == 0
