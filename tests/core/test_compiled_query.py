"""A compiled query gives what its QuerySet gives, with each call's parameter values, its
related objects and annotations included, and refuses a parameter the statement rewrites."""

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.db.models import Count
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.compiled_query import CompiledQuery
from courses.models import Enrollment
from grading.models import Submission

pytestmark = pytest.mark.django_db

_ENROLLED = CompiledQuery(
    lambda user_id, slug: Enrollment.objects.filter(user_id=user_id, course__slug=slug)
    .select_related("course__module", "user").annotate(n=Count("course__enrollments")),
    user_id=int, slug=str)


def test_rows_are_the_querysets_rows_for_each_calls_values(alice, bob, course, other_course):
    for user in (alice, bob):
        mine = _ENROLLED.first(user_id=user.pk, slug=course.slug)
        theirs = (Enrollment.objects.filter(user_id=user.pk, course__slug=course.slug)
                  .annotate(n=Count("course__enrollments")).get())
        assert mine is not None and model_to_dict(mine) == model_to_dict(theirs)
        assert mine.n == theirs.n == 2
        with CaptureQueriesContext(connection) as queries:
            assert mine.course.module.slug == "module-05" and mine.user.pk == user.pk
        assert len(queries) == 0  # read with it
    assert _ENROLLED.rows(user_id=alice.pk, slug=other_course.slug) == []


def test_a_datetime_parameter_is_adapted_as_the_orm_adapts_it(alice, course, module_05):
    part = module_05.exercises.first().parts.first()
    Submission.objects.create(student=alice, course=course, part=part, raw_answer="1")
    since = CompiledQuery(lambda at: Submission.objects.filter(created_at__gte=at).values_list(
        "raw_answer"), at=datetime)
    now = timezone.now()
    assert since.values(at=now - timedelta(minutes=1)) == [("1",)]
    assert since.values(at=now + timedelta(minutes=1)) == []


def test_a_parameter_the_statement_rewrites_is_refused(course):
    rewritten = CompiledQuery(lambda slug: Enrollment.objects.filter(course__slug__icontains=slug),
                              slug=str)
    with pytest.raises(ValueError, match="slug"):
        rewritten.rows(slug="rnn")


def test_the_wrong_parameters_are_refused(course):
    with pytest.raises(TypeError):
        _ENROLLED.rows(user_id=1)
