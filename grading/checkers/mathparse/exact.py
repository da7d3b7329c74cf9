"""Exact rational values of constant expressions, within size bounds.

``exact_value(expr)`` is the value of an expression as a ``Fraction`` when it is rational and
computable within the bounds of limits.py (numbers, ``+ - * /``, whole powers, exact roots
such as ``sqrt(16)`` or ``8^(2/3)``, factorials, binomials, abs/sign/floor/ceil/min/max and
the other registry functions that have an exact form), else None. Nothing here can take long:
every power and factorial is size-checked before it is computed.
"""

from __future__ import annotations

from fractions import Fraction

from grading.checkers.mathparse import functions
from grading.checkers.mathparse.expr import Expr
from grading.checkers.mathparse.function_values import exact_root
from grading.checkers.mathparse.limits import MAX_EXACT_BITS, MAX_EXPONENT
from grading.checkers.mathparse.nodes import Abs, BinOp, Call, Neg, Node, Num, Pow

__all__ = ["bits", "exact_binop", "exact_call", "exact_pow", "exact_value"]


def bits(value: Fraction) -> int:
    """The size of a rational: bits of its larger part (numerator or denominator)."""
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def exact_binop(op: str, left: Fraction, right: Fraction) -> Fraction | None:
    """``left op right`` exactly; None for a division by zero or a result too large."""
    if op == "+":
        result = left + right
    elif op == "-":
        result = left - right
    elif op == "*":
        result = left * right
    elif right == 0:
        return None
    else:
        result = left / right
    return result if bits(result) <= MAX_EXACT_BITS else None


def exact_pow(base: Fraction, exponent: Fraction, *,
              max_exponent: int = MAX_EXPONENT) -> Fraction | None:
    """``base ^ exponent`` exactly when the result is rational and small enough, else None.

    A fractional exponent p/q is exact when ``base`` is a perfect q-th power (8^(2/3) = 4);
    a negative base with a fractional exponent is undefined (None), as in the evaluators.
    The size is checked before anything is computed.
    """
    p, q = exponent.numerator, exponent.denominator
    if abs(p) > max_exponent or q > 64:
        return None
    if base == 0:
        return None if p < 0 else (Fraction(1) if p == 0 else Fraction(0))
    if q != 1:
        if base < 0:
            return None  # real powers: a negative base needs a whole exponent
        root = exact_root(base, Fraction(q))
        if root is None:
            return None
        base = root
    if bits(base) * abs(p) > MAX_EXACT_BITS:
        return None
    return base**p


def exact_call(name: str, args: list[Fraction]) -> Fraction | None:
    """A registry function applied exactly, or None (no exact form, or undefined there)."""
    fn = functions.find(name)
    if fn is None or fn.exact is None or fn.lists:
        return None
    try:
        result = fn.exact(*args)
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        return None
    if result is None or bits(result) > MAX_EXACT_BITS:
        return None
    return result


def exact_value(expr: Expr | Node) -> Fraction | None:
    """The exact rational value of a constant expression, or None if it is not rational
    (or not computable within the size bounds, or undefined, or not constant)."""
    node = expr.node if isinstance(expr, Expr) else expr
    return _exact(node)


def _exact(node: Node) -> Fraction | None:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Neg | Abs):
        inner = _exact(node.operand)
        if inner is None:
            return None
        return -inner if isinstance(node, Neg) else abs(inner)
    if isinstance(node, BinOp):
        left = _exact(node.left)
        right = _exact(node.right) if left is not None else None
        if left is None or right is None:
            return None
        return exact_binop(node.op, left, right)
    if isinstance(node, Pow):
        base = _exact(node.base)
        exponent = _exact(node.exponent) if base is not None else None
        if base is None or exponent is None:
            return None
        return exact_pow(base, exponent)
    if isinstance(node, Call):
        args = []
        for arg in node.args:
            value = _exact(arg)
            if value is None:
                return None
            args.append(value)
        return exact_call(node.func, args)
    return None
