"""Reviews: a person grades an answer the checker left to them (or re-grades a reviewed one)."""

from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404

from courses.access import STAFF_ROLES
from courses.models import Course, Enrollment, Part
from grading.models import Review, Submission
from grading.progress_fold import FULL_MARKS
from grading.staff import MAX_REASON, StaffActionRefused, require_role, score_from_points
from grading.verdicts import NewVerdict, Why, verdict_record

#: The feedback of a review without a comment, by the reviewer's role in the course.
REVIEWED_BY: dict[str, str] = {Enrollment.Role.INSTRUCTOR: "Reviewed by your instructor.",
                              Enrollment.Role.TA: "Reviewed by your teaching assistant."}


def review_passes(score: float, part: Part) -> bool:
    """True when a reviewed `score` (a fraction of the part's points) passes the part: it
    reaches the part's `pass_score` (a text part's rule; full marks when it has none)."""
    rule = part.spec.get("pass_score", 1.0) if isinstance(part.spec, dict) else 1.0
    threshold = min(float(rule), 1.0) if isinstance(rule, int | float) else 1.0
    return score >= threshold - (1.0 - FULL_MARKS)


@transaction.atomic(durable=True)
def review_create(*, course: Course, submission_id: int, reviewer: User, points: float,
                  comment: str = "") -> Review:
    """Grade an answer awaiting review (or re-grade a reviewed one) with `points` out of the
    part's points; the submission takes the score, an outcome from it (correct when it passes
    the part, see `review_passes`; else partial for some points, incorrect for none) and the
    comment as its feedback (without one, who reviewed it: "Reviewed by your teaching
    assistant." for a TA, "... your instructor." for an instructor), and a submission.graded
    webhook is recorded in the same transaction. Every review is kept.

    Raises PermissionDenied unless `reviewer` is an instructor or TA of the course, Http404
    for a submission not in the course, StaffActionRefused for bad points or an answer that
    was graded by the checker (override its grade instead).
    """
    role = require_role(course, reviewer, STAFF_ROLES)
    submission = (Submission.objects.select_for_update().select_related("part")
                  .filter(pk=submission_id, course=course).first())
    if submission is None:
        raise Http404("No such answer in this course.")
    reviewed_before = submission.reviews.exists()
    if submission.outcome != Submission.Outcome.REVIEW and not reviewed_before:
        raise StaffActionRefused("This answer was graded automatically; override the grade "
                               "instead of reviewing it.")
    score = score_from_points(points, submission.part)
    comment = comment.strip()[:MAX_REASON]
    review = Review.objects.create(submission=submission, reviewer=reviewer, score=score,
                                   comment=comment)
    outcome = (Submission.Outcome.CORRECT if review_passes(score, submission.part) else
               Submission.Outcome.PARTIAL if score > 0 else Submission.Outcome.INCORRECT)
    # A reviewed answer is a graded submission for the LMS: the writer records the event
    # after the progress it refreshes (the outbox's consumers read that progress).
    verdict_record(submission=submission, why=Why.REVIEW, verdict=NewVerdict(
        outcome=outcome, score=score, feedback=comment or REVIEWED_BY[role],
        misconception=submission.misconception, by_grader=False))
    return review
