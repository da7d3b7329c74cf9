"""Replacing variables in our trees: renaming (``x`` -> ``t``) and fixing a point (``x = 3/2``).

``substitute(node, mapping)`` rebuilds the tree with every ``Var`` named in ``mapping``
replaced by the mapped node; iterative, so deep trees cannot exhaust the stack.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from grading.checkers.mathparse import Abs, BinOp, Call, Neg, Node, Num, Pow, Var
from grading.checkers.mathparse.nodes import children

__all__ = ["at_point", "number", "substitute"]


def number(value: Fraction) -> Node:
    """A literal for an exact rational (a quotient of integers when not whole)."""
    if value.denominator == 1:
        node: Node = Num(Fraction(abs(value.numerator)), str(abs(value.numerator)))
    else:
        node = BinOp("/", Num(Fraction(abs(value.numerator)), str(abs(value.numerator))),
                     Num(Fraction(value.denominator), str(value.denominator)))
    return Neg(node) if value < 0 else node


def substitute(node: Node, mapping: Mapping[str, Node]) -> Node:
    """``node`` with each variable named in ``mapping`` replaced by its node."""
    built: dict[int, Node] = {}
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        current, expanded = stack.pop()
        if not expanded:
            stack.append((current, True))
            stack.extend((child, False) for child in children(current))
            continue
        kids = [built[id(child)] for child in children(current)]
        built[id(current)] = _rebuild(current, kids, mapping)
    return built[id(node)]


def _rebuild(node: Node, kids: list[Node], mapping: Mapping[str, Node]) -> Node:
    if isinstance(node, Var):
        return mapping.get(node.name, node)
    if isinstance(node, BinOp):
        return BinOp(node.op, kids[0], kids[1], node.pos)
    if isinstance(node, Pow):
        return Pow(kids[0], kids[1], node.pos)
    if isinstance(node, Neg):
        return Neg(kids[0], node.pos)
    if isinstance(node, Abs):
        return Abs(kids[0], node.pos)
    if isinstance(node, Call):
        return Call(node.func, tuple(kids), node.pos)
    return node


def at_point(node: Node, point: Mapping[str, Fraction]) -> Node:
    """``node`` with the variables of ``point`` fixed at those exact values."""
    return substitute(node, {name: number(value) for name, value in point.items()})
