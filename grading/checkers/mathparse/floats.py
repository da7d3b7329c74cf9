"""Float evaluation of a tree: fast, total (never raises), used for sampling and previews.

``evaluate(expr, env, functions)`` gives a float: overflow gives ``±inf``, anything undefined
(division by zero, the log of a negative, an unknown name, a list where a number is needed)
gives ``nan``. Values of ``env`` may be lists (list parameters of references): arithmetic and
functions then apply elementwise, and the list functions (dot, sum, mean, len) reduce them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Union

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.expr import Expr
from grading.checkers.mathparse.function_values import guarded
from grading.checkers.mathparse.nodes import Abs, BinOp, Const, Neg, Node, Num, Pow, Var

__all__ = ["binop", "compile_float", "evaluate", "float_of", "power"]

_Value = Union[float, list[float]]  # noqa: UP007


def float_of(value: Fraction) -> float:
    """The nearest float to a rational; ``±inf`` beyond the float range (never raises)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def binop(op: str, a: float, b: float) -> float:
    """``a op b`` for op in ``+ - * /``; a division by zero is undefined (nan). A zero result
    is +0.0 (there is no signed zero in school maths: atan2(-1*0, -1) is pi)."""
    if op == "+":
        return a + b + 0.0
    if op == "-":
        return a - b + 0.0
    if op == "*":
        return a * b + 0.0
    if b == 0 or math.isnan(b):
        return math.nan
    try:
        return a / b + 0.0
    except OverflowError:  # pragma: no cover - float division overflows to inf silently
        return math.inf


def power(base: float, exponent: float) -> float:
    """``base ^ exponent`` over the reals: a negative base needs a whole exponent, ``0^-1``
    is undefined; overflow gives ``±inf`` (the sign of an odd power of a negative base)."""
    if math.isnan(base) or math.isnan(exponent):
        return math.nan
    if base == 0 and exponent < 0:
        return math.nan
    if base < 0 and not float(exponent).is_integer():
        return math.nan
    if math.isinf(base) or math.isinf(exponent):
        try:
            return math.pow(base, exponent)
        except (OverflowError, ValueError, ZeroDivisionError):
            return math.nan
    if base != 0 and exponent * math.log(abs(base)) > 710:
        odd = float(exponent).is_integer() and int(exponent) % 2 == 1
        return -math.inf if base < 0 and odd else math.inf
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf
    except (ValueError, ZeroDivisionError):
        return math.nan


def evaluate(
    expr: Expr | Node,
    env: Mapping[str, Any],
    functions: Mapping[str, Callable[..., float]] | None = None,
) -> float:
    """The float value of ``expr`` with variables from ``env``; never raises for arithmetic.

    Overflow gives ``inf``, undefined operations (division by zero, log of a negative,
    unknown names) give ``nan``. ``env`` values may be lists for the list functions of
    references; ``functions`` supplies Python callables for declared function names (called
    with as many floats as the function takes).
    """
    node = expr.node if isinstance(expr, Expr) else expr
    try:
        result = _eval(node, env, functions or {})
    except (OverflowError, ValueError, ZeroDivisionError, TypeError, KeyError, RecursionError):
        return math.nan
    if isinstance(result, list):
        return math.nan
    return float(result)


def _lift(fn: Callable[..., float], *values: _Value) -> _Value:
    lists = [v for v in values if isinstance(v, list)]
    if not lists:
        return fn(*values)
    length = len(lists[0])
    if any(len(v) != length for v in lists):
        return math.nan
    return [fn(*(v[k] if isinstance(v, list) else v for v in values)) for k in range(length)]


def _negate(x: float) -> float:
    return -x + 0.0


def _eval(node: Node, env: Mapping[str, Any],
          functions: Mapping[str, Callable[..., float]]) -> _Value:
    if isinstance(node, Num):
        return float_of(node.value)
    if isinstance(node, Var):
        value = env.get(node.name)
        if value is None:
            return math.nan
        if isinstance(value, list | tuple):
            return [float(v) for v in value]
        return float(value)
    if isinstance(node, Const):
        if node.name == "oo":
            return math.inf
        return math.pi if node.name == "pi" else math.e
    if isinstance(node, Neg):
        return _lift(_negate, _eval(node.operand, env, functions))
    if isinstance(node, Abs):
        return _lift(abs, _eval(node.operand, env, functions))
    if isinstance(node, BinOp):
        op = node.op
        return _lift(lambda a, b: binop(op, a, b), _eval(node.left, env, functions),
                     _eval(node.right, env, functions))
    if isinstance(node, Pow):
        return _lift(power, _eval(node.base, env, functions),
                     _eval(node.exponent, env, functions))
    args = [_eval(arg, env, functions) for arg in node.args]
    fn = registry.find(node.func)
    if fn is not None:
        if fn.lists:
            return fn.real(*args)
        return _lift(fn.real, *args)
    impl = functions.get(node.func)
    if impl is None:
        return math.nan
    return _lift(guarded(impl), *args)


ScalarFunction = Callable[[Mapping[str, float], Mapping[str, Callable[..., float]]], float]


def compile_float(expr: Expr | Node) -> ScalarFunction:
    """``expr`` compiled once into nested closures, for evaluating it at many points.

    ``compiled(env, functions)`` gives the same value as ``evaluate(expr, env, functions)``
    for scalar environments (no list values), with the same rules (never raises; overflow
    gives ``±inf``, undefined gives ``nan``), several times faster.
    """
    body = _compile(expr.node if isinstance(expr, Expr) else expr)

    def run(env: Mapping[str, float], functions: Mapping[str, Callable[..., float]]) -> float:
        try:
            return float(body(env, functions))
        except (OverflowError, ValueError, ZeroDivisionError, TypeError, KeyError,
                RecursionError):
            return math.nan

    return run


def _compile(node: Node) -> ScalarFunction:
    if isinstance(node, Num):
        number = float_of(node.value)
        return lambda env, fns: number
    if isinstance(node, Var):
        name = node.name
        return lambda env, fns: env.get(name, math.nan)
    if isinstance(node, Const):
        constant = math.inf if node.name == "oo" else (math.pi if node.name == "pi" else math.e)
        return lambda env, fns: constant
    if isinstance(node, Neg):
        inner = _compile(node.operand)
        return lambda env, fns: -inner(env, fns) + 0.0
    if isinstance(node, Abs):
        inner = _compile(node.operand)
        return lambda env, fns: abs(inner(env, fns))
    if isinstance(node, BinOp):
        left, right = _compile(node.left), _compile(node.right)
        if node.op == "+":
            return lambda env, fns: left(env, fns) + right(env, fns) + 0.0
        if node.op == "-":
            return lambda env, fns: left(env, fns) - right(env, fns) + 0.0
        if node.op == "*":
            return lambda env, fns: left(env, fns) * right(env, fns) + 0.0
        return lambda env, fns: binop("/", left(env, fns), right(env, fns))
    if isinstance(node, Pow):
        base, exponent = _compile(node.base), _compile(node.exponent)
        return lambda env, fns: power(base(env, fns), exponent(env, fns))
    args = [_compile(arg) for arg in node.args]
    fn = registry.find(node.func)
    if fn is not None:
        real = fn.real
        if len(args) == 1:
            (only,) = args
            return lambda env, fns: real(only(env, fns))
        return lambda env, fns: real(*(a(env, fns) for a in args))
    name = node.func

    def declared(env: Mapping[str, float], fns: Mapping[str, Callable[..., float]]) -> float:
        impl = fns.get(name)
        if impl is None:
            return math.nan
        return guarded(impl)(*(a(env, fns) for a in args))

    return declared
