"""What content sync asks of grading: is a part's spec valid, and does its key grade 1.0."""

from typing import Any

from grading.checkers import self_check
from grading.checkers.carried import (
    carried_keys,
    carried_name,
    carried_problems,
    key_value,
    resolved_spec,
)
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
    spec = context["spec"]
    if carried_keys(spec):
        return _carried_spec_problems(spec, context.get("parts") or [], params)
    return list(self_check(spec, params))


def _carried_spec_problems(spec: dict[str, Any], parts: list[Any],
                           params: dict[str, Any]) -> list[str]:
    """A part that uses earlier answers: the named parts come earlier, and its key (with
    the earlier parts' keys in place of the student's answers) grades 1.0."""
    earlier: dict[str, dict[str, Any]] = {}
    for part in parts:
        if not isinstance(part, dict):
            continue
        if part is spec or part.get("key") == spec.get("key"):
            break
        earlier[str(part.get("key"))] = part
    problems = carried_problems(spec, earlier, list(earlier))
    if problems:
        return problems
    try:
        carried = {carried_name(k): key_value(earlier[k], params, earlier)
                   for k in carried_keys(spec)}
    except (ValueError, TypeError, ArithmeticError) as exc:
        return [f"'reference': an earlier part's key cannot be computed: {exc}"]
    return list(self_check(resolved_spec(spec), {**params, **carried}))
