"""A retry after an error page (issue 26, item 3): the same text sent again to the same part
within SUBMISSION_RECOVERY_SECONDS returns the first copy, pending or graded, and never
spends a second attempt; later, or after another answer, it is a new answer."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import Exercise, Part
from grading.models import PartProgress, Submission
from grading.services import submission_create
from tests.crashes import stored_but_never_graded

pytestmark = pytest.mark.django_db


@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


def test_a_retry_while_the_first_copy_is_still_pending_returns_it(alice, course, bound):
    first = stored_but_never_graded(alice, course, bound, "0.5", age=timedelta(0))
    again = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    assert again.pk == first.pk and again.outcome == Submission.Outcome.PENDING
    assert Submission.objects.count() == 1


def test_a_retry_of_a_graded_answer_returns_it_and_uses_no_attempt(alice, course, bound):
    Exercise.objects.filter(pk=bound.exercise_id).update(max_attempts=1)
    bound = Part.objects.select_related("exercise").get(pk=bound.pk)
    first = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    again = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    assert again.pk == first.pk and again.outcome == Submission.Outcome.INCORRECT
    assert PartProgress.objects.get(student=alice, part=bound).attempts == 1


def test_after_the_window_or_another_answer_the_same_text_is_a_new_answer(
        alice, course, bound, settings):
    first = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    submission_create(student=alice, course=course, part=bound, raw_answer="0.25")
    third = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    assert third.pk != first.pk and not third.counts_as_attempt  # a repeat: no attempt
    Submission.objects.update(created_at=timezone.now() - timedelta(
        seconds=settings.SUBMISSION_RECOVERY_SECONDS + 1))
    fourth = submission_create(student=alice, course=course, part=bound, raw_answer="0.5")
    assert fourth.pk not in (first.pk, third.pk)
