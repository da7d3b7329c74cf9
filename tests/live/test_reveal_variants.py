"""A prediction whose keys depend on the variant, revealed live: each student is graded in the
numbers their phone asked with. Two students whose own variants differ (d = 512 and
d = 1024) give the same answer, "512", to "predict the spread of the raw scores", whose
anticipated mistake is the width d itself: in a room where each phone asks in its student's
own numbers, their verdicts differ (the mistake for one, a plain miss for the other); in a
room that shares the class's run and numbers, both answered the class's d and get its
verdict. The room's predictions graded against the class run together
(labs/prediction_batches.py) in each student's own variant give the verdicts one by one
grading gives them."""

from typing import cast

import pytest
from django.contrib.auth.models import User

from courses.models import CourseModule, Enrollment, Module, Part
from grading.models import Submission
from grading.variant_assignment import variant_for
from labs.models import LabRun
from labs.prediction_batches import predictions_grade_with_run
from labs.predictions import lab_run_execute_and_grade, prediction_run_request, predictions_grade_for_run
from live import reveal
from live.access import LiveStaff
from live.answers import live_answer_submit
from live.reveal import live_reveal
from live.sessions import live_session_open, live_session_run
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db

#: The raw scores' spread is near sqrt(d); a student who expects d itself has the scale wrong.
SPREAD = {
    "type": "numeric", "reference": "sqrt(d)", "rtol": 0.25,
    "lab": "self-attention", "measure": "score_std", "lab_params": {"d": "d", "power": "p"},
    "misconceptions": [{"answer": "d", "tag": "spread-is-width",
                        "feedback": "The spread of a dot product of width d grows like its "
                                    "square root, not like d."}],
}


@pytest.fixture
def spread(course) -> Part:
    """Module 6's unscaled-scores prediction asked as a number: the spread of the raw scores
    (its parameter d: 512 by default, 1024 in some students' own variants)."""
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    part = Part.objects.select_related("exercise").get(exercise__slug="predict-unscaled-peak",
                                                       key="peak")
    part.answer_type, part.spec = "numeric", SPREAD
    part.save(update_fields=["answer_type", "spec"])
    return part


def _student_with(course, part, d: int, prefix: str) -> User:
    for i in range(60):
        user = cast(User, UserFactory(username=f"{prefix}{i}"))
        if variant_for(student=user, course=course, exercise=part.exercise).params["d"] == d:
            EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
            return user
    pytest.fail(f"no student with d = {d} among 60")


@pytest.fixture
def pair(course, spread):
    """Two students of the course, their own variants d = 512 and d = 1024."""
    return _student_with(course, spread, 512, "a"), _student_with(course, spread, 1024, "b")


def _verdict(submission: Submission) -> tuple[str, str]:
    submission.refresh_from_db()
    return submission.outcome, submission.misconception


def _revealed(course, irene, part, variant, students) -> list[tuple[str, str, int]]:
    """Each student's verdict (outcome, misconception) and the width their lab run used."""
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    room = live_session_open(staff=staff, part_id=part.pk, variant=variant)
    held = [live_answer_submit(session=room, student=s, raw_answer="512") for s in students]
    live_session_run(session=room, staff=staff)
    live_reveal(session_id=room.pk)
    return [(*_verdict(s), LabRun.objects.get(submission=s).params["d"]) for s in held]


def test_own_numbers_room_grades_each_student_in_their_variant(course, irene, spread, pair):
    assert _revealed(course, irene, spread, "own", pair) == [
        ("incorrect", "spread-is-width", 512), ("incorrect", "", 1024)]


def test_class_numbers_room_grades_every_student_in_the_class_variant(course, irene, spread,
                                                                      pair):
    """Every phone asked d = 512 (the class's) and the lab ran with it: "512" is the width
    itself for both students, whatever their own variant says."""
    assert _revealed(course, irene, spread, "class", pair) == [
        ("incorrect", "spread-is-width", 512), ("incorrect", "spread-is-width", 512)]


def test_graded_together_in_own_variants_as_one_by_one(course, irene, spread, pair):
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    room = live_session_open(staff=staff, part_id=spread.pk, variant="class")
    room = live_session_run(session=room, staff=staff)
    lab_run_execute_and_grade(run_id=room.lab_run_id)
    run = LabRun.objects.get(pk=room.lab_run_id)
    together = [Submission.objects.create(student=s, course=course, part=spread,
                                          raw_answer="512", outcome=Submission.Outcome.PENDING)
                for s in pair]
    alone = [Submission.objects.create(student=s, course=course, part=spread,
                                       raw_answer="512", outcome=Submission.Outcome.PENDING)
             for s in pair]
    for submission in alone:  # each in its student's own variant (params read again)
        predictions_grade_for_run(run_id=prediction_run_request(
            submission, {"d": 512, "p": 0.0}, seed=run.seed).pk)

    predictions_grade_with_run(run=run, submission_ids=[s.pk for s in together])

    assert [_verdict(s) for s in together] == [_verdict(s) for s in alone] == [
        ("incorrect", "spread-is-width"), ("incorrect", "")]


def test_a_class_room_whose_run_failed_is_graded_in_the_class_numbers_by_the_workers(
        course, irene, spread, pair, monkeypatch):
    """The class's run failed: each prediction gets a run of its own in the class's numbers,
    which a worker executes after the reveal; its verdict is still in the class's numbers."""
    monkeypatch.setattr(reveal, "OWN_RUNS_WAIT_SECONDS", 0.0)  # no worker runs them meanwhile
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    room = live_session_open(staff=staff, part_id=spread.pk, variant="class")
    held = [live_answer_submit(session=room, student=s, raw_answer="512") for s in pair]
    room = live_session_run(session=room, staff=staff)
    LabRun.objects.filter(pk=room.lab_run_id).update(status=LabRun.Status.FAILED)
    live_reveal(session_id=room.pk)
    queued = list(LabRun.objects.filter(submission__in=held).order_by("submission_id"))
    assert [r.status for r in queued] == ["queued", "queued"]
    for run in queued:  # a worker, later
        lab_run_execute_and_grade(run_id=run.pk)
    assert [(*_verdict(s), LabRun.objects.get(submission=s).params["d"]) for s in held] == [
        ("incorrect", "spread-is-width", 512), ("incorrect", "spread-is-width", 512)]
