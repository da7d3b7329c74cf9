"""Exact polynomials over the rationals, read from our own trees, for the form checks.

``polynomial_of(node, variables)`` gives a ``Poly`` (monomial exponents -> ``Fraction``
coefficient) when the tree is a polynomial in ``variables`` with rational coefficients, else
None: a variable outside ``variables``, a constant such as ``pi``, a function, a division by
a non-constant or a power that is not a small non-negative integer make it "not a
polynomial". Sizes are bounded (degree, number of terms), so a form check never expands
``(x+1)^1000``. ``is_irreducible`` decides irreducibility over Q: rational roots and the
quadratic formula decide degrees up to 3 on our own arithmetic; larger or multivariate
polynomials are factored by sympy from their integer coefficients (never from student text).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import reduce

from grading.checkers.mathparse import Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var
from grading.checkers.mathparse.nodes import walk

__all__ = [
    "MAX_DEGREE",
    "Poly",
    "degree",
    "is_constant",
    "is_irreducible",
    "polynomial_of",
    "primitive_integer",
]

#: A monomial's exponents (one per variable, in the order given) -> its coefficient.
Poly = dict[tuple[int, ...], Fraction]

#: Polynomials beyond these bounds are "not read" (form checks then fall back to "not met").
MAX_DEGREE = 40
MAX_TERMS = 400


class _TooLarge(Exception):
    pass


def polynomial_of(node: Node, variables: Sequence[str]) -> Poly | None:
    """The polynomial ``node`` is in ``variables`` (rational coefficients), or None."""
    names = tuple(variables)
    try:
        return _poly(node, names)
    except _TooLarge:
        return None


def _constant(value: Fraction, width: int) -> Poly:
    return {(0,) * width: value} if value else {}


def _poly(node: Node, names: tuple[str, ...]) -> Poly | None:
    width = len(names)
    if isinstance(node, Num):
        return _constant(node.value, width)
    if isinstance(node, Var):
        if node.name not in names:
            return None
        exps = [0] * width
        exps[names.index(node.name)] = 1
        return {tuple(exps): Fraction(1)}
    if isinstance(node, Neg):
        inner = _poly(node.operand, names)
        return None if inner is None else {k: -v for k, v in inner.items()}
    if isinstance(node, BinOp):
        left = _poly(node.left, names)
        if left is None:
            return None
        right = _poly(node.right, names)
        if right is None:
            return None
        if node.op == "+":
            return _add(left, right)
        if node.op == "-":
            return _add(left, {k: -v for k, v in right.items()})
        if node.op == "*":
            return _mul(left, right)
        if node.op == "/":
            if not is_constant(right) or not right:
                return None
            divisor = next(iter(right.values()))
            return {k: v / divisor for k, v in left.items()}
        return None
    if isinstance(node, Pow):
        exponent = node.exponent
        if not (isinstance(exponent, Num) and exponent.value.denominator == 1
                and 0 <= exponent.value <= MAX_DEGREE):
            return None
        base = _poly(node.base, names)
        if base is None:
            return None
        result: Poly = _constant(Fraction(1), width)
        for _ in range(int(exponent.value)):
            result = _mul(result, base)
        return result
    if isinstance(node, Const | Call | Abs):
        return None
    return None


def _add(a: Poly, b: Poly) -> Poly:
    out = dict(a)
    for k, v in b.items():
        total = out.get(k, Fraction(0)) + v
        if total:
            out[k] = total
        else:
            out.pop(k, None)
    return out


def _mul(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            key = tuple(x + y for x, y in zip(ka, kb, strict=True))
            if sum(key) > MAX_DEGREE:
                raise _TooLarge
            total = out.get(key, Fraction(0)) + va * vb
            if total:
                out[key] = total
            else:
                out.pop(key, None)
    if len(out) > MAX_TERMS:
        raise _TooLarge
    return out


def degree(poly: Poly) -> int:
    """Total degree (0 for constants, -1 for the zero polynomial)."""
    return max((sum(k) for k in poly), default=-1)


def is_constant(poly: Poly) -> bool:
    """True for a constant (or zero) polynomial."""
    return degree(poly) <= 0


def primitive_integer(poly: Poly) -> bool:
    """True when every coefficient is an integer and their gcd is 1 (up to sign)."""
    if any(v.denominator != 1 for v in poly.values()):
        return False
    return reduce(math.gcd, (abs(int(v)) for v in poly.values()), 0) == 1


def _integer_coefficients(poly: Poly) -> dict[tuple[int, ...], int]:
    lcm = reduce(lambda a, b: a * b // math.gcd(a, b), (v.denominator for v in poly.values()), 1)
    ints = {k: int(v * lcm) for k, v in poly.items()}
    g = reduce(math.gcd, (abs(v) for v in ints.values()), 0) or 1
    return {k: v // g for k, v in ints.items()}


def _univariate(poly: Poly) -> list[Fraction] | None:
    """Coefficients from the constant term up, when at most one variable occurs."""
    used = {i for k in poly for i, e in enumerate(k) if e}
    if len(used) > 1:
        return None
    index = next(iter(used), 0)
    deg = degree(poly)
    coeffs = [Fraction(0)] * (deg + 1)
    for k, v in poly.items():
        coeffs[k[index] if k else 0] = v
    return coeffs


def _divisors(n: int) -> list[int]:
    n = abs(n)
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def _has_rational_root(coeffs: list[Fraction]) -> bool:
    lcm = reduce(lambda a, b: a * b // math.gcd(a, b), (c.denominator for c in coeffs), 1)
    ints = [int(c * lcm) for c in coeffs]
    if ints[0] == 0:  # x divides it
        return True
    lead, const = ints[-1], ints[0]
    if abs(const) > 10**12 or abs(lead) > 10**12:
        raise _TooLarge
    for p in _divisors(const):
        for q in _divisors(lead):
            for root in (Fraction(p, q), Fraction(-p, q)):
                if sum(c * root**i for i, c in enumerate(ints)) == 0:
                    return True
    return False


def _is_square(value: Fraction) -> bool:
    if value < 0:
        return False
    return all(math.isqrt(part) ** 2 == part for part in (value.numerator, value.denominator))


def is_irreducible(poly: Poly) -> bool:
    """Is the non-constant ``poly`` irreducible over the rationals? (Constants: False.)"""
    deg = degree(poly)
    if deg <= 0:
        return False
    if deg == 1:
        return True
    coeffs = _univariate(poly)
    try:
        if coeffs is not None and deg == 2:
            c, b, a = coeffs
            return not _is_square(b * b - 4 * a * c)
        if coeffs is not None and deg == 3:
            return not _has_rational_root(coeffs)
    except _TooLarge:
        pass
    return _sympy_irreducible(poly)


def _sympy_irreducible(poly: Poly) -> bool:
    # Built from integer coefficients we computed, never from the student's text.
    import sympy

    ints = _integer_coefficients(poly)
    width = len(next(iter(ints)))
    symbols = sympy.symbols(f"v0:{width}")
    expr = sum(c * sympy.Mul(*(s**e for s, e in zip(symbols, k, strict=True)))
               for k, c in ints.items())
    _, factors = sympy.factor_list(expr)
    non_constant = [(f, m) for f, m in factors if f.free_symbols]
    return len(non_constant) == 1 and non_constant[0][1] == 1


def atomised(node: Node, variables: Sequence[str]) -> tuple[Node, list[str]]:
    """``node`` with each function of the variables (``sin(x)``, ``|x|``)
    and each power with the variables in its exponent (``e^x``) replaced by a name of its
    own, the same piece by the same name, and the variables extended by those names:
    ``sin(x)^2 - 1`` is a polynomial in ``sin(x)``, so it can be factored "in" it."""
    atoms: dict[Node, str] = {}

    def has_variable(sub: Node) -> bool:
        return any(isinstance(n, Var) and n.name in variables for n in walk(sub))

    def rebuild(sub: Node) -> Node:
        if isinstance(sub, Call | Abs) and has_variable(sub):
            name = atoms.setdefault(sub, f"_atom{len(atoms)}")
            return Var(name, getattr(sub, "pos", 0))
        if isinstance(sub, Pow) and has_variable(sub.exponent):
            times, rest = _integer_multiple(sub.exponent)  # e^(2x) is (e^x)^2
            name = atoms.setdefault(Pow(sub.base, rest), f"_atom{len(atoms)}")
            atom = Var(name, sub.pos)
            return atom if times == 1 else Pow(atom, Num(Fraction(times), str(times)), sub.pos)
        if isinstance(sub, BinOp):
            return BinOp(sub.op, rebuild(sub.left), rebuild(sub.right), sub.pos)
        if isinstance(sub, Neg):
            return Neg(rebuild(sub.operand), sub.pos)
        if isinstance(sub, Pow):
            return Pow(rebuild(sub.base), rebuild(sub.exponent), sub.pos)
        return sub

    rebuilt = rebuild(node)
    return rebuilt, [*variables, *atoms.values()]


def _integer_multiple(node: Node) -> tuple[int, Node]:
    """(k, rest) with ``node`` = k·rest for a whole k from 2 to 12 written as a factor."""
    if isinstance(node, BinOp) and node.op == "*" and isinstance(node.left, Num) \
            and node.left.value.denominator == 1 and 2 <= node.left.value <= 12:
        return int(node.left.value), node.right
    return 1, node
