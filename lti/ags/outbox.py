"""The outbox consumer of grade passback: grading's events become score deliveries."""

from events.outbox import Event
from grading.events import GRADE_CHANGED, SUBMISSION_GRADED
from grading.models import Submission
from lti.ags.deliveries import lms_contexts, score_deliveries_record


def score_changes_record(event: Event) -> None:
    """For "submission.graded" and "grade.changed", record the student's new exercise score
    for the LMS (inside the event's transaction); other events, and courses without an LMS,
    cost nothing more than one query."""
    if event.name not in (SUBMISSION_GRADED, GRADE_CHANGED):
        return
    contexts = lms_contexts(event.course_id)
    if not contexts:
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
