"""A lab never prints a number that answers a part the student has not solved, for their variant.

A simulation module may define ``printed_numbers(params) -> list[str]``: the numbers a run
with those validated parameters prints that the parameters alone decide (the ones no random
draw touches), written as the page prints them (rounded, so the check sees what the student
would read). Such a lab protects the unsolved parts of the exercises of its module: a
student's run is refused when one of those printed numbers, read as that student's answer to
an active part of an exercise with parameters that they have not solved yet (neither answered
correctly nor reviewed or overridden to full marks), would earn credit for the right answer
in their own variant, within the part's own tolerance (the part's checker decides, as for a
submitted answer; credit for an anticipated wrong answer, a misconception, does not count).
So a nudged input ("2.0001" for "2") that prints a number within the tolerance of the key is
refused like the exact one.

Left out: predictions (graded against a lab's measurement, they have no key), parts marked
against earlier answers, answer types that do not read a plain number, keys that are the
same in every variant (their reference names no parameter, so printing them gives nothing of
the student's variant away) and keys that are one of the question's given values itself (a
reference that is a parameter's name, e.g. `N` for 1,000 tokens: the prompt shows it). A
computed key that merely happens to equal a given value in some variant (a context value of
2.0 beside a state of 2) is protected like any other. Staff are never held back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Prefetch

from courses.models import Course, Exercise, Lab, Part
from grading.checkers import grade
from grading.checkers.carried import carried_keys
from grading.models import PartProgress
from grading.variant_assignment import variant_for
from labs.simulations import SIMULATIONS

#: The answer types a printed number can answer.
NUMBER_TYPES = frozenset({"numeric", "integer"})


def printed_answers(*, printed: list[str], spec: Mapping[str, Any],
                    params: Mapping[str, Any]) -> str | None:
    """The first of the `printed` numbers that a part with `spec` accepts as its right answer
    (full or partial credit that is not a misconception's) in the variant `params`; None when
    none does, or the part's type does not read a plain number. Pure: no query."""
    if spec.get("type") not in NUMBER_TYPES or "units" in spec or "lab" in spec \
            or carried_keys(spec) or not _uses_parameters(spec, params) \
            or _key_is_given(spec, params):
        return None
    for number in printed:
        try:
            result = grade(number, spec, params)
        except ValueError:  # a spec content validation should have refused
            return None
        if result.outcome in ("correct", "partial") and not result.misconception \
                and (result.score or 0) > 0:
            return number
    return None


def _uses_parameters(spec: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
    reference = spec.get("reference")
    texts = [reference] if isinstance(reference, str) else \
        [r for r in reference if isinstance(r, str)] if isinstance(reference, list) else []
    return any(re.search(rf"\b{re.escape(name)}\b", text) for text in texts for name in params)


def _key_is_given(spec: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
    """The part's key is a value the question gives (its reference is a parameter's name)."""
    reference = spec.get("reference")
    return isinstance(reference, str) and reference.strip() in params


def unsolved_exercise_computed(*, lab: Lab, course: Course, student: User,
                               params: dict[str, Any]) -> Exercise | None:
    """The first exercise (in exercise order) with a part the student has not solved that a
    run of `lab` with validated `params` would answer, for `student`'s variant (see the
    module docstring); None when there is none.

    No query for a simulation without ``printed_numbers``; otherwise one for the candidate
    exercises, one for their unsolved parts, and at most one for the student's variant.
    """
    module = SIMULATIONS[lab.simulation]
    printed_numbers = getattr(module, "printed_numbers", None)
    if printed_numbers is None:
        return None
    printed = list(printed_numbers(params))
    if not printed:
        return None
    solved = PartProgress.objects.filter(part=OuterRef("pk"), student=student, course=course,
                                         correct=True)
    open_parts = Part.objects.active().filter(~Exists(solved)).order_by("order")
    candidates = (Exercise.objects.filter(module_id=lab.module_id, archived_at__isnull=True)
                  .exclude(parameters={})
                  .filter(Exists(open_parts.filter(exercise=OuterRef("pk"))))
                  .prefetch_related(Prefetch("parts", queryset=open_parts, to_attr="open"))
                  .order_by("order"))
    for exercise in candidates:
        variant = variant_for(student=student, course=course, exercise=exercise)
        for part in exercise.open:
            if printed_answers(printed=printed, spec=part.spec, params=variant.params):
                return exercise
    return None
