"""Size checks on a parsed tree: refuse constants too large to compute with, quickly.

``check_sizes(node)`` walks the tree bottom-up, computing each constant part exactly when it
is rational (within ``MAX_EXACT_BITS``) and otherwise as a float. It raises FormatError for a
power of a constant with an exponent above ``MAX_EXPONENT`` (``MAX_SYMBOLIC_EXPONENT`` when the
base has variables), for a constant whose exact value would exceed ``MAX_EXACT_BITS``, and for
a constant with no exact value beyond the float range (``exp(exp(exp(1000)))``). Every size is
estimated before the work is done, so ``9^9^9^9`` is refused in microseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from grading.checkers.mathparse import functions
from grading.checkers.mathparse.errors import FormatError
from grading.checkers.mathparse.exact import bits, exact_binop, exact_call, exact_pow
from grading.checkers.mathparse.floats import binop, float_of, power
from grading.checkers.mathparse.limits import (
    MAX_EXACT_BITS,
    MAX_EXPONENT,
    MAX_SYMBOLIC_EXPONENT,
)
from grading.checkers.mathparse.nodes import Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var

__all__ = ["check_sizes"]


@dataclass(frozen=True, slots=True)
class _Size:
    constant: bool
    value: float = math.nan  # float value of a constant part
    exact: Fraction | None = None  # its exact value, when rational and small enough


_VARIABLE = _Size(False)


def check_sizes(node: Node) -> None:
    """Raise FormatError if a constant part of ``node`` is too large to work with."""
    _size(node)


def _constant(value: float, exact: Fraction | None) -> _Size:
    return _Size(True, float_of(exact) if exact is not None else value, exact)


def _size(node: Node) -> _Size:
    size = _measure(node)
    if size.constant and size.exact is None and math.isinf(size.value):
        raise FormatError(
            f"the value at character {node.pos} is too large to work with "
            f"(more than about 1e308)",
            node.pos,
        )
    return size


def _measure(node: Node) -> _Size:
    if isinstance(node, Num):
        if bits(node.value) > MAX_EXACT_BITS:
            raise _too_many_digits(node)
        return _constant(0.0, node.value)
    if isinstance(node, Var):
        return _VARIABLE
    if isinstance(node, Const):
        if node.name in ("oo", "i", "j"):
            return _VARIABLE  # infinity and the imaginary unit: the evaluators, not sized
        return _constant(math.pi if node.name == "pi" else math.e, None)
    if isinstance(node, Neg | Abs):
        inner = _size(node.operand)
        if not inner.constant:
            return _VARIABLE
        if isinstance(node, Neg):
            return _constant(-inner.value, -inner.exact if inner.exact is not None else None)
        return _constant(abs(inner.value), abs(inner.exact) if inner.exact is not None else None)
    if isinstance(node, BinOp):
        left, right = _size(node.left), _size(node.right)
        if not (left.constant and right.constant):
            return _VARIABLE
        exact = None
        if left.exact is not None and right.exact is not None:
            if bits(left.exact) + bits(right.exact) > 2 * MAX_EXACT_BITS:
                raise _too_many_digits(node)
            exact = exact_binop(node.op, left.exact, right.exact)
            if exact is None and not (node.op == "/" and right.exact == 0):
                raise _too_many_digits(node)
        return _constant(binop(node.op, left.value, right.value), exact)
    if isinstance(node, Pow):
        return _measure_power(node)
    return _measure_call(node)


def _measure_power(node: Pow) -> _Size:
    base, exponent = _size(node.base), _size(node.exponent)
    if exponent.constant and not math.isnan(exponent.value):
        limit = MAX_EXPONENT if base.constant else MAX_SYMBOLIC_EXPONENT
        if math.isinf(exponent.value) or abs(exponent.value) > limit:
            raise FormatError(
                f"the exponent of the power at character {node.pos} is too large "
                f"(at most {limit} in size)",
                node.pos,
            )
    if not (base.constant and exponent.constant):
        return _VARIABLE
    exact = None
    if base.exact is not None and exponent.exact is not None:
        whole = abs(exponent.exact.numerator)
        if bits(base.exact) * whole > MAX_EXACT_BITS and exponent.exact.denominator == 1:
            raise FormatError(
                f"the power at character {node.pos} has too many digits to work with exactly",
                node.pos,
            )
        exact = exact_pow(base.exact, exponent.exact)
    return _constant(power(base.value, exponent.value), exact)


def _measure_call(node: Call) -> _Size:
    sizes = [_size(arg) for arg in node.args]
    fn = functions.find(node.func)
    if fn is None or fn.lists or not all(s.constant for s in sizes):
        return _VARIABLE
    exact = None
    if all(s.exact is not None for s in sizes):
        exact = exact_call(node.func, [s.exact for s in sizes if s.exact is not None])
    value = fn.real(*(s.value for s in sizes)) if exact is None else 0.0
    return _constant(value, exact)


def _too_many_digits(node: Node) -> FormatError:
    return FormatError(
        f"the expression at character {node.pos} has too many digits to work with exactly",
        node.pos,
    )
