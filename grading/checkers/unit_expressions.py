"""Quantities written as one product: units with numbers inside, ``1*Mg/10^6``,
``(15*kN)/(pi*mm^2)``, ``(-36*kJ)/mol``, ``2*m/(4*s)``.

A quantity is normally a number followed by its unit (quantity.py). STACK reads any product of
numbers and units (its Units test splits ``stackunits(numbers, units)`` out of the product), so
where that reading fails we read the whole answer with the safe maths reader, every word a
name, and split the tree: numbers, constants and functions of numbers go to the number; unit
names, with whole or fractional constant powers, to the unit. A unit added to a number
(``3 m + 2``), a unit inside a function (``sqrt(m)``) or in an exponent is refused with its
position. Each name is looked up as units.py does (unknown names get a suggestion).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from fractions import Fraction

from grading.checkers.mathparse import (
    INFINITY_NAMES,
    Abs,
    BinOp,
    Call,
    Expr,
    FormatError,
    Neg,
    Node,
    Num,
    Pow,
    Var,
    exact_value,
    parse,
)
from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.nodes import walk
from grading.checkers.units import MAX_FACTORS, Unit, read_unit

__all__ = ["read_unit_product"]

_WORD = re.compile(r"[A-Za-z]+")
_ONE = Num(Fraction(1), "1")


def read_unit_product(raw: str, *, declared: Iterable[str] = (),
                      symbols: Mapping[str, str] | None = None) -> tuple[Expr, Unit] | None:
    """The number and the unit of ``raw`` read as one product, or None when it has no unit
    name or is not an expression of numbers and names at all. Raises FormatError (with the
    position) for a unit that is not a factor of the whole answer or is unknown."""
    names = _names(raw)
    if not names:
        return None
    try:
        expr = parse(raw, variables=sorted(names))
    except (FormatError, ValueError):
        return None
    if sum(isinstance(node, Var) for node in walk(expr.node)) > MAX_FACTORS:
        return None  # as the unit reader: at most 12 unit names
    number, powers = _split(expr.node)
    if not powers or number is _ONE:
        return None  # no unit, or no number: "type the number before the unit"
    pieces = []
    for name, (power, position) in powers.items():
        read_unit(name, offset=position - 1, declared=declared, symbols=symbols)
        if power == 0:
            continue
        pieces.append(name if power == 1 else f"{name}^({power.numerator}/"
                      f"{power.denominator})" if power.denominator != 1 else f"{name}^{power}")
    if not pieces:
        first = min(position for _, position in powers.values())
        raise FormatError(f"the units cancel out (from character {first}): write the number "
                          f"with its unit", first)
    try:
        unit = read_unit("*".join(pieces), declared=declared, symbols=symbols)
    except FormatError:
        return None  # a power beyond the unit reader's bounds: the usual reading's message
    return Expr(number, raw), unit


def _names(raw: str) -> set[str]:
    """The words of ``raw`` that may be units: not pi, infinity or a function applied with
    brackets."""
    found = set()
    for match in _WORD.finditer(raw):
        word = match.group(0)
        after = raw[match.end():].lstrip()[:1]
        if word.lower() in ("pi",) or word in INFINITY_NAMES:
            continue
        if registry.lookup(word) is not None and after == "(":
            continue
        found.add(word)
    return found


Powers = dict[str, tuple[Fraction, int]]


def _split(node: Node) -> tuple[Node, Powers]:
    """(the number's tree, each unit name with its power and first position)."""
    if isinstance(node, Var):
        return _ONE, {node.name: (Fraction(1), node.pos)}
    if isinstance(node, Neg):
        number, powers = _split(node.operand)
        return Neg(number, node.pos), powers
    if isinstance(node, BinOp) and node.op in "*/":
        left, left_powers = _split(node.left)
        right, right_powers = _split(node.right)
        sign = 1 if node.op == "*" else -1
        powers = dict(left_powers)
        for name, (power, position) in right_powers.items():
            before = powers.get(name, (Fraction(0), position))
            powers[name] = (before[0] + sign * power, before[1])
        return _product(node.op, left, right, node.pos), powers
    if isinstance(node, Pow):
        base, powers = _split(node.base)
        _refuse_units(node.exponent, "in an exponent")
        if not powers:
            return Pow(base, node.exponent, node.pos), {}
        exponent = exact_value(Expr(node.exponent))
        if exponent is None:
            raise FormatError(f"the power of a unit must be a number (character {node.pos})",
                              node.pos)
        number = base if base is _ONE else Pow(base, node.exponent, node.pos)
        return number, {name: (power * exponent, position)
                        for name, (power, position) in powers.items()}
    if isinstance(node, BinOp):
        _refuse_units(node, "added to a number: write the unit after the whole number",
                      node.pos)
        return node, {}
    if isinstance(node, Call | Abs):
        _refuse_units(node, "inside a function")
        return node, {}
    return node, {}


def _product(op: str, left: Node, right: Node, pos: int) -> Node:
    if right is _ONE:
        return left
    if left is _ONE and op == "*":
        return right
    if left is _ONE:
        left = Num(Fraction(1), "1", pos)
    return BinOp(op, left, right, pos)


def _refuse_units(node: Node, where: str, position: int | None = None) -> None:
    for inner in walk(node):
        if isinstance(inner, Var):
            at = position if position is not None else inner.pos
            raise FormatError(f"the unit '{inner.name}' (character {inner.pos}) is {where}",
                              at)
