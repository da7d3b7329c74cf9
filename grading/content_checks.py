"""What content sync asks of grading: is a part's spec valid, and does its key grade 1.0."""

from typing import Any

from grading.checkers import self_check
from grading.variants import validate_parameters, variant_params


def part_spec_problems(context: dict[str, Any]) -> list[str]:
    """Problems with one part spec, in its exercise's context ({spec, parameters, derived}).

    Beyond the spec's shape, the reference answer written as a student would type it must
    grade 1.0 (and no misconception may grade correct) in the default variant, so a broken
    key never reaches a student.
    """
    parameters = context.get("parameters", {})
    derived = context.get("derived", {})
    problems = validate_parameters(parameters, derived)
    if problems:
        return [f"variant parameters: {p}" for p in problems]
    params = variant_params(parameters, derived, None)
    return list(self_check(context["spec"], params))
