"""Which variant of an exercise a student gets: a seed from (course, exercise, student), or
the module's own numbers for a student given the default variant in the course."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from courses.models import Course, Exercise
from grading.models import DefaultVariant
from grading.variants import render_prompt, seed_for, variant_params

#: Attribute of a User object caching the ids of the courses where it has the default variant.
_CACHE = "_default_variant_course_ids"


@dataclass(frozen=True)
class Variant:
    """A student's parameters for one exercise; `seed` None is the module's own numbers."""

    seed: int | None
    params: dict[str, Any]

    @property
    def is_default(self) -> bool:
        return self.seed is None

    def prompt(self, template: str) -> str:
        """`template` with `{{ name }}` replaced by this variant's values."""
        return render_prompt(template, self.params)


def default_variant(*, exercise: Exercise) -> Variant:
    """The variant that reproduces the module's numbers (0.85, 40 steps, ...)."""
    return Variant(seed=None, params=variant_params(exercise.parameters, exercise.derived, None))


def default_variant_students(*, course: Course, student_ids: Iterable[int]) -> set[int]:
    """Which of `student_ids` have the default variant in the course (one query)."""
    return set(DefaultVariant.objects.filter(course=course, student_id__in=list(student_ids))
               .values_list("student_id", flat=True))


def variant_of(*, course: Course, exercise: Exercise, student_id: int, default: bool) -> Variant:
    """The variant of student `student_id`, told whether they have the default one; no query
    (for pages that list many students: see `default_variant_students`)."""
    if default or not exercise.parameters:
        return default_variant(exercise=exercise)
    seed = seed_for(course.pk, exercise.uuid, student_id)
    return Variant(seed=seed, params=variant_params(exercise.parameters, exercise.derived, seed))


def uses_default_variant(*, student: User, course: Course) -> bool:
    """Whether the student has the default variant in the course: one query per User object
    (the answer for all its courses is cached on it), whatever the number of exercises."""
    cached: set[int] | None = getattr(student, _CACHE, None)
    if cached is None:
        cached = set(DefaultVariant.objects.filter(student_id=student.pk)
                     .values_list("course_id", flat=True))
        setattr(student, _CACHE, cached)
    return course.pk in cached


def variant_for(*, student: User, course: Course, exercise: Exercise) -> Variant:
    """The student's variant: deterministic from (course, exercise, student), or the default
    one (see `DefaultVariant`). Exercises without parameters have a single variant (seed None)
    and cost no query; otherwise at most one query per User object.
    """
    if not exercise.parameters:
        return default_variant(exercise=exercise)
    default = uses_default_variant(student=student, course=course)
    return variant_of(course=course, exercise=exercise, student_id=student.pk, default=default)
