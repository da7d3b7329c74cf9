"""A room's predictions graded against the class's run at once: the same verdicts, runs,
progress rows, wrong-answer sums and events as one by one, in queries that do not grow
with the room."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import WebhookDelivery, WebhookSubscription
from events.outbox import Event
from events.webhooks import webhook_deliveries_record_many
from grading.models import DefaultVariant, GradeOverride, PartProgress, StudentProgress, Submission
from grading.overrides import grade_override_create
from grading.progress_fold import PART_FIELDS, STUDENT_FIELDS
from grading.progress_rebuild import progress_rebuild
from labs.models import LabRun
from labs.prediction_batches import predictions_grade_with_run
from labs.predictions import prediction_run_request, predictions_grade_for_run
from live.answers import live_answer_submit
from live.reveal import live_reveal
from live.sessions import live_session_open, live_session_run
from lti.ags.deliveries import lms_contexts
from tests.grading.test_progress import _counts
from tests.live.conftest import enrol_students

pytestmark = pytest.mark.django_db

ANSWERS = ["queen", "woman", "queen", "far", "king", "queen"]


def _held(session, students, answers=ANSWERS) -> list[Submission]:
    return [live_answer_submit(session=session, student=s, raw_answer=raw)
            for s, raw in zip(students, answers, strict=False)]


def _class_run(session, staff) -> LabRun:
    from labs.predictions import lab_run_execute_and_grade

    session = live_session_run(session=session, staff=staff)
    lab_run_execute_and_grade(run_id=session.lab_run_id)
    return LabRun.objects.get(pk=session.lab_run_id)


def _kept(course):
    parts = {(p.student_id, p.part_id): tuple(getattr(p, f) for f in PART_FIELDS)
             for p in PartProgress.objects.filter(course=course)}
    students = {s.student_id: tuple(round(v, 9) if isinstance(v, float) else v
                                    for v in (getattr(s, f) for f in STUDENT_FIELDS))
                for s in StudentProgress.objects.filter(course=course)}
    return parts, students


def test_graded_together_as_one_by_one_would_grade_them(course, staff, analogy):
    students = enrol_students(course, 6)
    DefaultVariant.objects.create(course=course, student=students[0])
    room = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    held = _held(room, students)
    run = _class_run(room, staff)
    # The same answers through the one-by-one path, by a second room of students.
    others = enrol_students(course, 6, prefix="o")
    DefaultVariant.objects.create(course=course, student=others[0])
    alone = [Submission.objects.create(student=s, course=course, part=analogy, raw_answer=raw,
                                       outcome=Submission.Outcome.PENDING)
             for s, raw in zip(others, ANSWERS, strict=True)]
    for submission in alone:
        one = prediction_run_request(submission, {}, seed=run.seed)
        predictions_grade_for_run(run_id=one.pk)

    graded = predictions_grade_with_run(run=run, submission_ids=[s.pk for s in held])

    assert [s.pk for s in graded] == [s.pk for s in held]
    fields = ("outcome", "score", "feedback", "misconception", "grader_version")
    together = [Submission.objects.values_list(*fields).get(pk=s.pk) for s in held]
    one_by_one = [Submission.objects.values_list(*fields).get(pk=s.pk) for s in alone]
    assert together == one_by_one
    assert {s.outcome for s in graded} == {"correct", "incorrect"}
    runs = LabRun.objects.filter(submission__in=held)
    assert runs.count() == 6
    assert all(r.reused_from_id == run.pk and r.status == "succeeded" and r.result == run.result
               for r in runs)


def test_progress_rows_and_wrong_answer_sums_equal_a_rebuild(course, staff, analogy, irene):
    students = enrol_students(course, 5)
    room = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    held = _held(room, students)
    # One student had the part overridden before: the override's score stays.
    grade_override_create(course=course, student_id=students[1].pk, part_id=analogy.pk,
                          points=analogy.points / 2, reason="test", by=irene)
    run = _class_run(room, staff)
    predictions_grade_with_run(run=run, submission_ids=[s.pk for s in held])
    kept, counts = _kept(course), _counts(course)
    assert counts  # "woman" and "far" are counted wrong answers
    assert GradeOverride.objects.filter(student=students[1]).exists()
    assert PartProgress.objects.get(student=students[1], part=analogy).best_score == 0.5
    progress_rebuild(course=course)
    assert _kept(course) == kept
    assert _counts(course) == counts


def test_queries_do_not_grow_with_the_room(course, staff, analogy):
    students = enrol_students(course, 24)
    room = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    held = _held(room, students, ANSWERS * 4)
    run = _class_run(room, staff)
    lms_contexts(course.pk)  # the content cache warm, as in a running service
    webhook_deliveries_record_many([Event(name="warm-up", course_id=course.pk, subject_id=0,
                                          build_payload=dict)])
    counted = []
    for chunk in (held[:6], held[6:24]):  # the same four answers in each: one UPDATE each
        with CaptureQueriesContext(connection) as queries:
            predictions_grade_with_run(run=run, submission_ids=[s.pk for s in chunk])
        counted.append(len([q for q in queries.captured_queries
                            if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]))
    assert counted[0] == counted[1]


def test_every_event_reaches_the_webhooks_and_the_lms(course, staff, analogy):
    students = enrol_students(course, 5)
    room = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    held = _held(room, students)
    run = _class_run(room, staff)
    WebhookSubscription.objects.create(course=course, url="https://example.org/hook",
                                       events=["submission.graded", "lab_run.finished"],
                                       secret="whsec_test")
    predictions_grade_with_run(run=run, submission_ids=[s.pk for s in held])
    graded = WebhookDelivery.objects.filter(event="submission.graded")
    assert sorted(d.payload["data"]["submission_id"] for d in graded) == sorted(s.pk for s in held)
    finished = WebhookDelivery.objects.filter(event="lab_run.finished")
    assert finished.count() == 5


def test_a_second_reveal_changes_nothing(course, staff, analogy):
    students = enrol_students(course, 3)
    room = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    held = _held(room, students)
    run = _class_run(room, staff)
    ids = [s.pk for s in held]
    assert len(predictions_grade_with_run(run=run, submission_ids=ids)) == 3
    assert predictions_grade_with_run(run=run, submission_ids=ids) == []
    assert LabRun.objects.filter(submission__in=held).count() == 3


def test_a_run_without_a_result_is_refused(course, staff, analogy):
    room = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    session = live_session_run(session=room, staff=staff)
    queued = LabRun.objects.get(pk=session.lab_run_id)
    with pytest.raises(ValueError, match="no result"):
        predictions_grade_with_run(run=queued, submission_ids=[])


def test_the_reveal_grades_the_room_together(course, staff, analogy):
    students = enrol_students(course, 7)
    room = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    _held(room, students, [*ANSWERS, "queen"])
    live_session_run(session=room, staff=staff)
    assert live_reveal(session_id=room.pk) == 7
    graded = Submission.objects.filter(live__session=room)
    assert graded.filter(outcome="correct").count() == 4
    assert not graded.filter(outcome="pending").exists()
