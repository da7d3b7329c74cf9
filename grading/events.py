"""The events grading emits: "submission.graded" and "grade.changed", with the payloads
receivers get."""

from typing import Any

from courses.models import Enrollment
from events.outbox import Event, event_record, events_record_many
from grading.models import Submission

SUBMISSION_GRADED = "submission.graded"
#: A student's grade on an exercise changed without a newly graded answer: an override, a
#: regrade, an answer waiting for review, an extension that re-opens the exercise.
GRADE_CHANGED = "grade.changed"


def submission_graded_record(submission: Submission) -> None:
    """Record that `submission` was graded (or regraded, reviewed, overridden); call it inside
    the transaction that stores the verdict."""
    events_record_many([submission_graded_event(submission)])


def submission_graded_event(submission: Submission) -> Event:
    """The "submission.graded" event of `submission`, for `events.outbox.events_record_many`
    (which records many at once; `submission_graded_record` records one)."""
    submission_id = submission.pk
    return Event(name=SUBMISSION_GRADED, course_id=submission.course_id, subject_id=submission_id,
                 build_payload=lambda: submission_graded_payload(submission_id))


def submission_graded_payload(submission_id: int) -> dict[str, Any]:
    """What receivers of "submission.graded" get about the submission, as stored now."""
    s = (Submission.objects.select_related("course", "part__exercise__module", "student")
         .get(pk=submission_id))
    external_id = (
        Enrollment.objects.filter(user_id=s.student_id, course_id=s.course_id)
        .values_list("external_id", flat=True).first() or ""
    )
    return {
        "course": s.course.slug,
        "submission_id": s.pk,
        "student_id": s.student_id,
        "student_username": s.student.username,
        "student_external_id": external_id,
        "module": s.part.exercise.module.slug,
        "module_number": s.part.exercise.module.number,
        "exercise": s.part.exercise.slug,
        "part": s.part.key,
        "part_id": s.part_id,
        "points": s.part.points,
        "outcome": s.outcome,
        "score": s.score,
        "counts_as_attempt": s.counts_as_attempt,
        "created_at": s.created_at.isoformat(),
        "graded_at": s.graded_at.isoformat() if s.graded_at else None,
    }


def grade_changed_record(*, course_id: int, student_id: int, exercise_id: int,
                         reason: str) -> None:
    """Record that the student's grade on the exercise changed (`reason`: "override",
    "regrade", "review-pending", "extension"); call it inside the transaction that stores the
    change."""
    event_record(name=GRADE_CHANGED, course_id=course_id, subject_id=student_id,
                 payload=lambda: {"course_id": course_id, "student_id": student_id,
                                  "exercise_id": exercise_id, "reason": reason})
