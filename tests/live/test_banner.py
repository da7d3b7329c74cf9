"""The "live now" banner's read: the newest session still open in the course, for its active
students only, with its part and exercise (read by hand on every course page)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from courses.models import Enrollment
from live.models import LiveSession
from live.selectors import live_open_for_student
from live.sessions import live_session_open
from tests.factories import CourseFactory
from tests.live.conftest import enrol_students

pytestmark = pytest.mark.django_db


def test_a_student_sees_the_newest_open_session_with_its_exercise(course, staff, session, analogy):
    (student,) = enrol_students(course, 1)
    newer = live_session_open(staff=staff, part_id=analogy.pk, variant="class")
    found = live_open_for_student(user=student, course_slug=course.slug)
    assert found is not None and found.pk == newer.pk and found.code == newer.code
    title = analogy.exercise.title
    with CaptureQueriesContext(connection) as queries:
        assert found.part.exercise.title == title
    assert not queries.captured_queries
    LiveSession.objects.filter(pk=newer.pk).update(state=LiveSession.State.CLOSED)
    assert live_open_for_student(user=student, course_slug=course.slug).pk == session.pk


def test_nobody_else_sees_it(course, session, irene, module_05):
    (student, leaver) = enrol_students(course, 2)
    Enrollment.objects.filter(user=leaver).update(is_active=False)
    other = CourseFactory(module=module_05, slug="elsewhere")
    (outsider,) = enrol_students(other, 1, prefix="o")
    assert live_open_for_student(user=irene, course_slug=course.slug) is None  # staff
    assert live_open_for_student(user=leaver, course_slug=course.slug) is None
    assert live_open_for_student(user=outsider, course_slug=course.slug) is None
    assert live_open_for_student(user=outsider, course_slug=other.slug) is None
    assert live_open_for_student(user=AnonymousUser(), course_slug=course.slug) is None
    LiveSession.objects.filter(pk=session.pk).update(state=LiveSession.State.CLOSED)
    assert live_open_for_student(user=student, course_slug=course.slug) is None
