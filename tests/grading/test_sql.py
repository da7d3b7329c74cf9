"""The statement grading keeps in SQL (grading/sql.py) does what it says, on SQLite and
PostgreSQL alike (both CI passes run this file)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from grading.models import StudentProgress
from grading.sql import course_totals_moved

pytestmark = pytest.mark.django_db


def test_course_totals_move_by_difference_and_their_times_only_forward(alice, course):
    assert not course_totals_moved(course_id=course.pk, student_id=alice.pk, total=1.0,
                                   solved=1, attempts=1, awaiting_review=0,
                                   last_activity=None, changed_at=None)  # no row yet
    then = timezone.now().replace(microsecond=0)
    StudentProgress.objects.create(course=course, student=alice, total=2.0, parts_solved=1,
                                   attempts=3, awaiting_review=1, last_activity=then,
                                   changed_at=then)
    assert course_totals_moved(course_id=course.pk, student_id=alice.pk, total=0.5, solved=1,
                               attempts=1, awaiting_review=-1,
                               last_activity=then - timedelta(hours=1),
                               changed_at=then + timedelta(hours=1))
    row = StudentProgress.objects.get(course=course, student=alice)
    assert (row.total, row.parts_solved, row.attempts, row.awaiting_review) == (2.5, 2, 4, 0)
    assert row.last_activity == then  # an earlier time does not move it back
    assert row.changed_at == then + timedelta(hours=1)
    course_totals_moved(course_id=course.pk, student_id=alice.pk, total=0.0, solved=0,
                        attempts=0, awaiting_review=0, last_activity=None, changed_at=None)
    assert StudentProgress.objects.get(course=course, student=alice).changed_at == \
        then + timedelta(hours=1)  # None moves nothing
