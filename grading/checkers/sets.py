"""Set answers (``type = "set"``): finite sets, intervals and unions of reals.

``{1, 2, 3}``, ``∅``, ``(0, 1]``, ``[2, oo)``, ``(-oo, 0) U (1, oo)``, ``R``, "no solution"
(see realsets.py for the notation). Two sets are equal when they hold the same numbers;
by default (as WeBWorK) the answer must also be written reduced: an equal union with
overlapping or adjoining pieces, or repeated elements, is incorrect with a message saying so
(``reduced = false`` accepts it). Brackets are never ignored: ``(0, 1]`` and ``(0, 1)`` are
different sets, and ``{0, 1)`` is invalid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    functions_of,
    misconception_list,
    names_of,
)
from grading.checkers.equation import relation_set
from grading.checkers.expression_sets import (
    check_expression_set,
    expression_set_key_text,
    read_expression_set,
)
from grading.checkers.lists import ListAnswer
from grading.checkers.mathparse import FormatError
from grading.checkers.numeric import TOLERANCE_KEYS, validate_tolerance
from grading.checkers.realsets import (
    IntervalTerm,
    RealSet,
    SetExpr,
    evaluate_set,
    parse_set,
    reduction_problem,
    sets_equal,
)
from grading.checkers.tolerance import Tolerance

__all__ = ["SetAnswer", "SetChecker", "reference_set"]


#: A relation sign: with ``inequality_variable`` the answer is an inequality, not a set.
_RELATION = re.compile("[<>=\u2264\u2265\u2260]")


@dataclass(frozen=True)
class SetAnswer(Answer):
    """The set as written."""

    expr: SetExpr | None = None
    elements: ListAnswer | None = None  # a set of expressions (the spec declares variables)


def reference_set(text: object, params: Mapping[str, Any], spec: Mapping[str, Any]) -> RealSet:
    """An author's set (parameters allowed in the endpoints and elements), reduced.

    Raises ValueError when it cannot be read or computed."""
    if not isinstance(text, str):
        raise ValueError(f"a set must be written as a string, not {text!r}")
    try:
        expr = parse_set(text, variables=[*names_of(spec, "variables"), *params],
                         functions=functions_of(spec))
        return evaluate_set(expr, params)
    except FormatError as exc:
        raise ValueError(f"'{text}': {exc.message}") from None


class SetChecker(Checker[SetAnswer]):
    """A set of reals equal to the reference (endpoints and elements within tolerance)."""

    type_name = "set"
    spec_keys = frozenset({*TOLERANCE_KEYS, "reduced", "partial", "inequality_variable",
                           "end_credit", "reversed_brackets"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> SetAnswer:
        if names_of(spec, "variables"):
            elements = read_expression_set(raw or "", spec)
            return SetAnswer(raw=raw, canonical=elements.canonical, latex=elements.latex,
                             elements=elements)
        variable = spec.get("inequality_variable")
        if isinstance(variable, str) and _RELATION.search(raw or ""):
            expr = parse_set(relation_set(raw, variable).to_text())
            return SetAnswer(raw=raw, canonical=expr.to_text(), latex=expr.to_latex(),
                             expr=expr)
        text = _iso_brackets(raw or "") if spec.get("reversed_brackets") else raw or ""
        expr = parse_set(text, variables=names_of(spec, "variables"),
                         functions=functions_of(spec))
        evaluate_set(expr, {})  # an interval that is not one is invalid now, not when graded
        return SetAnswer(raw=raw, canonical=expr.to_text(), latex=expr.to_latex(), expr=expr)

    def check(self, answer: SetAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        if answer.elements is not None:
            return check_expression_set(answer.elements, spec, params)
        assert answer.expr is not None  # noqa: S101 - set by parse
        value = evaluate_set(answer.expr, params)
        canonical = value.to_text()
        reference = reference_set(spec["reference"], params, spec)
        tolerance = Tolerance.from_spec(spec)
        if sets_equal(value, reference, tolerance):
            problem = reduction_problem(answer.expr, params) if spec.get("reduced", True) \
                else None
            if problem is None:
                return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
            return Verdict(0.0, "incorrect", f"{problem} The set is right; write it reduced.",
                           None, [], canonical)
        for item in misconception_list(spec):
            try:
                target = reference_set(item.get("answer"), params, spec)
            except ValueError:
                continue
            if sets_equal(value, target, tolerance.for_misconception(item)):
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], canonical)
        message = feedback(spec, False)
        if "feedback_incorrect" not in spec:
            hint = _hint(answer.expr, value, reference, tolerance)
            if hint:
                message = f"{message} {hint}"
        score = _partial(value, reference, tolerance) if spec.get("partial") else 0.0
        if spec.get("end_credit"):
            score = max(score, _end_credit(value, reference, tolerance))
        if score > 0:
            return Verdict(score, "partial", message, None, [], canonical)
        return Verdict(0.0, "incorrect", message, None, [], canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        if names_of(spec, "variables"):
            return expression_set_key_text(spec, params)
        return reference_set(spec["reference"], params, spec).to_text()

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        for key in ("end_credit", "reversed_brackets"):
            if key in spec and not isinstance(spec[key], bool):
                problems.append(f"'{key}' must be true or false")
        variable = spec.get("inequality_variable")
        if variable is not None and not (isinstance(variable, str)
                                         and re.fullmatch(r"[A-Za-z]\w{0,30}", variable)):
            problems.append("'inequality_variable' must be a name, such as \"x\"")
        reference = spec.get("reference")
        if not isinstance(reference, str) or not reference.strip():
            problems.append("'reference' must be a set written as a string, e.g. "
                            "\"(-oo, 0) U [1, oo)\" or \"{1, 2}\"")
        elif names_of(spec, "variables"):
            try:
                read_expression_set(reference, spec)
            except FormatError as exc:
                if not exc.message.startswith("unknown name"):  # parameters are not known here
                    problems.append(f"'reference' cannot be read: {exc.message}")
        else:
            try:
                parse_set(reference, variables=[*names_of(spec, "variables")],
                          functions=functions_of(spec))
            except FormatError as exc:
                if not exc.message.startswith("unknown name"):  # parameters are not known here
                    problems.append(f"'reference' cannot be read: {exc.message}")
            except ValueError as exc:
                problems.append(f"'reference': {exc}")
        problems += validate_tolerance(spec)
        for flag in ("reduced", "partial"):
            if flag in spec and not isinstance(spec[flag], bool):
                problems.append(f"'{flag}' must be true or false")
        problems += check_misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        if names_of(spec, "variables"):
            return _expression_set_misconception_problems(spec, params)
        problems = []
        reference = reference_set(spec["reference"], params, spec)
        tolerance = Tolerance.from_spec(spec)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = reference_set(item.get("answer"), params, spec)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if sets_equal(target, reference, tolerance):
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') is the "
                                f"same set as the reference")
        return problems


def _hint(expr: SetExpr, value: RealSet, reference: RealSet, tolerance: Tolerance) -> str:
    """WeBWorK's endpoint hints for one interval against one interval."""
    if len(value.components) != len(reference.components):
        if len(reference.components) == 0:
            return "The set should be empty."
        if len(value.components) == 0:
            return "The set is not empty."
        return ""
    if len(expr.terms) != 1 or not isinstance(expr.terms[0], IntervalTerm) \
            or len(value.components) != 1:
        return ""
    a, r = value.components[0], reference.components[0]
    if r.is_point:
        return ""
    wrong = []
    if not tolerance.accepts(a.lo, r.lo):
        wrong.append("Your left endpoint is incorrect.")
    if not tolerance.accepts(a.hi, r.hi):
        wrong.append("Your right endpoint is incorrect.")
    if not wrong and (a.lo_closed != r.lo_closed or a.hi_closed != r.hi_closed):
        wrong.append("The type of interval is incorrect (which ends are included).")
    return " ".join(wrong)


