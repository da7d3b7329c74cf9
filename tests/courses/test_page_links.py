"""The links into a course's pages (courses/page_links.py): `course_links`, one hand-written
statement, gives what `course_links_from` gives from the ORM's CourseModule rows."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import CourseModule, Module
from courses.page_links import course_links, course_links_from

pytestmark = pytest.mark.django_db


def _orm_links(course, student_at):
    rows = CourseModule.objects.filter(course_id=course.pk).select_related("module")
    return course_links_from(course.slug, rows, student_at=student_at)


def test_the_links_are_the_orm_s_for_staff_and_students_before_and_after_a_release_cached(course):
    now = timezone.now()
    six = Module.objects.get(slug="module-06")
    CourseModule.objects.create(course=course, module=six, order=1,
                                release_at=now + timedelta(days=1))
    course_links(course)  # the course's modules, read once into the content cache
    for at in (None, now, now + timedelta(days=2)):
        with CaptureQueriesContext(connection) as queries:
            links = course_links(course, student_at=at)
        assert len(queries) == 0
        assert links == _orm_links(course, at)
        assert list(links.module_slugs.values()) == ["module-05", "module-06"]  # course order
    assert course_links(course, student_at=now).not_open == {six.pk}
    assert course_links(course, student_at=None).not_open == frozenset()
    assert course_links(course, student_at=now).module(six.pk) == f"/courses/{course.slug}/"


def test_a_course_of_one_module_links_to_its_course_page(course):
    links = course_links(course, student_at=timezone.now())
    assert not links.several and links == _orm_links(course, timezone.now())
