"""Exact algebra on our own trees, for relations: polynomial degree and coefficients, the real
solution set of a one-variable polynomial relation of degree at most 2, a fraction's
numerator, and the reduced row form of a linear system.

Nothing here calls sympy or reads text: trees come from the safe reader, values from the
exact/high-precision evaluators. A relation this module cannot solve (a degree above 2, a
function of the variable) returns None and the caller decides by other means.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from grading.checkers.mathparse import (
    Abs,
    BinOp,
    Call,
    Const,
    Expr,
    Neg,
    Node,
    Num,
    Pow,
    Var,
    precise_evaluate,
)
from grading.checkers.mathparse.nodes import walk
from grading.checkers.mathparse.precise import to_fraction
from grading.checkers.realsets import Component, RealSet, reduce_components
from grading.checkers.refs import Number, fraction_params

__all__ = ["degree", "linear_rows", "numerator", "over_one_denominator", "rref",
           "solve_relation"]

_MAX_NUMERATOR_NODES = 3000


def degree(node: Node, variables: frozenset[str]) -> int | None:
    """Total polynomial degree of ``node`` in ``variables`` (None if not a polynomial in them:
    a variable under a function, in a denominator or under a non-integer power)."""
    if isinstance(node, Num | Const):
        return 0
    if isinstance(node, Var):
        return 1 if node.name in variables else 0
    if isinstance(node, Neg):
        return degree(node.operand, variables)
    if isinstance(node, BinOp):
        left, right = degree(node.left, variables), degree(node.right, variables)
        if left is None or right is None:
            return None
        if node.op in "+-":
            return max(left, right)
        if node.op == "*":
            return left + right
        return left if right == 0 else None
    if isinstance(node, Pow):
        base = degree(node.base, variables)
        if base is None:
            return None
        if base == 0:
            return 0 if degree(node.exponent, variables) == 0 else None
        exponent = node.exponent
        if isinstance(exponent, Num) and exponent.value.denominator == 1 \
                and 0 <= exponent.value <= 64:
            return base * int(exponent.value)
        return None
    if isinstance(node, Call | Abs):
        args = node.args if isinstance(node, Call) else (node.operand,)
        return 0 if all(degree(a, variables) == 0 for a in args) else None
    return None


def _value(node: Node, env: Mapping[str, Any]) -> Number:
    return Number.of_precise(precise_evaluate(node, env))


def _coefficients(node: Node, variable: str, params: Mapping[str, Any],
                  deg: int) -> list[Fraction] | None:
    """[c0, c1, c2] of a polynomial of degree ``deg`` <= 2 by exact interpolation at 0, 1, -1
    (values approximate to 40 digits when a coefficient is irrational)."""
    env = {k: v for k, v in fraction_params(params).items() if not isinstance(v, list)}
    values = []
    for x in (0, 1, -1):
        number = _value(node, {**env, variable: Fraction(x)})
        if not number.is_finite:
            return None
        values.append(number.best())
    f0, f1, fm = values
    c2 = (f1 + fm) / 2 - f0 if deg >= 2 else Fraction(0)
    c1 = (f1 - fm) / 2
    return [f0, c1, c2]


def _sqrt(value: Fraction) -> Number:
    num, den = value.numerator, value.denominator
    rn, rd = math.isqrt(num), math.isqrt(den)
    if rn * rn == num and rd * rd == den:
        return Number.of_fraction(Fraction(rn, rd))
    with mpmath.workdps(60):
        root = mpmath.sqrt(mpmath.mpf(num) / den)
        return Number.of_approximation(to_fraction(root))


def _sign(coefficients: Sequence[Fraction], x: Fraction) -> int:
    value = sum(c * x**i for i, c in enumerate(coefficients))
    return (value > 0) - (value < 0)


def _holds(sign: int, op: str) -> bool:
    return {"<": sign < 0, "<=": sign <= 0, ">": sign > 0, ">=": sign >= 0, "=": sign == 0,
            "!=": sign != 0}[op]


_INF = Number(math.inf)
_NINF = Number(-math.inf)


def solve_relation(lhs: Expr, op: str, rhs: Expr, variable: str,
                   params: Mapping[str, Any]) -> RealSet | None:
    """The reals ``variable`` may take so that ``lhs op rhs``, when ``lhs - rhs`` is a
    polynomial of degree <= 2 in it (other names are parameters); None otherwise."""
    node: Node = BinOp("-", lhs.node, rhs.node)
    deg = degree(node, frozenset({variable}))
    if deg is None or deg > 2:
        return None
    coefficients = _coefficients(node, variable, params, deg)
    if coefficients is None:
        return None
    c0, c1, c2 = coefficients
    roots: list[Number] = []
    if c2 != 0:
        disc = c1 * c1 - 4 * c2 * c0
        if disc == 0:
            roots = [Number.of_fraction(-c1 / (2 * c2))]
        elif disc > 0:
            root = _sqrt(disc)
            pair = [(-c1 - root.best()) / (2 * c2), (-c1 + root.best()) / (2 * c2)]
            exact = root.exact is not None
            roots = sorted((Number.of_fraction(r) if exact else Number.of_approximation(r)
                            for r in pair), key=lambda n: n.best())
    elif c1 != 0:
        roots = [Number.of_fraction(-c0 / c1)]
    # Regions: below the first root, each root, between roots, above the last.
    parts: list[Component] = []
    edges = [_NINF, *roots, _INF]
    for i in range(len(edges) - 1):
        lo, hi = edges[i], edges[i + 1]
        if lo.is_infinite and hi.is_infinite:
            probe = Fraction(0)
        elif lo.is_infinite:
            probe = hi.best() - 1
        elif hi.is_infinite:
            probe = lo.best() + 1
        else:
            probe = (lo.best() + hi.best()) / 2
        if _holds(_sign(coefficients, probe), op):
            parts.append(Component(lo, hi, False, False))
    for root in roots:
        if _holds(0, op):
            parts.append(Component(root, root, True, True))
    return reduce_components(parts)


def numerator(node: Node) -> Node:
    """The numerator of ``node`` written over one denominator (a/b + c/d -> ad + cb), with
    whole powers of fractions split; anything else is kept whole. Used so that
    1/x + 1/y = 2 compares with y = x/(2x - 1)."""
    result = _together(node)[0]
    return result if sum(1 for _ in _walk(result)) <= _MAX_NUMERATOR_NODES else node


def over_one_denominator(node: Node) -> tuple[Node, Node]:
    """(numerator, denominator) of ``node`` written as one fraction: sums brought over a
    common denominator, quotients and whole powers of fractions split; other nodes (a
    function call, a power with another exponent) are kept whole in the numerator. Nothing
    is cancelled, so the denominator's zeros are exactly where ``node`` is undefined."""
    return _together(node)


