"""The gradebook of a course of two modules: columns labelled by module, points per module,
the weighted course total, the module filter and the CSV's module columns."""

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import CourseModule, Module, Part
from grading.gradebook import gradebook, gradebook_csv_lines
from grading.models import Submission
from instructor import exports
from tests.factories import progress_sync

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_modules(course):
    """`course` runs Module 5 (weight 1) then Module 6 (weight 3)."""
    six = Module.objects.get(slug="module-06")
    CourseModule.objects.create(course=course, module=six, order=1, weight=3.0)
    return course


def _solve(student, course, part):
    Submission.objects.create(student=student, course=course, part=part, raw_answer="1",
                              outcome="correct", score=1.0, graded_at=timezone.now())


def _module_points(slug):
    return sum(Part.objects.active().filter(exercise__module__slug=slug,
                                            exercise__archived_at__isnull=True)
               .values_list("points", flat=True))


def test_columns_come_module_by_module_in_the_course_order(two_modules):
    book = gradebook(course=two_modules)
    slugs = [c.module_slug for c in book.columns]
    assert slugs == sorted(slugs)  # module-05's parts, then module-06's
    assert [(m.slug, m.weight) for m in book.modules] == [("module-05", 1.0), ("module-06", 3.0)]


def test_the_course_total_weights_each_module_s_share(two_modules, alice):
    six_part = Part.objects.filter(exercise__module__slug="module-06").first()
    _solve(alice, two_modules, six_part)
    progress_sync(two_modules)
    book = gradebook(course=two_modules)
    row = book.rows[0]
    earned = row.module_earned(book.columns)
    assert earned[six_part.exercise.module_id] == six_part.points
    expected = 100 * 3 * six_part.points / _module_points("module-06") / 4
    assert row.course_percent(book.columns) == pytest.approx(expected)


def test_the_module_filter_keeps_that_module_s_columns_and_cells(two_modules, alice):
    five_part = Part.objects.filter(exercise__module__slug="module-05").first()
    _solve(alice, two_modules, five_part)
    progress_sync(two_modules)
    six = Module.objects.get(slug="module-06")
    book = gradebook(course=two_modules, module_id=six.pk)
    assert {c.module_slug for c in book.columns} == {"module-06"}
    assert book.rows[0].cells == {}
    assert book.rows[0].course_percent(book.columns) == 0.0


def test_released_at_leaves_out_the_modules_not_released_yet(two_modules):
    CourseModule.objects.filter(module__slug="module-06").update(
        release_at=timezone.now() + timedelta(days=1))
    book = gradebook(course=two_modules, released_at=timezone.now())
    assert {c.module_slug for c in book.columns} == {"module-05"}


def test_the_csv_prints_points_per_module_and_the_weighted_total(two_modules, alice):
    six_part = Part.objects.filter(exercise__module__slug="module-06").first()
    _solve(alice, two_modules, six_part)
    progress_sync(two_modules)
    header, row = list(gradebook_csv_lines(gradebook(course=two_modules)))
    assert header[-5:] == ["module-05 points", "module-06 points", "course_percent", "total",
                           "out_of"]
    expected = 100 * 3 * six_part.points / _module_points("module-06") / 4
    assert row[-5:-2] == ["0", f"{six_part.points:g}", f"{expected:.2f}"]
    streamed = list(csv.reader(io.StringIO("".join(exports.gradebook_csv(course=two_modules)))))
    assert streamed == [header, row]


def test_the_gradebook_of_two_modules_still_makes_three_queries(
        two_modules, alice, django_assert_num_queries):
    gradebook(course=two_modules)  # the content cache warm (the course's assessments: none)
    with django_assert_num_queries(3):
        gradebook(course=two_modules)
