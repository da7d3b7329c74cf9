"""Symbolic answers: expressions equivalent to the reference over a domain.

Equivalence is decided by sampling (sampling.py): seeded points over the spec's ``domain``
("positive", the default, or "real"), evaluated with floats and confirmed with exact or
high-precision arithmetic, with parameters substituted. Only when sampling is inconclusive
does sympy, built from our own trees in a helper process that is killed on timeout
(isolation.py), try to decide; if it cannot, the outcome is "review" (a person looks).
A decimal in an answer means exactly that decimal unless the spec gives ``rtol``/``atol``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sympy

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    functions_of,
    is_number,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import Expr, parse, to_sympy
from grading.checkers.refs import parse_reference, sympy_params
from grading.checkers.sampling import DOMAINS, Comparison, Domain, compare

__all__ = ["DOMAINS", "REVIEW_FEEDBACK", "Comparison", "SymbolicAnswer", "SymbolicChecker",
           "compare"]

REVIEW_FEEDBACK = ("Your answer could not be checked automatically; a teacher will look at "
                   "it.")
_RELATIVE_SLACK = 1e-8  # the sampling's own float tolerance, for hints


@dataclass(frozen=True)
class SymbolicAnswer(Answer):
    """The parsed expression."""

    expr: Expr | None = None


class SymbolicChecker(Checker[SymbolicAnswer]):
    """An expression equivalent to the reference for all values of the variables in the
    spec's ``domain`` ("positive", the default, or "real")."""

    type_name = "symbolic"
    spec_keys = frozenset({"domain", "rtol", "atol", "allow_infinity"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> SymbolicAnswer:
        expr = parse(raw if isinstance(raw, str) else "", variables=names_of(spec, "variables"),
                     functions=functions_of(spec), infinity=bool(spec.get("allow_infinity")))
        return SymbolicAnswer(raw=raw, canonical=expr.to_text(), latex=expr.to_latex(),
                              expr=expr)

    def check(self, answer: SymbolicAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        assert answer.expr is not None  # noqa: S101 - always set by parse
        variables = names_of(spec, "variables")
        functions = functions_of(spec)
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions)
        domain = _domain(spec)
        rtol, atol = _tolerance(spec)
        result = compare(answer.expr, reference, variables, functions=functions, params=params,
                         domain=domain, rtol=rtol, atol=atol)
        canonical = answer.canonical
        if result.status == "equal":
            return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
        for item in misconception_list(spec):
            try:
                target = parse_reference(item.get("answer"), params, variables=variables,
                                         functions=functions)
            except ValueError:
                continue
            matched = compare(answer.expr, target, variables, functions=functions,
                              params=params, use_sympy=False, domain=domain, rtol=rtol,
                              atol=atol)
            if matched.status == "equal":
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], canonical)
        if result.status == "unknown":
            return Verdict(None, "review", REVIEW_FEEDBACK, None, [], canonical)
        return Verdict(0.0, "incorrect", _hint(spec, result), None, [], canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        variables = names_of(spec, "variables")
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions_of(spec))
        unknown = reference.free_variables - set(variables)
        if unknown:
            # Parameters appear in the reference: substitute their values as numbers.
            values = {k: v for k, v in params.items() if k in unknown}
            expr = to_sympy(reference, substitutions=sympy_params(values))
            if isinstance(expr, list):
                raise ValueError("the reference gives a list, not one expression")
            return _sympy_text(expr)
        return reference.to_text()

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        reference = spec.get("reference")
        if not isinstance(reference, str) or not reference.strip():
            problems.append("'reference' must be an expression string")
        elif not problems:
            try:
                parse(reference, variables=names_of(spec, "variables"),
                      functions=functions_of(spec), list_functions=True, max_length=2000,
                      infinity=True)
            except ValueError as exc:
                message = getattr(exc, "message", str(exc))
                if not message.startswith("unknown name"):  # parameters are not known here
                    problems.append(f"'reference' cannot be read: {message}")
        if spec.get("domain", "positive") not in DOMAINS:
            problems.append(f"'domain' must be one of {', '.join(sorted(DOMAINS))}")
        for key in ("rtol", "atol"):
            if key in spec and (not is_number(spec[key]) or not 0 <= spec[key] < 1):
                problems.append(f"'{key}' must be a number from 0 to below 1")
        if "allow_infinity" in spec and not isinstance(spec["allow_infinity"], bool):
            problems.append("'allow_infinity' must be true or false")
        problems += check_misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        variables = names_of(spec, "variables")
        functions = functions_of(spec)
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions)
        rtol, atol = _tolerance(spec)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = parse_reference(item.get("answer"), params, variables=variables,
                                         functions=functions)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if compare(target, reference, variables, functions=functions, params=params,
                       use_sympy=False, domain=_domain(spec), rtol=rtol,
                       atol=atol).status == "equal":
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') is "
                                f"equivalent to the reference")
        return problems


def _domain(spec: Mapping[str, Any]) -> Domain:
    return "real" if spec.get("domain") == "real" else "positive"


def _tolerance(spec: Mapping[str, Any]) -> tuple[float | None, float | None]:
    """The spec's rtol/atol for approximate answers (None: exact)."""
    rtol, atol = spec.get("rtol"), spec.get("atol")
    return (float(rtol) if rtol is not None and is_number(rtol) else None,
            float(atol) if atol is not None and is_number(atol) else None)


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= _RELATIVE_SLACK * max(abs(x), abs(y)) + 1e-13


def _hint(spec: Mapping[str, Any], result: Comparison) -> str:
    base = feedback(spec, False)
    if "feedback_incorrect" in spec or result.ratio is None:
        return base
    if _close(result.ratio, -1.0):
        return f"{base} Your expression has the wrong sign."
    if not _close(result.ratio, 0.0):
        return f"{base} Your expression is off by a constant factor."
    return base


def _sympy_text(expr: Any) -> str:
    """A sympy expression written in our grammar (used only for authors' references)."""
    text = sympy.sstr(expr, full_prec=False)
    return re.sub(r"\bE\b", "e", text.replace("**", "^"))
