# ruff: noqa: RUF002 - maths symbols are the point here
"""Complex answers: numeric and symbolic parts with an ``imaginary_unit`` (``i`` or ``j``).

Off by default, so ``i`` stays a variable where it is one. With ``imaginary_unit = "i"`` the
reader takes ``i`` as the imaginary unit and accepts ``Re``, ``Im``, ``arg``, ``conj`` (and
``abs``, ``|z|``); cartesian (``1 + 2i``, ``1+2*i``), polar (``2(cos(π/3) + i sin(π/3))``) and
exponential forms (``2 e^(iπ/3)``) are values like any other. Values are computed exactly as
Gaussian rationals while they stay rational and otherwise with 50-digit complex arithmetic
(mathparse/complex_eval.py), principal branches (``sqrt(-4) = 2i``). A numeric part compares
the values within ``rtol``/``atol`` (|a − r| ≤ rtol·|r|; default rtol 1e-9), or with
``sigfigs``/``decimals`` on the real and imaginary parts each; a symbolic part compares the
expressions at seeded points (the variables real, or complex with ``domain = "complex"``).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    feedback,
    functions_of,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import Expr, FormatError, parse, to_sympy
from grading.checkers.mathparse.complex_eval import (
    IMAGINARY_UNITS,
    ComplexValue,
    complex_close,
    complex_evaluate,
)
from grading.checkers.mathparse.names import declared_functions
from grading.checkers.mathparse.precise import context, to_fraction
from grading.checkers.mathparse.sympy_build import sympy_text
from grading.checkers.numeric import (
    TOLERANCE_KEYS,
    NumericChecker,
    format_complex,
    read_plain_number,
)
from grading.checkers.quantities import Number
from grading.checkers.refs import fraction_params, sympy_params
from grading.checkers.symbolic import REVIEW_FEEDBACK, SymbolicChecker
from grading.checkers.tolerance import Tolerance

__all__ = ["ComplexAnswer", "ComplexChecker", "uses_complex"]

_POINTS = 10
_NEEDED = 4


def uses_complex(spec: Mapping[str, Any]) -> bool:
    """True for a numeric or symbolic part that reads complex numbers."""
    return spec.get("type") in ("numeric", "symbolic") and "imaginary_unit" in spec


def _unit(spec: Mapping[str, Any]) -> str:
    unit = spec.get("imaginary_unit")
    return unit if unit in IMAGINARY_UNITS else "i"


@dataclass(frozen=True)
class ComplexAnswer(Answer):
    """The parsed expression and, when it has no variables, its value."""

    expr: Expr | None = None
    value: ComplexValue | None = None


@functools.lru_cache(maxsize=4096)
def _reference_expr(text: str, names: tuple[str, ...], functions: tuple[tuple[str, int], ...],
                    unit: str) -> Expr:
    try:
        return parse(text, variables=names, functions=dict(functions), list_functions=True,
                     max_length=2000, imaginary=unit)
    except ValueError as exc:
        raise ValueError(f"'{text}': {getattr(exc, 'message', str(exc))}") from None


class ComplexChecker(Checker[ComplexAnswer]):
    """Numeric or symbolic answers over the complex numbers (see the module docstring)."""

    type_name = "numeric"

    def reference(self, text: object, spec: Mapping[str, Any],
                  params: Mapping[str, Any]) -> Expr:
        """An author's expression (of the parameters and variables) read in complex mode."""
        if isinstance(text, bool) or not isinstance(text, str | int | float):
            raise ValueError(f"an expression must be a string or a number, not {text!r}")
        variables = names_of(spec, "variables")
        functions = functions_of(spec)
        names = tuple(dict.fromkeys([*variables, *(p for p in params if p not in functions)]))
        return _reference_expr(str(text), names, tuple(sorted(functions.items())), _unit(spec))

    def parse(self, raw: str, spec: Mapping[str, Any]) -> ComplexAnswer:
        raw = raw if isinstance(raw, str) else ""
        unit = _unit(spec)
        expr = parse(read_plain_number(raw), variables=names_of(spec, "variables"),
                     functions=functions_of(spec), imaginary=unit)
        canonical = expr.to_text()
        value = None
        if not expr.free_variables:
            value = complex_evaluate(expr)
            if value is None:
                raise FormatError("this has no value (a division by zero, or a function "
                                  "outside its domain?)", None)
            formatted = format_complex(value, unit)
            if formatted != canonical:
                canonical = f"{canonical} ≈ {formatted}"
        return ComplexAnswer(raw=raw, canonical=canonical, latex=expr.to_latex(), expr=expr,
                             value=value)

    def _same(self, answer: Expr, target: Expr, spec: Mapping[str, Any],
              params: Mapping[str, Any], item: Mapping[str, Any] | None = None) -> bool | None:
        tolerances = item if item is not None and any(k in item for k in TOLERANCE_KEYS) \
            else spec
        env = {k: v for k, v in fraction_params(params).items() if not isinstance(v, list)}
        variables = [v for v in names_of(spec, "variables") if v not in env]
        if not variables:
            a, r = complex_evaluate(answer, env), complex_evaluate(target, env)
            if a is None or r is None:
                return False
            return _close(a, r, tolerances)
        rng = random.Random(20260)  # noqa: S311 - seeded sample points, not secrets
        ctx = context(50)
        agree = 0
        for _ in range(_POINTS * 3):
            point = dict(env)
            for name in variables:
                real = Fraction(rng.randint(-250, 250), 100) or Fraction(1, 3)
                if spec.get("domain") == "complex":
                    imag = Fraction(rng.randint(-250, 250), 100)
                    point[name] = ctx.mpc(ctx.mpf(real.numerator) / real.denominator,
                                          ctx.mpf(imag.numerator) / imag.denominator)
                else:
                    point[name] = real
            a, r = complex_evaluate(answer, point), complex_evaluate(target, point)
            if r is None:
                continue
            if a is None or not _close(a, r, tolerances):
                return False
            agree += 1
            if agree >= _POINTS:
                break
        return True if agree >= _NEEDED else None

    def check(self, answer: ComplexAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        assert answer.expr is not None  # noqa: S101 - always set by parse
        reference = self.reference(spec["reference"], spec, params)
        same = self._same(answer.expr, reference, spec, params)
        canonical = answer.canonical
        if same:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
        for item in misconception_list(spec):
            try:
                target = self.reference(item.get("answer"), spec, params)
            except ValueError:
                continue
            if self._same(answer.expr, target, spec, params, item):
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], canonical)
        if same is None:
            return Verdict(None, "review", REVIEW_FEEDBACK, None, [], canonical)
        return Verdict(0.0, "incorrect", self._hint(answer, reference, spec, params), None, [],
                       canonical)

    def _hint(self, answer: ComplexAnswer, reference: Expr, spec: Mapping[str, Any],
              params: Mapping[str, Any]) -> str:
        base = feedback(spec, False)
        if "feedback_incorrect" in spec or answer.expr is None or answer.expr.free_variables:
            return base
        env = {k: v for k, v in fraction_params(params).items() if not isinstance(v, list)}
        a, r = answer.value, complex_evaluate(reference, env)
        if a is None or r is None:
            return base
        ctx = context(50)
        x, y = a.mpc(ctx), r.mpc(ctx)
        if y.imag != 0 and _close(ComplexValue(approx=ctx.conj(x)), r, spec):
            return f"{base} Check the sign of the imaginary part."
        if y != 0 and _close(ComplexValue(approx=-x), r, spec):
            return f"{base} Check the sign of your answer."
        if y.imag != 0 and x.imag == 0 and abs(x.real - y.real) <= 1e-9 * abs(y):
            return f"{base} The imaginary part is missing."
        return base

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        unit = _unit(spec)
        reference = self.reference(spec["reference"], spec, params)
        variables = names_of(spec, "variables")
        used = {k: v for k, v in params.items()
                if k in reference.free_variables and k not in variables}
        if variables and not used:
            return reference.to_text()
        if variables:
            assumptions = {"complex": True} if spec.get("domain") == "complex" else None
            expr = to_sympy(reference, substitutions=sympy_params(used), assumptions=assumptions)
            return re.sub(r"\bI\b", unit, sympy_text(expr))
        env = {k: v for k, v in fraction_params(params).items() if not isinstance(v, list)}
        value = complex_evaluate(reference, env)
        if value is None:
            raise ValueError(f"'{spec['reference']}' has no value")
        if value.exact:
            assert value.real is not None and value.imag is not None  # noqa: S101 - exact
            return f"({_fraction_text(value.real)}) + ({_fraction_text(value.imag)})*{unit}"
        ctx = context(50)
        z = value.mpc(ctx)
        return f"({ctx.nstr(z.real, 20)}) + ({ctx.nstr(z.imag, 20)})*{unit}"

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        base = {k: v for k, v in spec.items() if k != "imaginary_unit"}
        if spec.get("domain") == "complex":
            base.pop("domain")
        problems: list[str] = []
        if spec.get("type") == "symbolic":
            problems += SymbolicChecker().validate_spec(base)
        else:
            problems += NumericChecker().validate_spec(base)
            problems = [p for p in problems if "allow_infinity" not in p]
        if spec.get("imaginary_unit") not in IMAGINARY_UNITS:
            problems.append("'imaginary_unit' must be \"i\" or \"j\"")
        elif spec["imaginary_unit"] in names_of(spec, "variables"):
            problems.append(f"'{spec['imaginary_unit']}' is the imaginary unit and cannot be "
                            f"a variable")
        if spec.get("domain") == "complex" and spec.get("type") != "symbolic":
            problems.append("'domain' = \"complex\" is for symbolic parts")
        if not problems:
            try:
                declared_functions(spec.get("functions") or [])
            except ValueError as exc:
                problems.append(f"'functions': {exc}")
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        reference = self.reference(spec["reference"], spec, params)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = self.reference(item.get("answer"), spec, params)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if self._same(target, reference, spec, params):
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') would "
                                f"be graded correct: it equals the reference")
        return problems


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"


def _close(a: ComplexValue, r: ComplexValue, spec: Mapping[str, Any]) -> bool:
    if any(spec.get(k) is not None for k in ("sigfigs", "decimals", "decades")):
        tolerance = Tolerance.from_spec(spec)
        ctx = context(50)
        x, y = a.mpc(ctx), r.mpc(ctx)
        return all(tolerance.accepts(_number(ctx, p), _number(ctx, q))
                   for p, q in ((x.real, y.real), (x.imag, y.imag)))
    rtol, atol = spec.get("rtol"), spec.get("atol")
    if rtol is None and atol is None:
        rtol = 1e-9
    return complex_close(a, r, rtol=float(rtol) if rtol is not None else None,
                         atol=float(atol) if atol is not None else None)


def _number(ctx: Any, value: Any) -> Number:
    if value == 0:
        return Number.of_fraction(Fraction(0))
    return Number.of_approximation(to_fraction(ctx.mpf(value)))

