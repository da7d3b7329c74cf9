"""How teachers mark an expression beyond "equal or not": relations to the key and credit rules.

A *relation* says how an answer stands to the key, decided exactly with the comparison the
checker uses (``same(a, b)``), never by floats alone:

* ``sign``: the answer is minus the key;
* ``factor``: a non-zero constant times the key (eigenvectors, equations of a line);
* ``constant``: the key plus a constant (antiderivatives);
* ``power_of_ten``: the key times 10^k for a whole k, 1 <= |k| <= 15.

``equivalent_up_to = ["factor"]`` makes such an answer correct; ``partial_credit`` gives it a
score and feedback: ``[{rule = "sign", credit = 0.5, feedback = "Check the sign."}]``.
The constant of ``factor`` and ``constant`` is found exactly by fixing the variables at a
point (the answer at the point over the key at the point, or their difference), then the
whole answer is compared with that multiple of the key, so ``2x`` is a multiple of ``x`` and
``x^2`` is not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from grading.checkers.base import is_number
from grading.checkers.mathparse import BinOp, Neg, Node, Num, Pow
from grading.checkers.substitution import at_point

__all__ = [
    "PARTIAL_RULES",
    "UP_TO",
    "partial_credit_rules",
    "relation_holds",
    "up_to_relations",
    "validate_marking",
]

UP_TO = ("factor", "sign", "constant")
PARTIAL_RULES = ("sign", "factor", "constant", "power_of_ten")
_MAX_POWER = 15

Same = Callable[[Node, Node], bool]


def _points(variables: Sequence[str]) -> list[dict[str, Fraction]]:
    """Two exact points, different in every variable (positive, so any domain has them)."""
    return [{name: Fraction(3, 2) + Fraction(i, 3) for i, name in enumerate(variables)},
            {name: Fraction(5, 7) + Fraction(2 * i, 5) for i, name in enumerate(variables)}]


def relation_holds(rule: str, answer: Node, key: Node, variables: Sequence[str], same: Same,
                   ratio: float | None) -> bool:
    """Does ``answer`` stand to ``key`` as ``rule`` says? ``ratio`` is the sampled constant
    answer/key ratio (None when not constant), used only to skip hopeless comparisons."""
    if rule == "sign":
        return (ratio is None or math.isclose(ratio, -1.0, rel_tol=1e-6)) and \
            same(answer, Neg(key))
    if rule == "factor":
        if ratio is None or abs(ratio) < 1e-300 or same(answer, Num(Fraction(0), "0")):
            return False
        for point in _points(variables):
            factor = BinOp("/", at_point(answer, point), at_point(key, point))
            if same(answer, BinOp("*", factor, key)):
                return True
        return False
    if rule == "constant":
        for point in _points(variables)[:1]:
            shift = BinOp("-", at_point(answer, point), at_point(key, point))
            if same(answer, BinOp("+", key, shift)):
                return True
        return False
    if rule == "power_of_ten":
        if ratio is None or ratio <= 0:
            return False
        power = round(math.log10(ratio))
        if power == 0 or abs(power) > _MAX_POWER or \
                not math.isclose(ratio, 10.0 ** power, rel_tol=1e-6):
            return False
        scale = Pow(Num(Fraction(10), "10"), Num(Fraction(abs(power)), str(abs(power))))
        candidate = BinOp("*", key, scale) if power > 0 else BinOp("/", key, scale)
        return same(answer, candidate)
    raise ValueError(f"unknown rule '{rule}'")


def up_to_relations(spec: Mapping[str, Any]) -> list[str]:
    """The spec's ``equivalent_up_to`` relation names (empty when absent or malformed)."""
    value = spec.get("equivalent_up_to")
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def partial_credit_rules(spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The spec's ``partial_credit`` entries (empty when absent or malformed)."""
    value = spec.get("partial_credit") or []
    return [r for r in value if isinstance(r, Mapping)] if isinstance(value, list) else []


def validate_marking(spec: Mapping[str, Any], *, rules: Sequence[str] = PARTIAL_RULES,
                     up_to: Sequence[str] = UP_TO) -> list[str]:
    """Problems with ``equivalent_up_to`` and ``partial_credit`` (a misconception's ``credit``
    is checked for every type by ``pipeline.misconception_credit_problems``)."""
    problems = []
    if "equivalent_up_to" in spec:
        value = spec["equivalent_up_to"]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append("'equivalent_up_to' must be a list of names")
        else:
            problems += [f"'equivalent_up_to': unknown relation '{v}' (use one of "
                         f"{', '.join(up_to)})" for v in value if v not in up_to]
    if "partial_credit" in spec:
        value = spec["partial_credit"]
        if not isinstance(value, list):
            problems.append("'partial_credit' must be a list of tables")
        else:
            for index, item in enumerate(value, start=1):
                where = f"'partial_credit' entry {index}"
                if not isinstance(item, Mapping):
                    problems.append(f"{where} must be a table")
                    continue
                for extra in sorted(set(item) - {"rule", "credit", "feedback", "tag"}):
                    problems.append(f"{where}: unknown key '{extra}'")
                if item.get("rule") not in rules:
                    problems.append(f"{where}: 'rule' must be one of {', '.join(rules)}")
                if not is_number(item.get("credit")) or not 0 <= item["credit"] <= 1:
                    problems.append(f"{where}: 'credit' must be a number from 0 to 1")
                if "feedback" in item and not isinstance(item["feedback"], str):
                    problems.append(f"{where}: 'feedback' must be a string")
                if "tag" in item and (not isinstance(item["tag"], str) or not item["tag"]):
                    problems.append(f"{where}: 'tag' must be a non-empty string")
    return problems
