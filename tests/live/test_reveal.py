"""The live path end to end in services: answers held, the distribution, Run grading all."""

import pytest

from grading.models import PartProgress, Submission
from labs.models import LabRun
from labs.recovery import predictions_recover
from live.answers import LiveAnswerRefused, live_answer_submit
from live.models import LiveAnswer, LiveSession, LiveSettings
from live.reveal import live_reveal
from live.selectors import live_room_state
from live.sessions import LiveActionRefused, live_session_control, live_session_run
from tests.live.conftest import enrol_students

pytestmark = pytest.mark.django_db


def test_predictions_are_held_until_run_and_then_all_graded_against_the_class_run(
        course, session, staff):
    students = enrol_students(course, 4)
    answers = ["queen", "woman", "queen", "far"]
    for student, raw in zip(students, answers, strict=True):
        submission = live_answer_submit(session=session, student=student, raw_answer=raw)
        assert submission.outcome == Submission.Outcome.PENDING
    # Held: no lab run yet for any of them, and the recovery sweep leaves them alone too.
    assert not LabRun.objects.filter(submission__live__session=session).exists()
    predictions_recover(older_than=__import__("datetime").timedelta(0))
    assert not LabRun.objects.filter(submission__live__session=session).exists()

    state = live_room_state(session_id=session.pk)
    assert state["count"] == 4
    assert {b["key"]: b["count"] for b in state["bars"]} == {"queen": 2, "king": 0, "woman": 1, "far": 1}
    assert "woman" in [b["key"] for b in state["bars"] if b["note"]]  # misconception label shown

    session = live_session_run(session=session, staff=staff)
    assert session.state == LiveSession.State.RUNNING
    assert session.distribution_before["count"] == 4
    assert live_reveal(session_id=session.pk) == 4

    session.refresh_from_db()
    assert session.state == LiveSession.State.REVEALED
    assert session.measured == "Near queen"
    outcomes = dict(LiveAnswer.objects.filter(session=session)
                    .values_list("submission__raw_answer", "submission__outcome").distinct())
    assert outcomes == {"queen": "correct", "woman": "incorrect", "far": "incorrect"}
    assert session.distribution_after == {"verdicts": {"correct": 2, "incorrect": 2}}
    # Ordinary submissions: the progress rows (gradebook, dashboard) count them.
    assert PartProgress.objects.filter(course=course, part=session.part, best_score=1.0).count() == 2
    # The class's run was executed once; each prediction's run reused its result.
    runs = LabRun.objects.filter(submission__live__session=session)
    assert runs.count() == 4 and all(r.reused_from_id == session.lab_run_id for r in runs)
    assert live_reveal(session_id=session.pk) == 0  # a redelivered task does nothing


def test_an_unreadable_answer_uses_no_attempt_and_the_student_may_answer_again(course, session):
    (student,) = enrol_students(course, 1)
    first = live_answer_submit(session=session, student=student, raw_answer="emperor")
    assert first.outcome == Submission.Outcome.INVALID
    assert live_room_state(session_id=session.pk)["count"] == 0
    second = live_answer_submit(session=session, student=student, raw_answer="queen")
    assert second.outcome == Submission.Outcome.PENDING
    with pytest.raises(LiveAnswerRefused, match="locked"):
        live_answer_submit(session=session, student=student, raw_answer="king")
    assert live_room_state(session_id=session.pk)["count"] == 1


def test_closing_refuses_answers_reopening_takes_them_and_run_ends_the_controls(course, session, staff):
    (student,) = enrol_students(course, 1)
    live_session_control(session=session, action="close")
    session.refresh_from_db()
    with pytest.raises(LiveAnswerRefused, match="closed"):
        live_answer_submit(session=session, student=student, raw_answer="queen")
    assert not Submission.objects.filter(student=student).exists()  # nothing stored
    live_session_control(session=session, action="reopen")
    session.refresh_from_db()
    live_answer_submit(session=session, student=student, raw_answer="queen")
    live_session_control(session=session, action="hide")
    assert live_room_state(session_id=session.pk)["bars"] == []
    live_session_run(session=session, staff=staff)
    with pytest.raises(LiveActionRefused):
        live_session_control(session=session, action="reopen")
    with pytest.raises(LiveActionRefused):
        live_session_run(session=session, staff=staff)


def test_staff_cannot_answer(session, irene):
    with pytest.raises(LiveAnswerRefused, match="students"):
        live_answer_submit(session=session, student=irene, raw_answer="queen")


def test_own_variant_mode_runs_each_students_lab(course, staff, analogy):
    from live.sessions import live_session_open

    session = live_session_open(staff=staff, part_id=analogy.pk, variant="own")
    students = enrol_students(course, 2)
    for student in students:
        live_answer_submit(session=session, student=student, raw_answer="queen")
    live_session_run(session=session, staff=staff)
    assert live_reveal(session_id=session.pk) == 2
    graded = Submission.objects.filter(live__session=session)
    assert all(s.outcome in Submission.GRADED_OUTCOMES for s in graded)
    assert LabRun.objects.filter(submission__in=graded, reused_from__isnull=True).exists()


def test_participation_only_course_gives_full_credit_to_every_answer(course, session, staff):
    LiveSettings.objects.create(course=course, scoring=LiveSettings.Scoring.PARTICIPATION)
    students = enrol_students(course, 2)
    live_answer_submit(session=session, student=students[0], raw_answer="queen")
    live_answer_submit(session=session, student=students[1], raw_answer="woman")
    live_session_run(session=session, staff=staff)
    live_reveal(session_id=session.pk)
    scores = set(PartProgress.objects.filter(course=course, part=session.part)
                 .values_list("best_score", flat=True))
    assert scores == {1.0}


def test_a_part_without_a_lab_is_revealed_with_the_grades_it_got(course, staff, module_05):
    from courses.models import Part
    from live.sessions import live_session_open

    part = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    session = live_session_open(staff=staff, part_id=part.pk, variant="class")
    students = enrol_students(course, 3)
    for student, raw in zip(students, ["40", "1", "4e1"], strict=True):
        live_answer_submit(session=session, student=student, raw_answer=raw)
    state = live_room_state(session_id=session.pk)
    assert state["kind"] == "number" and state["count"] == 3
    assert sum(b["count"] for b in state["bars"]) == 3
    live_session_run(session=session, staff=staff)
    live_reveal(session_id=session.pk)
    session.refresh_from_db()
    assert session.state == LiveSession.State.REVEALED
    assert sum(session.distribution_after["verdicts"].values()) == 3


def test_the_room_state_of_a_session_that_does_not_exist_is_none() -> None:
    assert live_room_state(session_id=10**9) is None
