"""The event grading emits: "submission.graded", with the payload receivers get."""

from typing import Any

from courses.models import Enrollment
from events.outbox import event_record
from grading.models import Submission

SUBMISSION_GRADED = "submission.graded"


def submission_graded_record(submission: Submission) -> None:
    """Record that `submission` was graded (or regraded, reviewed, overridden); call it inside
    the transaction that stores the verdict."""
    event_record(name=SUBMISSION_GRADED, course_id=submission.course_id, subject_id=submission.pk,
                 payload=lambda: submission_graded_payload(submission.pk))


def submission_graded_payload(submission_id: int) -> dict[str, Any]:
    """What receivers of "submission.graded" get about the submission, as stored now."""
    s = Submission.objects.select_related("course", "part__exercise", "student").get(pk=submission_id)
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
