"""Reference values computed exactly from a variant's parameters (sympy, never from strings).

An author's expression is read by the safe reader (with the parameters' names as variables)
and built into sympy node by node, with each parameter as an exact number: a float parameter
is taken as its shortest decimal, so 0.85 is exactly 17/20. Results are cached per
(expression, parameters): a class shares a few variants.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import sympy

from grading.checkers.mathparse import Expr, exact_value, parse, precise_evaluate, to_sympy
from grading.checkers.mathparse.names import Functions, declared_functions
from grading.checkers.quantities import Number

__all__ = [
    "Number",
    "answer_number",
    "exact_param",
    "float_params",
    "fraction_params",
    "number_of",
    "parse_reference",
    "reference_number",
    "reference_numbers",
    "reference_sympy",
    "sympy_params",
]


def fraction_param(value: Any) -> Any:
    """A parameter value as an exact Fraction (floats through their shortest decimal), or a
    list of them; ValueError for anything else."""
    if isinstance(value, bool):
        raise ValueError(f"a parameter cannot be a boolean ({value!r})")
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"a parameter must be finite, not {value!r}")
        return Fraction(repr(value))  # the literal's decimal, not its binary value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"a parameter must be finite, not {value!r}")
        return Fraction(value)
    if isinstance(value, list | tuple):
        return [fraction_param(v) for v in value]
    raise ValueError(f"a parameter must be a number or a list of numbers, not {value!r}")


def exact_param(value: Any) -> Any:
    """A parameter value as an exact sympy number (floats through their shortest decimal)."""
    exact = fraction_param(value)
    if isinstance(exact, list) and exact and all(isinstance(row, list) for row in exact):
        return _matrix_param(exact)
    if isinstance(exact, list):
        return [sympy.Rational(v.numerator, v.denominator) for v in exact]
    return sympy.Rational(exact.numerator, exact.denominator)


def _matrix_param(rows: list[Any]) -> Any:
    """A list of rows as an exact sympy matrix; ValueError unless every row is a list of
    numbers of one length."""
    if any(not row or any(isinstance(v, list) for v in row) for row in rows) \
            or len({len(row) for row in rows}) != 1:
        raise ValueError("a matrix parameter must be a list of rows of numbers of one length")
    return sympy.ImmutableMatrix([[sympy.Rational(v.numerator, v.denominator) for v in row]
                                  for row in rows])


def sympy_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """All parameters as exact sympy numbers (or lists of them)."""
    return {name: exact_param(value) for name, value in params.items()}


def fraction_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """All parameters as exact Fractions (or lists of them)."""
    return {name: fraction_param(value) for name, value in params.items()}


def float_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """All parameters as floats (or lists of floats), for fast evaluation."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, list | tuple):
            if any(isinstance(v, list | tuple) for v in value):
                continue  # a matrix parameter: only references over matrices use it
            out[name] = [float(v) for v in value]
        elif isinstance(value, int | float | Fraction | Decimal) and not isinstance(value, bool):
            out[name] = float(value)
    return out


def _functions_key(functions: Functions) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(declared_functions(functions).items()))


def parse_reference(text: object, params: Mapping[str, Any], *, variables: Sequence[str] = (),
                    functions: Functions = (), infinity: bool = True) -> Expr:
    """Read an author's expression over ``variables`` and the parameters' names.

    Raises ValueError (with the expression and the reason) if it cannot be read. Cached: the
    same reference is read once per process, not once per answer.
    """
    if isinstance(text, bool) or not isinstance(text, str | int | float):
        raise ValueError(f"an expression must be a string or a number, not {text!r}")
    source = repr(text) if isinstance(text, float) else str(text)
    declared = _functions_key(functions)
    hidden = {name for name, _ in declared}  # a declared function hides a parameter's name
    names = tuple(dict.fromkeys([*variables, *(p for p in params
                                               if p not in variables and p not in hidden)]))
    return _parse_reference_cached(source, names, declared, infinity)


@functools.lru_cache(maxsize=4096)
def _parse_reference_cached(source: str, names: tuple[str, ...],
                            functions: tuple[tuple[str, int], ...], infinity: bool) -> Expr:
    try:
        return parse(source, variables=names, functions=dict(functions), list_functions=True,
                     max_length=2000, infinity=infinity)
    except ValueError as exc:  # FormatError is a ValueError too
        message = getattr(exc, "message", str(exc))
        raise ValueError(f"'{source}': {message}") from None


def reference_sympy(text: object, params: Mapping[str, Any], *, variables: Sequence[str] = (),
                    functions: Functions = (), infinity: bool = True) -> Any:
    """The exact sympy value (or list) of an author's expression in one variant."""
    expr = parse_reference(text, params, variables=variables, functions=functions,
                           infinity=infinity)
    substitutions = {k: v for k, v in sympy_params(params).items() if k not in variables}
    try:
        return to_sympy(expr, substitutions=substitutions, assumptions={"positive": True})
    except (TypeError, ArithmeticError) as exc:  # sympy refusing e.g. a comparison with nan
        raise ValueError(f"'{text}' cannot be computed: {exc}") from None


def number_of(value: Any) -> Number:
    """A sympy number as a Number (exact when rational, else 50 digits; ±infinity kept);
    ValueError if it is not a real number."""
    if isinstance(value, list):
        raise ValueError("the expression gives a list where one number is expected")
    if isinstance(value, bool) or not isinstance(value, int | float | sympy.Basic):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, int):
        return Number.of_fraction(Fraction(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            return Number(value)
        return Number.of_fraction(Fraction(repr(value)))
    if value.free_symbols:
        names = ", ".join(sorted(str(s) for s in value.free_symbols))
        raise ValueError(f"the expression still contains unknown names: {names}")
    if isinstance(value, sympy.Rational):
        return Number.of_fraction(Fraction(int(value.p), int(value.q)))
    if value in (sympy.oo, -sympy.oo):
        return Number(math.inf if value == sympy.oo else -math.inf)
    try:
        approx = value.evalf(50)
        real, imag = approx.as_real_imag()
        real = real.evalf(50)
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise ValueError(f"the expression has no numerical value ({exc})") from None
    if not isinstance(real, sympy.Float) or (imag != 0 and abs(imag) > 1e-30 * max(1, abs(real))):
        raise ValueError("the expression is not a real number")
    if not real.is_finite:
        raise ValueError("the expression is not finite")
    sign, mantissa, exponent, _ = real._mpf_
    return Number.of_approximation((-1) ** sign * Fraction(mantissa) * Fraction(2) ** exponent)


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
    """The value of a student's expression (variables, if any, take the parameters' values):
    exact when rational, else to 50 significant digits; NaN when undefined."""
    if not expr.free_variables:
        exact = exact_value(expr)
        if exact is not None:
            return Number.of_fraction(exact)
    env = {k: v for k, v in fraction_params(params).items() if not isinstance(v, list)}
    return Number.of_precise(precise_evaluate(expr, env))
