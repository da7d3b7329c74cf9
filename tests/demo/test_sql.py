"""The demo's bulk writes (demo/sql.py) store the rows as given, times included, on both
databases, and the statistics refresh runs after them."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import Enrollment
from demo.sql import rows_write, tables_analyze
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_rows_are_written_as_given_with_their_times(course):
    users = [UserFactory(username=f"bulk{i}") for i in range(3)]
    then = timezone.now().replace(microsecond=0) - timedelta(days=30)
    seen: list[int] = []
    written = rows_write(Enrollment, ("user_id", "course_id", "role", "group", "external_id",
                                      "is_active", "created_at"),
                         iter([(u.pk, course.pk, Enrollment.Role.STUDENT, "A", "", True, then)
                               for u in users]), seen.append)
    assert written == 3 and seen[-1] == 3
    stored = Enrollment.objects.filter(user__in=users)
    assert sorted(e.user_id for e in stored) == sorted(u.pk for u in users)
    assert {e.created_at for e in stored} == {then} and all(e.is_active for e in stored)


def test_the_statistics_refresh_runs_in_a_transaction():
    tables_analyze([Enrollment])  # ANALYZE only (the test's transaction), nothing on SQLite
