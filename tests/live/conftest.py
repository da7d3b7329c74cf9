"""Fixtures of the live tests: a class of students and a session on the analogy prediction."""

import pytest

from courses.models import Enrollment, Part
from live.access import LiveStaff
from live.sessions import live_session_open
from tests.factories import EnrollmentFactory, UserFactory


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the WebSocket tests (async_to_sync in the test thread) before the browser tests,
    whose Playwright keeps an event loop running in that thread until the session ends."""
    items.sort(key=lambda item: 0 if "tests/live/test_push.py" in str(item.fspath) else 1)


def enrol_students(course, n: int, prefix: str = "s"):
    users = []
    for i in range(n):
        user = UserFactory(username=f"{prefix}{i}")
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
        users.append(user)
    return users


@pytest.fixture
def analogy(module_05) -> Part:
    """The choice prediction graded by the word-vectors lab (its measure: "nearest")."""
    return Part.objects.get(exercise__slug="predict-analogy", key="endpoint")


@pytest.fixture
def staff(course, irene) -> LiveStaff:
    return LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)


@pytest.fixture
def session(staff, analogy):
    return live_session_open(staff=staff, part_id=analogy.pk, variant="class")
