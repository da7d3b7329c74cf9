"""Dashboard writes: reviews, overrides with their audit trail, deadlines and extensions,
with answers submitted through the real grading service."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from courses.models import Exercise, Part
from events.models import WebhookDelivery, WebhookSubscription
from grading.deadlines import deadline_for, deadline_set, extension_set
from grading.gradebook import gradebook
from grading.models import Deadline, GradeOverride, Review, Submission
from grading.overrides import grade_override_create
from grading.reviews import review_create
from grading.services import SubmissionRefused, submission_create
from grading.staff import StaffActionRefused

EXTEND_ANSWER = ("Seq2seq squeezes the whole sentence into one fixed-size vector, so early words "
                 "get overwritten; attention lets the decoder look back at every encoder state.")


@pytest.fixture
def extend_part(module_05):
    return Part.objects.select_related("exercise").get(exercise__slug="extend-bottleneck")


@pytest.fixture
def bound_part(module_05):
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


def test_a_review_scores_a_free_answer_and_keeps_the_review(course, alice, irene, extend_part):
    answer = submission_create(student=alice, course=course, part=extend_part,
                               raw_answer=EXTEND_ANSWER)
    assert answer.outcome == Submission.Outcome.REVIEW
    # 2 of 6 points is below the part's pass score (half the points): partial.
    review_create(course=course, submission_id=answer.pk, reviewer=irene, points=2,
                  comment="Good on the bottleneck; say what grows instead.")
    answer.refresh_from_db()
    assert answer.outcome == Submission.Outcome.PARTIAL
    assert answer.score == pytest.approx(2 / 6)
    assert answer.feedback == "Good on the bottleneck; say what grows instead."
    assert answer.raw_answer == EXTEND_ANSWER
    cell = gradebook(course=course, student=alice).rows[0].cells[extend_part.pk]
    assert cell.best_score == pytest.approx(2 / 6) and not cell.awaiting_review
    # A second look is kept too, and the latest score applies.
    review_create(course=course, submission_id=answer.pk, reviewer=irene, points=6)
    answer.refresh_from_db()
    assert answer.outcome == Submission.Outcome.CORRECT
    assert Review.objects.filter(submission=answer).count() == 2


def test_a_review_records_a_graded_webhook_for_the_lms(course, alice, irene, extend_part):
    WebhookSubscription.objects.create(course=course, url="https://lms.example.org/hook",
                                       events=["submission.graded"], secret="s")
    answer = submission_create(student=alice, course=course, part=extend_part,
                               raw_answer=EXTEND_ANSWER)
    assert WebhookDelivery.objects.count() == 0  # awaiting review: not graded yet
    review_create(course=course, submission_id=answer.pk, reviewer=irene, points=5)
    delivery = WebhookDelivery.objects.get()
    assert delivery.event == "submission.graded"


def test_a_ta_may_review(course, alice, tara, extend_part):
    answer = submission_create(student=alice, course=course, part=extend_part,
                               raw_answer=EXTEND_ANSWER)
    review_create(course=course, submission_id=answer.pk, reviewer=tara, points=0)
    answer.refresh_from_db()
    assert answer.outcome == Submission.Outcome.INCORRECT


def test_review_refuses_points_out_of_range_and_automatically_graded_answers(
    course, alice, irene, extend_part, bound_part
):
    answer = submission_create(student=alice, course=course, part=extend_part,
                               raw_answer=EXTEND_ANSWER)
    with pytest.raises(StaffActionRefused, match="between 0 and 6"):
        review_create(course=course, submission_id=answer.pk, reviewer=irene, points=7)
    graded = submission_create(student=alice, course=course, part=bound_part, raw_answer="34")
    with pytest.raises(StaffActionRefused, match="override"):
        review_create(course=course, submission_id=graded.pk, reviewer=irene, points=1)
    assert Review.objects.count() == 0


def test_a_student_cannot_review(course, alice, bob, extend_part):
    answer = submission_create(student=alice, course=course, part=extend_part,
                               raw_answer=EXTEND_ANSWER)
    with pytest.raises(PermissionDenied):
        review_create(course=course, submission_id=answer.pk, reviewer=bob, points=6)


def test_an_override_needs_a_reason_and_every_override_is_kept(course, alice, irene, bound_part):
    with pytest.raises(StaffActionRefused, match="reason"):
        grade_override_create(course=course, student_id=alice.pk, part_id=bound_part.pk,
                              points=1, reason="   ", by=irene)
    grade_override_create(course=course, student_id=alice.pk, part_id=bound_part.pk,
                          points=1, reason="Typo in the variant's prompt", by=irene)
    grade_override_create(course=course, student_id=alice.pk, part_id=bound_part.pk,
                          points=0.5, reason="Second thoughts", by=irene)
    trail = list(GradeOverride.objects.order_by("id").values_list("score", "reason", "created_by"))
    assert trail == [(1.0, "Typo in the variant's prompt", irene.pk),
                     (0.5, "Second thoughts", irene.pk)]
    cell = gradebook(course=course, student=alice).rows[0].cells[bound_part.pk]
    assert cell.best_score == pytest.approx(0.5) and cell.overridden


def test_answers_after_the_deadline_are_refused_and_nothing_is_stored(
    course, alice, irene, bound_part
):
    deadline_set(course=course, exercise_id=bound_part.exercise_id,
                 due_at=timezone.now() - timedelta(hours=1), by=irene)
    with pytest.raises(SubmissionRefused, match="deadline"):
        submission_create(student=alice, course=course, part=bound_part, raw_answer="0.0015")
    assert Submission.objects.count() == 0


def test_an_extension_reopens_the_exercise_for_that_student_only(
    course, alice, bob, irene, bound_part
):
    deadline_set(course=course, exercise_id=bound_part.exercise_id,
                 due_at=timezone.now() - timedelta(hours=1), by=irene)
    later = timezone.now() + timedelta(days=2)
    extension_set(course=course, exercise_id=bound_part.exercise_id, student_id=alice.pk,
                  due_at=later, reason="illness", by=irene)
    assert deadline_for(student=alice, course=course, exercise=bound_part.exercise) == later
    accepted = submission_create(student=alice, course=course, part=bound_part,
                                 raw_answer="0.85^40")
    assert accepted.counts_as_attempt and Submission.objects.filter(student=alice).count() == 1
    with pytest.raises(SubmissionRefused):
        submission_create(student=bob, course=course, part=bound_part, raw_answer="0.85^40")


def test_an_extension_never_shortens_the_deadline(course, alice, irene, bound_part):
    due = timezone.now() + timedelta(days=3)
    deadline_set(course=course, exercise_id=bound_part.exercise_id, due_at=due, by=irene)
    extension_set(course=course, exercise_id=bound_part.exercise_id, student_id=alice.pk,
                  due_at=timezone.now() + timedelta(days=1), reason="", by=irene)
    assert deadline_for(student=alice, course=course, exercise=bound_part.exercise) == due


def test_removing_a_deadline_reopens_the_exercise(course, alice, irene, bound_part):
    deadline_set(course=course, exercise_id=bound_part.exercise_id,
                 due_at=timezone.now() - timedelta(hours=1), by=irene)
    deadline_set(course=course, exercise_id=bound_part.exercise_id, due_at=None, by=irene)
    assert Deadline.objects.count() == 0
    submission_create(student=alice, course=course, part=bound_part, raw_answer="0.85^40")


def test_tas_cannot_change_deadlines_or_extensions(course, alice, tara, bound_part):
    exercise = Exercise.objects.get(pk=bound_part.exercise_id)
    with pytest.raises(PermissionDenied):
        deadline_set(course=course, exercise_id=exercise.pk, due_at=timezone.now(), by=tara)
    with pytest.raises(PermissionDenied):
        extension_set(course=course, exercise_id=exercise.pk, student_id=alice.pk,
                      due_at=timezone.now(), reason="", by=tara)
    assert Deadline.objects.count() == 0
