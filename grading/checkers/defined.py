"""Answers undefined everywhere: a constant piece with no value makes the whole answer void.

``1/0``, ``csc(0)``, ``log(0)``, ``0^-1`` and ``x + 1/0`` have no value for any value of the
variables, so a symbolic part refuses them as a numeric part refuses ``1/0`` (outcome
"invalid", no attempt used), naming the innermost piece that has no value and where it is in
the student's characters. A constant piece that is not a real number (``sqrt(-4)``) is refused
the same way in a part over the real numbers. Only constant pieces are judged: ``1/x`` has
values, and whether an expression with variables is defined somewhere is sampling's business.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from grading.checkers.mathparse import (
    BinOp,
    Call,
    Const,
    Expr,
    FormatError,
    Node,
    Pow,
    Var,
    evaluate,
)
from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.complex_eval import complex_evaluate
from grading.checkers.mathparse.nodes import children, walk
from grading.checkers.mathparse.render import to_text
from grading.checkers.refs import answer_number

__all__ = ["refuse_undefined", "undefined_piece"]


def undefined_piece(expr: Expr) -> Node | None:
    """The innermost constant piece of ``expr`` that has no real value (None when every
    constant piece has one). A piece whose float value overflows or is lost to rounding is
    evaluated again exactly or with high precision before it is judged."""
    constant = _constant_nodes(expr.node)
    stack = [expr.node]
    while stack:
        node = stack.pop()
        if id(node) in constant:
            if _defined(node):
                continue
            return _innermost(node, constant)
        if _by_zero(node, constant):
            return node  # x/0, x^(-1) with x = 0 written out: no value whatever x is
        stack.extend(children(node))
    return None


def refuse_undefined(expr: Expr) -> None:
    """Raise FormatError (with the piece's position) when ``expr`` is undefined everywhere."""
    piece = undefined_piece(expr)
    if piece is None:
        return
    position = getattr(piece, "pos", 0) or None
    where = f" at character {position}" if position else ""
    text = to_text(piece)
    if _is_complex(piece):
        raise FormatError(f"'{text}'{where} is not a real number, so your answer has no "
                          f"value for any value of the variables", position)
    raise FormatError(f"'{text}'{where} has no value (a division by zero, or a function "
                      f"outside its domain), so your answer is undefined everywhere", position)


def _constant_nodes(root: Node) -> set[int]:
    """ids of the nodes without variables or declared functions (post-order, iterative)."""
    order: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(children(node))
    constant: set[int] = set()
    for node in reversed(order):  # children before parents
        if isinstance(node, Var):
            continue
        if isinstance(node, Call) and registry.find(node.func) is None:
            continue  # an undeclared-by-the-registry (author's) function: no value known
        if all(id(child) in constant for child in children(node)):
            constant.add(id(node))
    return constant


def _innermost(node: Node, constant: set[int]) -> Node:
    current = node
    while True:
        inner = _first_undefined(children(current), constant)
        if inner is None:
            return current
        current = inner


def _first_undefined(nodes: Iterable[Node], constant: set[int]) -> Node | None:
    for child in nodes:
        if id(child) in constant and not _defined(child):
            return child
    return None


def _by_zero(node: Node, constant: set[int]) -> bool:
    """A quotient by a constant zero, or a constant zero to a constant negative power."""
    if isinstance(node, BinOp) and node.op == "/" and id(node.right) in constant:
        return evaluate(node.right, {}) == 0 and _exactly_zero(node.right)
    if isinstance(node, Pow) and id(node.base) in constant and id(node.exponent) in constant:
        exponent = evaluate(node.exponent, {})
        return exponent < 0 and evaluate(node.base, {}) == 0 and _exactly_zero(node.base)
    return False


def _exactly_zero(node: Node) -> bool:
    value = answer_number(Expr(node), {})
    return not value.is_nan and value.best() == 0


def _defined(node: Node) -> bool:
    """A real, finite value (infinity only where the student wrote oo: 1/oo, oo)."""
    value = evaluate(node, {})
    if math.isfinite(value):
        return True
    number = answer_number(Expr(node), {})
    if number.is_nan:
        return False
    return number.is_finite or any(isinstance(n, Const) and n.name == "oo" for n in walk(node))


def _is_complex(node: Node) -> bool:
    value = complex_evaluate(node)
    return value is not None and not (value.exact and value.imag == 0)
