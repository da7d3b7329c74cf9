"""The outbox consumer of grade passback: grading's events become score deliveries."""

from events.outbox import Event
from exams.scores import SCORE_RELEASED
from grading.events import GRADE_CHANGED, SUBMISSION_GRADED
from grading.models import Submission
from lti.ags.deliveries import lms_contexts, score_deliveries_record


def score_changes_record(event: Event) -> None:
    """For "submission.graded" and "grade.changed", record the student's new exercise score
    for the LMS (inside the event's transaction), and for "assessment.score_released" their
    released assessment score; other events, and courses without an LMS, cost nothing more
    than one query."""
    if event.name not in (SUBMISSION_GRADED, GRADE_CHANGED, SCORE_RELEASED):
        return
    contexts = lms_contexts(event.course_id)
    if not contexts:
        return
    if event.name == SCORE_RELEASED:
        score_deliveries_record(course_id=event.course_id, student_id=event.payload["student_id"],
                                assessment_id=event.payload["assessment_id"], contexts=contexts)
        return
    if event.name == SUBMISSION_GRADED:
        row = (Submission.objects.filter(pk=event.subject_id)
               .values_list("student_id", "part__exercise_id").first())
        if row is None:
            return
        student_id, exercise_id = row
    else:
        student_id, exercise_id = event.payload["student_id"], event.payload["exercise_id"]
    score_deliveries_record(course_id=event.course_id, student_id=student_id,
                            exercise_id=exercise_id, contexts=contexts)


def score_changes_record_many(events: list[Event]) -> None:
    """`score_changes_record` for many events of one course: one query when the course has
    no LMS context, whatever the number of events."""
    if not events:
        return
    contexts = lms_contexts(events[0].course_id)
    if not contexts:
        return
    graded = [e.subject_id for e in events if e.name == SUBMISSION_GRADED]
    subjects: dict[int | str, tuple[int, int]] = {
        pk: (student_id, exercise_id) for pk, student_id, exercise_id in
        Submission.objects.filter(pk__in=graded).values_list("pk", "student_id",
                                                            "part__exercise_id")}
    changed: list[tuple[int, int, str]] = []
    for event in events:
        if event.name == SUBMISSION_GRADED and event.subject_id in subjects:
            changed.append((*subjects[event.subject_id], "exercise_id"))
        elif event.name == GRADE_CHANGED:
            changed.append((event.payload["student_id"], event.payload["exercise_id"],
                            "exercise_id"))
        elif event.name == SCORE_RELEASED:
            changed.append((event.payload["student_id"], event.payload["assessment_id"],
                            "assessment_id"))
    for student_id, item_id, kind in dict.fromkeys(changed):  # each score once, in order
        score_deliveries_record(course_id=events[0].course_id, student_id=student_id,
                                contexts=contexts, **{kind: item_id})
