"""The exact real solution set of a one-variable relation by a sign chart: ``x^3 < 8``,
``|x - 1| <= 2``, ``(x - 1)/(x + 2) >= 0``, ``|x| > x^2 - 2``.

`solving.solve_relation` solves polynomials up to degree 2 by formula; this module covers the
rest of what a course writes in one variable: polynomials up to `MAX_DEGREE`, quotients of
them, and absolute values (at most `MAX_ABS` distinct ones, nested or not). The rule is the
textbook sign chart. The relation ``f op 0`` (f = lhs - rhs) can change truth only where f
is zero or undefined or where an absolute value's argument changes sign. For each choice of
signs of the absolute values, f is a quotient of two polynomials; the real roots of those
polynomials (and of the arguments) are the critical points. Between two critical points the
truth of the relation is constant, so one probe decides each open interval and each critical
point is decided on its own.

Everything is exact rational arithmetic on our own trees. Roots are isolated with Sturm
sequences and refined by bisection to 2^-200 of the root bound. A rational root is found
exactly; an irrational one is kept as a close rational approximation, which compares equal
with the same root written another way (realsets.compare_numbers). Parameters with
irrational values give approximate coefficients and the same treatment. Nothing reads text
or calls sympy. A relation outside this class returns None and the caller decides by other
means.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import pairwise, product
from typing import Any

from grading.checkers.mathparse import Abs, BinOp, Expr, Neg, Node, precise_evaluate
from grading.checkers.mathparse.nodes import walk
from grading.checkers.realsets import Component, RealSet, compare_numbers, reduce_components
from grading.checkers.refs import Number, fraction_params
from grading.checkers.solving import degree, over_one_denominator
from grading.checkers.substitution import transform

__all__ = ["MAX_ABS", "MAX_DEGREE", "real_roots", "solve_by_sign_chart"]

MAX_DEGREE = 12
MAX_ABS = 3
_REFINE_BITS = 200

Poly = list[Fraction]  # coefficients, constant first, no trailing zeros (zero: [])


def _trim(p: Sequence[Fraction]) -> Poly:
    out = list(p)
    while out and out[-1] == 0:
        out.pop()
    return out


def _value(p: Poly, x: Fraction) -> Fraction:
    total = Fraction(0)
    for c in reversed(p):
        total = total * x + c
    return total


def _sign(value: Fraction) -> int:
    return (value > 0) - (value < 0)


def _derivative(p: Poly) -> Poly:
    return _trim([i * c for i, c in enumerate(p)][1:])


def _remainder(a: Poly, b: Poly) -> Poly:
    rest = list(a)
    while len(rest) >= len(b) and rest:
        factor = rest[-1] / b[-1]
        shift = len(rest) - len(b)
        for i, c in enumerate(b):
            rest[shift + i] -= factor * c
        rest = _trim(rest[:-1]) if rest[-1] == 0 else _trim(rest)
    return rest


def _quotient(a: Poly, b: Poly) -> Poly:
    rest, out = list(a), [Fraction(0)] * max(len(a) - len(b) + 1, 0)
    while len(rest) >= len(b) and rest:
        factor = rest[-1] / b[-1]
        shift = len(rest) - len(b)
        out[shift] = factor
        for i, c in enumerate(b):
            rest[shift + i] -= factor * c
        rest = _trim(rest)
    return _trim(out)


def _gcd(a: Poly, b: Poly) -> Poly:
    while b:
        a, b = b, _remainder(a, b)
    return [c / a[-1] for c in a] if a else a


def _square_free(p: Poly) -> Poly:
    """``p`` with each repeated factor once (same real roots, each simple)."""
    common = _gcd(p, _derivative(p))
    return _quotient(p, common) if len(common) > 1 else p


def _sturm(p: Poly) -> list[Poly]:
    chain = [p, _derivative(p)]
    while len(chain[-1]) > 1:
        rest = _remainder(chain[-2], chain[-1])
        if not rest:
            break
        chain.append([-c for c in rest])
    return chain


def _changes(chain: Sequence[Poly], x: Fraction) -> int:
    signs = [s for s in (_sign(_value(p, x)) for p in chain) if s]
    return sum(1 for a, b in pairwise(signs) if a != b)


def _bound(p: Poly) -> Fraction:
    """Every real root lies in (-B, B) (Cauchy's bound)."""
    lead = abs(p[-1])
    return 1 + max((abs(c) / lead for c in p[:-1]), default=Fraction(0))


def _root(p: Poly, lo: Fraction, hi: Fraction, width: Fraction) -> Number:
    """The single simple root of ``p`` in (lo, hi]: exact when rational, else approximated."""
    if _value(p, hi) == 0:
        return Number.of_fraction(hi)
    s_hi = _sign(_value(p, hi))  # lo itself may be a root (of the interval to its left)
    steps = 0
    while hi - lo > width:
        mid = (lo + hi) / 2
        s_mid = _sign(_value(p, mid))
        if s_mid == 0:
            return Number.of_fraction(mid)
        lo, hi = (lo, mid) if s_mid == s_hi else (mid, hi)
        steps += 1
        if steps % 24 == 0:  # a rational root with a small denominator, found early
            guess = ((lo + hi) / 2).limit_denominator(10**6)
            if lo < guess <= hi and _value(p, guess) == 0:
                return Number.of_fraction(guess)
    middle = (lo + hi) / 2
    guess = middle.limit_denominator(10**12)
    if _value(p, guess) == 0:
        return Number.of_fraction(guess)
    return Number.of_approximation(middle)


def real_roots(p: Poly) -> list[Number]:
    """The distinct real roots of ``p`` (not the zero polynomial), in increasing order."""
    p = _square_free(_trim(p))
    if len(p) <= 1:
        return []
    chain = _sturm(p)
    bound = _bound(p)
    width = bound / 2**_REFINE_BITS
    found: list[Number] = []
    stack = [(-bound, bound)]
    while stack:
        lo, hi = stack.pop()
        count = _changes(chain, lo) - _changes(chain, hi)
        if count == 0:
            continue
        if count == 1:
            found.append(_root(p, lo, hi, width))
            continue
        mid = (lo + hi) / 2
        stack.extend([(lo, mid), (mid, hi)])
    return sorted(found, key=lambda n: n.best())


def _abs_free(node: Node, signs: Mapping[Abs, int]) -> Node:
    """``node`` with each absolute value in ``signs`` replaced by ``±`` its argument (an
    absolute value of parameters only stays)."""

    def visit(original: Node, kids: list[Node]) -> Node | None:
        if isinstance(original, Abs) and original in signs:
            return kids[0] if signs[original] > 0 else Neg(kids[0])
        return None

    return transform(node, visit)


def _polynomial(node: Node, variable: str, env: Mapping[str, Any]) -> Poly | None:
    """The coefficients of ``node`` as a polynomial in ``variable`` (degree at most
    MAX_DEGREE), by exact interpolation at 0, 1, ..., degree; None if it is not one."""
    deg = degree(node, frozenset({variable}))
    if deg is None or deg > MAX_DEGREE:
        return None
    values = []
    for k in range(deg + 1):
        number = Number.of_precise(precise_evaluate(node, {**env, variable: Fraction(k)}))
        if not number.is_finite:
            return None
        values.append(number.best())
    # Newton's divided differences, then expanded into coefficients.
    diffs = list(values)
    for level in range(1, deg + 1):
        for i in range(deg, level - 1, -1):
            diffs[i] = (diffs[i] - diffs[i - 1]) / level
    coefficients: Poly = [Fraction(0)] * (deg + 1)
    basis: Poly = [Fraction(1)]
    for i in range(deg + 1):
        for j, c in enumerate(basis):
            coefficients[j] += diffs[i] * c
        basis = [Fraction(0), *basis]  # basis * (x - i)
        for j in range(len(basis) - 1):
            basis[j] -= i * basis[j + 1]
    return _trim(coefficients)


class _Piece:
    """f for one choice of the absolute values' signs: numerator and denominator."""

    def __init__(self, numerator: Poly, denominator: Poly) -> None:
        self.numerator, self.denominator = numerator, denominator
        self.numerator_roots = real_roots(numerator) if numerator else []
        self.denominator_roots = real_roots(denominator)


def _pieces(node: Node, absolutes: Sequence[Abs], variable: str,
            env: Mapping[str, Any]) -> dict[tuple[int, ...], _Piece] | None:
    pieces = {}
    for signs in product((1, -1), repeat=len(absolutes)):
        free = _abs_free(node, dict(zip(absolutes, signs, strict=True)))
        top, bottom = over_one_denominator(free)
        numerator = _polynomial(top, variable, env)
        denominator = _polynomial(bottom, variable, env)
        if numerator is None or not denominator:
            return None
        pieces[signs] = _Piece(numerator, denominator)
    return pieces


def _argument_roots(absolutes: Sequence[Abs], variable: str,
                    env: Mapping[str, Any]) -> list[Number] | None:
    """Where an absolute value's argument is zero or undefined, under any signs of the
    absolute values inside it."""
    roots: list[Number] = []
    for node in absolutes:
        inner = [a for a in absolutes if a != node and a in set(walk(node.operand))]
        pieces = _pieces(node.operand, inner, variable, env)
        if pieces is None:
            return None
        for piece in pieces.values():
            roots.extend([*piece.numerator_roots, *piece.denominator_roots])
    return roots


def _distinct(numbers: list[Number]) -> list[Number]:
    out: list[Number] = []
    for number in sorted(numbers, key=lambda n: n.best()):
        if not out or compare_numbers(out[-1], number) != 0:
            out.append(number)
    return out


def _holds(sign: int, op: str) -> bool:
    return {"<": sign < 0, "<=": sign <= 0, ">": sign > 0, ">=": sign >= 0, "=": sign == 0,
            "!=": sign != 0}[op]


def _signs_at(absolutes: Sequence[Abs], x: Fraction, variable: str,
              env: Mapping[str, Any]) -> tuple[int, ...] | None:
    """The sign choice that holds at ``x`` (an argument that is zero counts as positive)."""
    out = []
    for node in absolutes:
        value = Number.of_precise(precise_evaluate(node.operand, {**env, variable: x}))
        if not value.is_finite:
            return None
        out.append(-1 if value.best() < 0 else 1)
    return tuple(out)


def _is_among(number: Number, roots: Sequence[Number]) -> bool:
    return any(compare_numbers(number, r) == 0 for r in roots)


def _decide(point: Number, probe: bool, pieces: Mapping[tuple[int, ...], _Piece],
            absolutes: Sequence[Abs], variable: str, env: Mapping[str, Any],
            op: str) -> bool:
    x = point.best()
    signs = _signs_at(absolutes, x, variable, env)
    if signs is None:
        return False
    piece = pieces[signs]
    if not probe:  # a critical point: decided by which roots it is, not by a rounded value
        if _is_among(point, piece.denominator_roots):
            return False
        if _is_among(point, piece.numerator_roots) or not piece.numerator:
            return _holds(0, op)
    sign = _sign(_value(piece.numerator, x)) * _sign(_value(piece.denominator, x))
    return _holds(sign, op)


def _probes(points: Sequence[Number]) -> Iterator[tuple[Number, Number, Fraction]]:
    """(lo, hi, a point strictly between) for each open interval the points cut the line in."""
    infinite_lo, infinite_hi = Number(float("-inf")), Number(float("inf"))
    if not points:
        yield infinite_lo, infinite_hi, Fraction(0)
        return
    yield infinite_lo, points[0], points[0].best() - 1
    for lo, hi in pairwise(points):
        yield lo, hi, (lo.best() + hi.best()) / 2
    yield points[-1], infinite_hi, points[-1].best() + 1


def solve_by_sign_chart(lhs: Expr, op: str, rhs: Expr, variable: str,
                        params: Mapping[str, Any]) -> RealSet | None:
    """The reals ``variable`` may take so that ``lhs op rhs`` holds (where both sides are
    defined), when ``lhs - rhs`` is built from the variable and parameters with + - * /,
    whole powers and at most MAX_ABS absolute values, and every polynomial met has degree at
    most MAX_DEGREE; None otherwise."""
    node: Node = BinOp("-", lhs.node, rhs.node)
    env = {k: v for k, v in fraction_params(params).items() if not isinstance(v, list)}
    absolutes = list(dict.fromkeys(
        n for n in walk(node)
        if isinstance(n, Abs) and degree(n.operand, frozenset({variable})) != 0))
    if len(absolutes) > MAX_ABS:
        return None
    pieces = _pieces(node, absolutes, variable, env)
    kinks = _argument_roots(absolutes, variable, env)
    if pieces is None or kinks is None:
        return None
    points = _distinct([*kinks, *(r for piece in pieces.values()
                                  for r in (*piece.numerator_roots, *piece.denominator_roots))])
    parts: list[Component] = []
    for lo, hi, probe in _probes(points):
        if _decide(Number.of_fraction(probe), True, pieces, absolutes, variable, env, op):
            parts.append(Component(lo, hi, False, False))
    for point in points:
        if _decide(point, False, pieces, absolutes, variable, env, op):
            parts.append(Component(point, point, True, True))
    return reduce_components(parts)
