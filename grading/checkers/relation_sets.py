"""Relations and sets of reals read as each other, for equation and set parts.

* ``with_infinity``: a relation with an infinite side is the set it means (``x > -oo`` all
  reals, ``x > oo`` none), as WeBWorK's inequalities context reads it.
* ``set_as_relation``: an interval answer to an inequality key, where the author allows it
  (``set_answers = true``): ``(2, oo)`` is ``x > 2``, ``[-1, 3)`` is ``-1 <= x < 3``, ``{1, 2}``
  is ``x = 1 or x = 2``, ``R`` all reals; the endpoints keep the student's expressions, so
  ``(-sqrt(2), sqrt(2))`` is compared exactly.
"""

from __future__ import annotations

from grading.checkers.mathparse import Const, Expr, Neg
from grading.checkers.realsets import (
    Component,
    FiniteTerm,
    IntervalTerm,
    RealSet,
    RealsTerm,
    SetExpr,
    reduce_components,
)
from grading.checkers.refs import Number

__all__ = ["set_as_relation", "with_infinity"]

_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}


def _infinity(side: Expr) -> int:
    node = side.node
    if isinstance(node, Const) and node.name == "oo":
        return 1
    if isinstance(node, Neg) and isinstance(node.operand, Const) and node.operand.name == "oo":
        return -1
    return 0


def with_infinity(lhs: Expr, op: str, rhs: Expr) -> RealSet | None:
    """The set a relation with one infinite side means (None when no side is infinite)."""
    left, right = _infinity(lhs), _infinity(rhs)
    if not (left or right) or (left and right):
        return None
    sign, op = (right, op) if right else (left, _FLIPPED[op])  # finite side on the left
    holds = op == "!=" or (op in ("<", "<=") and sign > 0) or (op in (">", ">=") and sign < 0)
    whole = Component(Number(float("-inf")), Number(float("inf")), False, False)
    return reduce_components([whole] if holds else [])


def set_as_relation(expr: SetExpr, variable: str) -> str:
    """The relation in ``variable`` that a set written as ``expr`` describes."""
    pieces = []
    for term in expr.terms:
        if isinstance(term, RealsTerm):
            pieces.append(f"{variable} > -oo")
        elif isinstance(term, FiniteTerm):
            pieces += [f"{variable} = {e.to_text()}" for e in term.elements]
        elif isinstance(term, IntervalTerm):
            pieces.append(_interval(term, variable))
    return " or ".join(pieces) or f"{variable} > oo"


def _interval(term: IntervalTerm, variable: str) -> str:
    low = "<=" if term.left == "[" else "<"
    high = "<=" if term.right == "]" else "<"
    lo, hi = _infinity(term.lo) < 0, _infinity(term.hi) > 0
    if lo and hi:
        return f"{variable} > -oo"
    if lo:
        return f"{variable} {high} {term.hi.to_text()}"
    if hi:
        return f"{term.lo.to_text()} {low} {variable}"
    return f"{term.lo.to_text()} {low} {variable} {high} {term.hi.to_text()}"
