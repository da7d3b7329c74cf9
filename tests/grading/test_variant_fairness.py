"""Variant fairness read from the database: first attempts per variant counted in SQL, the
harder variant flagged, at a number of queries that does not grow with the class."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from courses.models import Part
from grading.variant_fairness import variant_fairness
from tests.factories import first_attempt_class


@pytest.fixture
def bound(course) -> Part:
    return Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")


def test_the_variant_students_get_right_less_often_at_first_is_flagged(course, bound):
    # Seed 1 draws sigma 0.85, 40 steps; seed 2 draws 0.95, 30 steps.
    first_attempt_class(course, bound, {1: (32, 4, 4), 2: (10, 20, 10)})
    [part] = [p for p in variant_fairness(course=course) if p.column.id == bound.pk]
    harder, easier = part.variants
    assert harder.params == {"sigma": "0.95", "steps": "30"}
    assert (harder.test.counts.answered, harder.test.counts.first_correct) == (40, 10)
    assert harder.test.rate == pytest.approx(0.25)
    assert harder.test.low == pytest.approx(0.1419, abs=1e-4)  # Wilson, 10 of 40
    assert harder.test.others_rate == pytest.approx(0.8)
    assert harder.test.flagged and not easier.test.flagged
    assert part.flagged == [harder]


def test_too_few_answers_are_shown_without_a_test(course, bound):
    first_attempt_class(course, bound, {1: (10, 0, 0), 2: (0, 0, 10)})
    [part] = variant_fairness(course=course, part_id=bound.pk)
    assert [v.test.rate for v in part.variants] == [0.0, 1.0]
    assert all(v.test.p_value is None and not v.test.flagged for v in part.variants)


def test_query_count_does_not_grow_with_thefirst_attempt_class(course, bound):
    first_attempt_class(course, bound, {1: (3, 1, 1), 2: (2, 2, 1)}, prefix="a")
    with CaptureQueriesContext(connection) as small:
        variant_fairness(course=course)
    first_attempt_class(course, bound, {1: (40, 5, 5), 2: (30, 10, 20), 3: (20, 0, 0)}, prefix="b")
    with CaptureQueriesContext(connection) as large:
        result = variant_fairness(course=course)
    assert len(small) == len(large) <= 4
    [part] = [p for p in result if p.column.id == bound.pk]
    assert sum(v.test.counts.answered for v in part.variants) == 10 + 130


def test_a_parameter_drawn_from_a_long_range_is_grouped_in_bands(course, bound):
    exercise = bound.exercise
    exercise.parameters = {**exercise.parameters,
                           "sigma": {"default": 0.85, "min": 0.5, "max": 0.99, "step": 0.01}}
    exercise.save()  # 50 values of sigma: four bands of 12 or 13
    first_attempt_class(course, bound, {seed: (1, 0, 1) for seed in range(1, 41)})
    [part] = variant_fairness(course=course, part_id=bound.pk)
    bands = {v.params["sigma"] for v in part.variants}
    assert bands <= {"0.5 to 0.61", "0.62 to 0.74", "0.75 to 0.87", "0.88 to 0.99"}
    assert len(bands) > 1
    assert sum(v.test.counts.answered for v in part.variants) == 80
