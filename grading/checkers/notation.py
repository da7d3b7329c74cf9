# ruff: noqa: RUF001, RUF002 - the times sign of scientific notation is the point here
"""How an answer must be written, beside what it is worth: notation rules and comparisons.

* ``forbidden_strings`` / ``required_strings`` (numeric and symbolic parts): text the answer
  may not contain, or must contain, spaces ignored (the MITx library's ``forbidden_strings``,
  Numbas' ``notallowed``/``musthave``). A refusal is invalid (no attempt used) and names where
  the forbidden text starts, or the end of the answer for missing text.
* ``notation = "scientific"`` (numeric): a × 10^n (or aEn) with 1 ≤ |a| < 10, as WeBWorK's
  ``contextScientificNotation``; ``max_decimals = n``: no number written with more than n
  decimal places (STACK's ``maxdp``).
* ``precision_credit`` (numeric): the credit of a right value written in the wrong precision
  or notation (Numbas' ``precisionPartialCredit``): without it such an answer is invalid.
* ``comparison`` (numeric): ``"greater"``, ``"at_least"``, ``"less"`` or ``"at_most"`` the
  key, compared exactly (STACK's GT and GTE answer tests), instead of equal within tolerance.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from grading.checkers.base import Verdict, feedback, is_number
from grading.checkers.mathparse import BinOp, Expr, FormatError, Neg, Node, Num, Pow
from grading.checkers.quantities import Number

__all__ = ["COMPARISONS", "NOTATION_KEYS", "STRING_KEYS", "check_notation", "check_strings",
           "comparison_verdict", "decimals_written", "sigfigs_written", "validate_notation",
           "written_number"]

STRING_KEYS = frozenset({"forbidden_strings", "required_strings"})
NOTATION_KEYS = frozenset({"notation", "max_decimals", "precision_credit", "comparison"})
COMPARISONS = {"greater": "greater than", "at_least": "at least", "less": "less than",
               "at_most": "at most"}
_DECIMAL = re.compile(r"\d*[.,](\d+)")


def _strings(spec: Mapping[str, Any], key: str) -> list[str]:
    value = spec.get(key) or []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def check_strings(raw: str, spec: Mapping[str, Any]) -> None:
    """Raise FormatError when ``raw`` contains a forbidden string or lacks a required one
    (both compared with the spaces of the answer and of the string removed)."""
    compact, where = _compact(raw)
    for text in _strings(spec, "forbidden_strings"):
        needle = "".join(text.split())
        found = compact.find(needle) if needle else -1
        if found >= 0:
            position = where[found]
            raise FormatError(f"'{text}' may not be used in this answer (character "
                              f"{position})", position)
    for text in _strings(spec, "required_strings"):
        if "".join(text.split()) not in compact:
            end = len(raw) + 1
            raise FormatError(f"this answer must contain '{text}' (missing at the end of your "
                              f"answer, character {end})", end)


def _compact(raw: str) -> tuple[str, list[int]]:
    """``raw`` without spaces, and the 1-based position of each kept character."""
    kept = [(ch, i + 1) for i, ch in enumerate(raw) if not ch.isspace()]
    return "".join(ch for ch, _ in kept), [pos for _, pos in kept]


def check_notation(raw: str, expr: Expr, spec: Mapping[str, Any]) -> None:
    """Raise FormatError when the number breaks ``notation`` or ``max_decimals``."""
    if spec.get("notation") == "scientific":
        written = written_number(expr.node)
        example = "write it in scientific notation, as 1.5×10^3 or 1.5e3 (a number from 1 to " \
                  "10 times a power of ten)"
        if written is None:
            raise FormatError(f"{example}", 1)
        literal, power = written
        mantissa = abs(literal.value) / (10 ** int(literal.text.partition("e")[2] or 0)) \
            if "e" in literal.text else abs(literal.value)
        has_power = power != 0 or "e" in literal.text or "10^" in raw.replace(" ", "")
        if literal.value != 0 and not (has_power and 1 <= mantissa < 10):
            raise FormatError(f"{example}; {literal.text} at character {literal.pos} is not "
                              f"from 1 to 10", literal.pos)
    most = spec.get("max_decimals")
    if most is not None:
        for match in _DECIMAL.finditer(raw):
            if len(match.group(1)) > int(most):
                position = match.start() + 1
                places = "place" if int(most) == 1 else "places"
                raise FormatError(f"at most {most} decimal {places}: the number at character "
                                  f"{position} has {len(match.group(1))}", position)


def comparison_verdict(value: Number, reference: Number,
                       spec: Mapping[str, Any], canonical: str) -> Verdict | None:
    """The verdict of a ``comparison`` part (None when the part compares for equality)."""
    kind = spec.get("comparison")
    if kind not in COMPARISONS:
        return None
    answer, key = value.best(), reference.best()
    holds = {"greater": answer > key, "at_least": answer >= key, "less": answer < key,
             "at_most": answer <= key}[kind]
    if holds:
        return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
    message = feedback(spec, False)
    if "feedback_incorrect" not in spec:
        message += f" The value must be {COMPARISONS[kind]} the bound asked for."
    return Verdict(0.0, "incorrect", message, None, [], canonical)


def validate_notation(spec: Mapping[str, Any]) -> list[str]:
    """Problems with the notation, string and comparison keys."""
    problems = []
    for key in STRING_KEYS:
        value = spec.get(key, [])
        if not (isinstance(value, str) or (isinstance(value, list)
                                           and all(isinstance(v, str) for v in value))):
            problems.append(f"'{key}' must be a list of strings")
    if spec.get("notation", "scientific") != "scientific":
        problems.append("'notation' must be \"scientific\"")
    most = spec.get("max_decimals")
    if most is not None and not (isinstance(most, int) and not isinstance(most, bool)
                                 and 0 <= most <= 15):
        problems.append("'max_decimals' must be a whole number from 0 to 15")
    credit = spec.get("precision_credit")
    if credit is not None and not (is_number(credit) and 0 <= credit < 1):
        problems.append("'precision_credit' must be a number from 0 to below 1")
    if spec.get("comparison", "greater") not in COMPARISONS:
        problems.append(f"'comparison' must be one of {', '.join(COMPARISONS)}")
    return problems


# --------------------------------------------------------------------------- as written


def written_number(node: Node) -> tuple[Num, int] | None:
    """The literal of a plain number as written, and its power of ten: ``-0.0015``,
    ``1.5e-3``, ``-2.47*10^-2`` or ``-247*10^-4``; None for any other expression."""
    if isinstance(node, Neg):
        node = node.operand
    scale = 0
    if isinstance(node, BinOp) and node.op == "*" and _power_of_ten(node.right) is not None:
        left = node.left.operand if isinstance(node.left, Neg) else node.left
        if isinstance(left, Num):
            scale = _power_of_ten(node.right) or 0
            node = left
    if not isinstance(node, Num):
        return None
    exponent = node.text.partition("e")[2]
    return node, scale + (int(exponent) if exponent else 0)


def sigfigs_written(node: Node) -> tuple[int, int] | None:
    """(fewest, most) significant figures of a number as typed, or None for an expression.

    Accepts ``0.0015``, ``-1.50e-3``, ``1.5*10^-3``, ``-247*10^-4``; trailing zeros of a whole
    number (``1500``) are ambiguous, hence the range.
    """
    written = written_number(node)
    if written is None:
        return None
    mantissa = written[0].text.split("e")[0]
    digits = mantissa.replace(".", "").lstrip("0")
    if not digits:  # zero: count the zeros after the point, at least one
        decimals = mantissa.split(".")[1] if "." in mantissa else ""
        return (max(1, len(decimals)), max(1, len(decimals)))
    if "." in mantissa:
        return (len(digits), len(digits))
    stripped = digits.rstrip("0")
    return (len(stripped), len(digits))


def decimals_written(node: Node) -> int | None:
    """Decimal places of a number as typed (``2.50`` has 2, ``1.5e-3`` = 0.0015 has 4,
    ``2.5e1`` = 25 has 0), or None for an expression."""
    written = written_number(node)
    if written is None:
        return None
    literal, exponent = written
    mantissa = literal.text.split("e")[0]
    places = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return max(0, places - exponent)


def _power_of_ten(node: Node) -> int | None:
    if not isinstance(node, Pow) or not isinstance(node.base, Num) or node.base.text != "10":
        return None
    exponent = node.exponent.operand if isinstance(node.exponent, Neg) else node.exponent
    if not isinstance(exponent, Num) or exponent.value.denominator != 1:
        return None
    value = exponent.value.numerator
    return -value if isinstance(node.exponent, Neg) else value
