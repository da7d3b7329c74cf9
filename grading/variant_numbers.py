"""The numbers of a student's variant as pages show them: the values the question uses, in the
order the question uses them, each with its label from the content (or its name)."""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from courses.models import Exercise
from grading.variant_assignment import Variant
from grading.variants import format_value

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


@dataclass(frozen=True)
class VariantNumber:
    """One number of a variant: `label` is content Markdown (may hold maths), `value` text."""

    name: str
    label: str
    value: str
    unit: str = ""


def variant_numbers(*, exercise: Exercise, variant: Variant,
                    part_prompts: Iterable[str] = ()) -> list[VariantNumber]:
    """The values of `variant` that the exercise's prompt and `part_prompts` show, in order of
    first use; empty for an exercise without parameters (everyone has the same numbers)."""
    if not exercise.parameters:
        return []
    names: list[str] = []
    for text in (exercise.prompt, *part_prompts):
        for name in _PLACEHOLDER.findall(text or ""):
            if name in variant.params and name not in names:
                names.append(name)
    specs = exercise.parameters or {}
    numbers = []
    for name in names:
        spec = specs.get(name) or {}
        numbers.append(VariantNumber(name=name, label=str(spec.get("label") or name),
                                     value=format_value(variant.params[name]),
                                     unit=str(spec.get("unit") or "")))
    return numbers


@dataclass(frozen=True)
class StudentQuestion:
    """An exercise as one student sees it: prompts with their numbers, and the numbers."""

    exercise: Exercise
    prompt: str  # Markdown with maths
    part_prompts: list[tuple[str, str]]  # (part key, Markdown prompt)
    numbers: list[VariantNumber]
    module_numbers: bool  # the default variant (the module's own numbers)


def student_question(*, exercise: Exercise, part_prompts: Iterable[tuple[str, str]],
                     variant: Variant) -> StudentQuestion:
    """The exercise's prompt and its parts' prompts (key, template) in `variant`."""
    parts = list(part_prompts)
    return StudentQuestion(
        exercise=exercise, prompt=variant.prompt(exercise.prompt),
        part_prompts=[(key, variant.prompt(text or "")) for key, text in parts],
        numbers=variant_numbers(exercise=exercise, variant=variant,
                                part_prompts=[text for _, text in parts]),
        module_numbers=variant.is_default,
    )
