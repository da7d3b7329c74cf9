"""Rewriting our trees: renaming (``x`` -> ``t``), fixing a point (``x = 3/2``), and any
node-by-node rewrite (`transform`).

``transform(node, visit)`` rebuilds the tree bottom-up, letting ``visit(original, rebuilt
children)`` replace any node; iterative, so deep trees cannot exhaust the stack.
``substitute(node, mapping)`` is the rewrite that replaces every ``Var`` named in
``mapping`` by the mapped node.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

from grading.checkers.mathparse import Abs, BinOp, Call, Neg, Node, Num, Pow, Var
from grading.checkers.mathparse.nodes import children

__all__ = ["at_point", "number", "substitute", "transform"]

#: ``visit(original, rebuilt_children)``: the node to put in the original's place, or None to
#: keep it (rebuilt over its new children).
Visit = Callable[[Node, list[Node]], "Node | None"]


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

    def visit(original: Node, kids: list[Node]) -> Node | None:
        return mapping.get(original.name) if isinstance(original, Var) else None

    return transform(node, visit)


def transform(node: Node, visit: Visit) -> Node:
    """``node`` rebuilt bottom-up, each node replaced by ``visit(node, rebuilt children)``
    when that is not None."""
    built: dict[int, Node] = {}
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        current, expanded = stack.pop()
        if not expanded:
            stack.append((current, True))
            stack.extend((child, False) for child in children(current))
            continue
        kids = [built[id(child)] for child in children(current)]
        replaced = visit(current, kids)
        built[id(current)] = replaced if replaced is not None else _rebuild(current, kids)
    return built[id(node)]


def _rebuild(node: Node, kids: list[Node]) -> Node:
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