def _walk(node: Node) -> Any:
    return walk(node)


_ONE = Num(Fraction(1), "1")


def _is_one(node: Node) -> bool:
    return isinstance(node, Num) and node.value == 1


def _mul(a: Node, b: Node) -> Node:
    if _is_one(a):
        return b
    if _is_one(b):
        return a
    return BinOp("*", a, b)


def _together(node: Node) -> tuple[Node, Node]:
    if isinstance(node, Neg):
        n, d = _together(node.operand)
        return Neg(n), d
    if isinstance(node, BinOp):
        ln, ld = _together(node.left)
        rn, rd = _together(node.right)
        if node.op in "+-":
            if _is_one(ld) and _is_one(rd):
                return BinOp(node.op, ln, rn), _ONE
            return BinOp(node.op, _mul(ln, rd), _mul(rn, ld)), _mul(ld, rd)
        if node.op == "*":
            return _mul(ln, rn), _mul(ld, rd)
        return _mul(ln, rd), _mul(ld, rn)
    if isinstance(node, Pow) and isinstance(node.exponent, Num) \
            and node.exponent.value.denominator == 1 and abs(node.exponent.value) <= 64:
        n, d = _together(node.base)
        k = int(node.exponent.value)
        if k == 0:
            return _ONE, _ONE
        power = Num(Fraction(abs(k)), str(abs(k)))
        n_pow = n if abs(k) == 1 else Pow(n, power)
        d_pow = d if abs(k) == 1 or _is_one(d) else Pow(d, power)
        return (n_pow, d_pow) if k > 0 else (d_pow, n_pow)
    return node, _ONE


def linear_rows(sides: Sequence[Node], variables: Sequence[str],
                params: Mapping[str, Any]) -> list[list[Fraction]] | None:
    """Each ``f = 0`` (f linear in ``variables``) as the row [a1, ..., an, -b] of
    a·x = -b, exactly; None if an f is not linear or a coefficient is not rational."""
    names = frozenset(variables)
    env = {k: v for k, v in fraction_params(params).items() if not isinstance(v, list)}
    rows = []
    for node in sides:
        deg = degree(node, names)
        if deg is None or deg > 1:
            return None
        zero = {**env, **{v: Fraction(0) for v in variables}}
        base = precise_evaluate(node, zero)
        if not hasattr(base, "value") or not isinstance(base.value, Fraction):
            return None
        row = []
        for v in variables:
            at = precise_evaluate(node, {**zero, v: Fraction(1)})
            if not hasattr(at, "value") or not isinstance(at.value, Fraction):
                return None
            row.append(at.value - base.value)
        rows.append([*row, -base.value])
    return rows


def rref(rows: Sequence[Sequence[Fraction]]) -> tuple[tuple[Fraction, ...], ...]:
    """The reduced row echelon form without zero rows: equal for two systems exactly when
    their rows span the same space (same solutions, or both inconsistent)."""
    matrix = [list(r) for r in rows]
    if not matrix:
        return ()
    width = len(matrix[0])
    pivot_row = 0
    for column in range(width):
        pivot = next((r for r in range(pivot_row, len(matrix)) if matrix[r][column] != 0), None)
        if pivot is None:
            continue
        matrix[pivot_row], matrix[pivot] = matrix[pivot], matrix[pivot_row]
        lead = matrix[pivot_row][column]
        matrix[pivot_row] = [x / lead for x in matrix[pivot_row]]
        for r in range(len(matrix)):
            if r != pivot_row and matrix[r][column] != 0:
                factor = matrix[r][column]
                matrix[r] = [x - factor * y for x, y in zip(matrix[r], matrix[pivot_row],
                                                            strict=True)]
        pivot_row += 1
        if pivot_row == len(matrix):
            break
    return tuple(tuple(r) for r in matrix if any(x != 0 for x in r))
