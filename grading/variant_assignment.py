"""Which variant of an exercise a student gets: a seed from (course, exercise, student)."""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from courses.models import Course, Exercise
from grading.variants import render_prompt, seed_for, variant_params


@dataclass(frozen=True)
class Variant:
    """A student's parameters for one exercise; `seed` None is the module's own numbers."""

    seed: int | None
    params: dict[str, Any]

    def prompt(self, template: str) -> str:
        """`template` with `{{ name }}` replaced by this variant's values."""
        return render_prompt(template, self.params)


def default_variant(*, exercise: Exercise) -> Variant:
    """The variant that reproduces the module's numbers (0.85, 40 steps, ...)."""
    return Variant(seed=None, params=variant_params(exercise.parameters, exercise.derived, None))


def variant_for(*, student: User, course: Course, exercise: Exercise) -> Variant:
    """The student's variant: deterministic from (course, exercise, student); no query.

    Exercises without parameters have a single variant (seed None).
    """
    if not exercise.parameters:
        return default_variant(exercise=exercise)
    seed = seed_for(course.pk, exercise.uuid, student.pk)
    return Variant(seed=seed, params=variant_params(exercise.parameters, exercise.derived, seed))
