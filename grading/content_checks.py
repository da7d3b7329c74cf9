"""What content sync asks of grading: is a part's spec valid, does its key grade 1.0, does no
misconception grade correct, and do its question tests pass, in every variant."""

from typing import Any

from grading.checkers import self_check
from grading.checkers.carried import (
    carried_keys,
    carried_name,
    carried_problems,
    key_value,
    resolved_spec,
)
from grading.difficulty_guard import (
    guard_problems_in,
    guard_shape_problems,
    guard_spread_problems,
    key_number,
)
from grading.question_tests import question_test_failures, question_test_problems
from grading.variant_space import NumberedVariant, variants_all
from grading.variants import validate_parameters


def part_spec_problems(context: dict[str, Any]) -> list[str]:
    """Problems with one part spec, in its exercise's context ({spec, parameters, derived}).

    Beyond the spec's shape, in every variant of the exercise (all of a space of at most 200
    combinations, else the default and 200 seeded draws: see grading.variant_space) the
    reference answer written as a student would type it must grade 1.0, no misconception may
    grade correct, every question test must grade as it expects, and the key must keep the
    part's difficulty guards (grading.difficulty_guard). A failure names the
    first variant it happens in (number and parameter values) and how many others fail.
    """
    parameters = context.get("parameters", {})
    derived = context.get("derived", {})
    problems = validate_parameters(parameters, derived)
    if problems:
        return [f"variant parameters: {p}" for p in problems]
    spec = context["spec"]
    problems = question_test_problems(spec, {*parameters, *derived}) + guard_shape_problems(spec)
    if problems:
        return problems
    parts = context.get("parts") or []
    first: dict[str, NumberedVariant] = {}  # problem text (without variant) -> first variant
    counts: dict[str, int] = {}
    total = 0
    spread = "key_spread_at_most" in (spec.get("difficulty_guard") or {})
    keys: list[float] = []  # the key in each variant, for a guard on its spread
    for variant in variants_all(parameters, derived):
        total += 1
        key = key_number(spec, variant.params) if spread else None
        if key is not None:
            keys.append(key)
        for problem in _problems_in(spec, parts, variant):
            first.setdefault(problem, variant)
            counts[problem] = counts.get(problem, 0) + 1
        if len(first) > 20:  # a part broken everywhere: enough to fix it
            break
    out = []
    for problem, variant in first.items():
        if variant.number == 0 and counts[problem] == total:
            out.append(problem)  # wrong in every variant: the variant is no news
            continue
        others = counts[problem] - 1
        tail = f" (and in {others} other variant{'s' if others != 1 else ''})" if others else ""
        out.append(f"{problem}, in {variant.describe()}{tail}")
    return out + guard_spread_problems(spec, keys)


def _problems_in(spec: dict[str, Any], parts: list[Any], variant: NumberedVariant) -> list[str]:
    params = variant.params
    if carried_keys(spec):
        return _carried_spec_problems(spec, parts, params, variant.number)
    problems = list(self_check(spec, params))
    if problems:
        return problems
    return question_test_failures(spec, params, variant.number) + guard_problems_in(spec, params)


def _carried_spec_problems(spec: dict[str, Any], parts: list[Any], params: dict[str, Any],
                           number: int) -> list[str]:
    """A part that uses earlier answers: the named parts come earlier, its key (with the
    earlier parts' keys in place of the student's answers) grades 1.0, and its question tests
    pass with their `earlier` answers."""
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
    problems = list(self_check(resolved_spec(spec), {**params, **carried}))
    if problems:
        return problems
    return question_test_failures(spec, params, number, earlier_specs=earlier)
