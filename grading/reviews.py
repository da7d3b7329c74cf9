"""Reviews: a person grades an answer the checker left to them (or re-grades a reviewed one)."""

from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404

from courses.models import Course
from grading.models import Review, Submission
from grading.progress import FULL_MARKS
from grading.staff import MAX_REASON, STAFF_ROLES, StaffActionRefused, require_role, score_from_points
from grading.verdicts import NewVerdict, Why, verdict_record


@transaction.atomic(durable=True)
def review_create(*, course: Course, submission_id: int, reviewer: User, points: float,
                  comment: str = "") -> Review:
    """Grade an answer awaiting review (or re-grade a reviewed one) with `points` out of the
    part's points; the submission takes the score, an outcome from it (full marks correct,
    some partial, none incorrect) and the comment as its feedback, and a submission.graded
    webhook is recorded in the same transaction. Every review is kept.

    Raises PermissionDenied unless `reviewer` is an instructor or TA of the course, Http404
    for a submission not in the course, StaffActionRefused for bad points or an answer that
    was graded by the checker (override its grade instead).
    """
    require_role(course, reviewer, STAFF_ROLES)
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
    outcome = (Submission.Outcome.CORRECT if score >= FULL_MARKS else
               Submission.Outcome.PARTIAL if score > 0 else Submission.Outcome.INCORRECT)
    # A reviewed answer is a graded submission for the LMS: the writer records the event
    # after the progress it refreshes (the outbox's consumers read that progress).
    verdict_record(submission=submission, why=Why.REVIEW, verdict=NewVerdict(
        outcome=outcome, score=score, feedback=comment or "Reviewed by your instructor.",
        misconception=submission.misconception, by_grader=False))
    return review