_ISO_INTERVAL = re.compile(r"([\[\]])([^\[\]{}]*?,[^\[\]{}]*?)([\[\]])")


def _iso_brackets(raw: str) -> str:
    """``]a, b[`` (ISO 80000-2, French and German schools) as ``(a, b)``: a bracket turned
    outwards is an open end. One character for one, so positions stay the student's."""
    def one(match: re.Match[str]) -> str:
        opening = "(" if match.group(1) == "]" else "["
        closing = ")" if match.group(3) == "[" else "]"
        return f"{opening}{match.group(2)}{closing}"

    return _ISO_INTERVAL.sub(one, raw)


def _end_credit(value: RealSet, reference: RealSet, tolerance: Tolerance) -> float:
    """The MITx IntervalGrader's credit for one interval: each end, its endpoint and its
    bracket both right, is worth half."""
    if len(value.components) != 1 or len(reference.components) != 1:
        return 0.0
    a, r = value.components[0], reference.components[0]
    left = tolerance.accepts(a.lo, r.lo) and a.lo_closed == r.lo_closed
    right = tolerance.accepts(a.hi, r.hi) and a.hi_closed == r.hi_closed
    return (left + right) / 2


def _partial(value: RealSet, reference: RealSet, tolerance: Tolerance) -> float:
    """For finite sets: right elements / max(elements given, elements expected), as
    WeBWorK's list checker."""
    if not all(c.is_point for c in (*value.components, *reference.components)):
        return 0.0
    expected = [c.lo for c in reference.components]
    right = 0
    for c in value.components:
        for i, target in enumerate(expected):
            if tolerance.accepts(c.lo, target):
                right += 1
                expected.pop(i)
                break
    total = max(len(value.components), len(reference.components))
    return right / total if total else 0.0


def _expression_set_misconception_problems(spec: Mapping[str, Any],
                                           params: Mapping[str, Any]) -> list[str]:
    problems = []
    for index, item in enumerate(misconception_list(spec), start=1):
        try:
            written = read_expression_set(str(item.get("answer")), spec,
                                          variables=[*names_of(spec, "variables"), *params])
        except FormatError as exc:
            problems.append(f"'misconceptions' entry {index}: {exc.message}")
            continue
        if check_expression_set(written, {**spec, "misconceptions": []}, params).outcome \
                == "correct":
            problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') is the "
                            f"same set as the reference")
    return problems
