"""The LMS contexts of a course, read by hand on every graded answer, are what the ORM query
they replace gave: the course's linked contexts with their deployments, no one else's."""

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from lti_tool.models import LtiContext

from lti.ags.deliveries import lms_contexts
from lti.models import CourseLink
from tests.factories import CourseFactory
from tests.lti.ags_setup import lms_rows

pytestmark = pytest.mark.django_db


def _orm(course_id: int) -> list[LtiContext]:
    return list(LtiContext.objects.filter(course_link__course_id=course_id)
                .select_related("deployment").order_by("pk"))


def _same(found: list[LtiContext], expected: list[LtiContext]) -> None:
    assert [model_to_dict(c) for c in found] == [model_to_dict(c) for c in expected]
    assert [model_to_dict(c.deployment) for c in found] == \
        [model_to_dict(c.deployment) for c in expected]


def test_a_course_without_an_lms_has_no_contexts(course):
    assert lms_contexts(course.pk) == _orm(course.pk) == []


def test_the_linked_contexts_with_their_deployments_and_no_other_courses(course):
    other = CourseFactory(module=course.module, slug="elsewhere")
    mine = lms_rows(course, title="Ours")
    theirs = LtiContext.objects.create(deployment=mine.deployment, id_on_platform="c9",
                                       title="Theirs")
    CourseLink.objects.create(context=theirs, course=other)
    second = LtiContext.objects.create(deployment=mine.deployment, id_on_platform="c2",
                                       title="Ours, second section")
    CourseLink.objects.create(context=second, course=course)
    found = lms_contexts(course.pk)
    _same(found, _orm(course.pk))
    assert [c.pk for c in found] == [mine.pk, second.pk] and theirs.pk not in {c.pk for c in found}
    with CaptureQueriesContext(connection) as queries:
        assert {c.deployment.registration_id for c in found} == {mine.deployment.registration_id}
    assert not queries.captured_queries  # the deployment came with the context
