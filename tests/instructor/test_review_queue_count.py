"""The review queue's count of waiting answers comes from the kept progress totals and
equals a count of the answers themselves."""

import pytest

from courses.models import Enrollment
from grading.models import Submission
from instructor.review_queue import PER_PAGE, review_queue, waiting_count
from tests.instructor.conftest import build_class


def _counted(course) -> int:
    active = Enrollment.objects.filter(course=course, role=Enrollment.Role.STUDENT,
                                       is_active=True).values("user_id")
    return Submission.objects.filter(course=course, outcome=Submission.Outcome.REVIEW,
                                     student_id__in=active).count()


@pytest.mark.django_db
def test_the_waiting_count_equals_the_answers_awaiting_review_of_active_students(
        course, other_course):
    users = build_class(course, 30)
    build_class(other_course, 4, prefix="o")
    Enrollment.objects.filter(course=course, user=users[0]).update(is_active=False)
    expected = _counted(course)
    assert expected > PER_PAGE  # more than one page
    assert waiting_count(course=course) == expected
    queue = review_queue(course=course, page=2)
    assert (queue.waiting, queue.page) == (expected, 2)
    assert queue.pages == -(-expected // PER_PAGE)
    last = review_queue(course=course, page=999)  # past the end: the last page, not empty
    assert last.page == last.pages and len(last.items) == expected - PER_PAGE * (last.pages - 1)


@pytest.mark.django_db
def test_an_empty_queue_has_one_empty_page(course):
    queue = review_queue(course=course)
    assert (queue.waiting, queue.page, queue.pages, queue.items) == (0, 1, 1, [])
