"""Reference values computed exactly from a variant's parameters (sympy, never from strings)."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import sympy

from grading.checkers.mathparse import Expr, evaluate, exact_value, parse, to_sympy

__all__ = [
    "Number",
    "exact_param",
    "float_params",
    "number_of",
    "parse_reference",
    "reference_number",
    "reference_numbers",
    "reference_sympy",
    "sympy_params",
]


def exact_param(value: Any) -> Any:
    """A parameter value as an exact sympy number (floats through their shortest decimal)."""
    if isinstance(value, bool):
        raise ValueError(f"a parameter cannot be a boolean ({value!r})")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"a parameter must be finite, not {value!r}")
        return sympy.Rational(repr(value))  # the literal's decimal, not its binary value
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, Decimal):
        return sympy.Rational(str(value))
    if isinstance(value, list | tuple):
        return [exact_param(v) for v in value]
    raise ValueError(f"a parameter must be a number or a list of numbers, not {value!r}")


def sympy_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """All parameters as exact sympy numbers (or lists of them)."""
    return {name: exact_param(value) for name, value in params.items()}


def float_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """All parameters as floats (or lists of floats), for fast evaluation."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, list | tuple):
            out[name] = [float(v) for v in value]
        elif isinstance(value, int | float | Fraction | Decimal) and not isinstance(value, bool):
            out[name] = float(value)
    return out


def parse_reference(text: object, params: Mapping[str, Any], *, variables: Sequence[str] = (),
                    functions: Sequence[str] = ()) -> Expr:
    """Read an author's expression over ``variables`` and the parameters' names."""
    if isinstance(text, bool) or not isinstance(text, str | int | float):
        raise ValueError(f"an expression must be a string or a number, not {text!r}")
    source = repr(text) if isinstance(text, float) else str(text)
    names = list(dict.fromkeys([*variables, *(p for p in params if p not in variables)]))
    try:
        return parse(source, variables=names, functions=functions, list_functions=True,
                     max_length=2000)
    except ValueError as exc:  # FormatError is a ValueError too
        message = getattr(exc, "message", str(exc))
        raise ValueError(f"'{source}': {message}") from None


def reference_sympy(text: object, params: Mapping[str, Any], *, variables: Sequence[str] = (),
                    functions: Sequence[str] = ()) -> Any:
    """The exact sympy value (or list) of an author's expression in one variant."""
    expr = parse_reference(text, params, variables=variables, functions=functions)
    substitutions = {k: v for k, v in sympy_params(params).items() if k not in variables}
    try:
        return to_sympy(expr, substitutions=substitutions, assumptions={"positive": True})
    except (TypeError, ArithmeticError) as exc:  # sympy refusing e.g. a comparison with nan
        raise ValueError(f"'{text}' cannot be computed: {exc}") from None


@dataclass(frozen=True)
class Number:
    """A value to compare: float, plus the exact rational when there is one."""

    value: float
    exact: Fraction | None = None


def number_of(value: Any) -> Number:
    """A sympy number as a Number (exact when rational); ValueError if not a real number."""
    if isinstance(value, list):
        raise ValueError("the expression gives a list where one number is expected")
    value = sympy.sympify(value) if isinstance(value, int | float) else value
    if getattr(value, "free_symbols", None):
        names = ", ".join(sorted(str(s) for s in value.free_symbols))
        raise ValueError(f"the expression still contains unknown names: {names}")
    if isinstance(value, sympy.Rational):
        exact = Fraction(int(value.p), int(value.q))
        return Number(float(exact), exact)
    try:
        approx = complex(sympy.N(value, 30))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the expression has no numerical value ({exc})") from None
    if abs(approx.imag) > 1e-12 * max(1.0, abs(approx.real)):
        raise ValueError("the expression is not a real number")
    if not math.isfinite(approx.real):
        raise ValueError("the expression is not finite")
    return Number(approx.real)


def reference_number(text: object, params: Mapping[str, Any]) -> Number:
    """The value of an author's expression in one variant, exact when it is rational.

    Cached per (expression, parameters): a class shares a few variants, and computing a
    reference with sympy costs more than reading and checking the student's answer.
    """
    key = _cache_key(text, params)
    if key is None:
        return number_of(reference_sympy(text, params))
    return _reference_number_cached(key)


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    hash(value)
    return value


def _cache_key(text: object, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
    if not isinstance(text, str):
        return None
    try:
        return (text, tuple(sorted((name, _freeze(v)) for name, v in params.items())))
    except TypeError:  # an unhashable parameter value: compute without the cache
        return None


@functools.lru_cache(maxsize=4096)
def _reference_number_cached(key: tuple[Any, ...]) -> Number:
    text, frozen = key
    params = {name: list(v) if isinstance(v, tuple) else v for name, v in frozen}
    return number_of(reference_sympy(text, params))


def reference_numbers(text: object, params: Mapping[str, Any]) -> list[Number]:
    """A vector reference: a list of expressions, or one expression giving a list."""
    if isinstance(text, list):
        return [reference_number(item, params) for item in text]
    value = reference_sympy(text, params)
    if not isinstance(value, list):
        raise ValueError("a vector reference must be a list of expressions or give a list")
    return [number_of(v) for v in value]


def answer_number(expr: Expr, params: Mapping[str, Any]) -> Number:
    """The value of a student's expression (variables, if any, take the parameters' values)."""
    exact = exact_value(expr) if not expr.free_variables else None
    if exact is not None:
        return Number(float(exact) if abs(exact) < 10**308 else math.inf, exact)
    return Number(evaluate(expr, float_params(params)))
