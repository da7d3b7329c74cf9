"""What content sync asks of grading: is a part's spec valid, and does its reference grade 1.0."""

from typing import Any

from grading.checkers import CHECKERS, validate_spec
from grading.variants import variant_params


def part_spec_problems(context: dict[str, Any]) -> list[str]:
    """Problems with one part spec, in its exercise's context ({spec, parameters, derived}).

    Beyond the shape of the spec, the reference answer written as a student would type it
    must grade 1.0 for the default variant, so a broken key never reaches a student.
    """
    spec = context["spec"]
    answer_type = spec.get("type")
    if answer_type not in CHECKERS:
        return [f"unknown answer type '{answer_type}'"]
    problems = list(validate_spec(spec))
    if problems:
        return problems
    try:
        params = variant_params(context.get("parameters", {}), context.get("derived", {}), None)
    except Exception as exc:  # any failure here is an authoring error to report, not a crash
        return [f"variant parameters cannot be computed: {exc}"]
    return list(CHECKERS[answer_type].self_check(spec, params))
