"""An antiderivative written with its arbitrary constant: ``x^3/3 + C``.

WeBWorK's FormulaUpToConstant and STACK's AddConst: with ``arbitrary_constant = true`` the
student must write one arbitrary constant, any single letter that is not a declared variable
(``C``, ``K``, ``c``), and the answer is right when it is the key plus ``a*C + b`` for numbers
``a != 0`` and ``b`` (``x^3/3 + C``, ``x^3/3 - C``, ``(x^3 + C)/3``, ``x^3/3 + 2 + C``). An
answer without the constant, or with it only as ``0*C``, is not the most general solution;
one in which the constant does not enter linearly (``x^3/3 + C^2``) is wrong, with a hint.
The numbers ``a`` and ``b`` are found exactly at a point, and the whole answer is then compared
with ``key + a*C + b`` by the checker's own comparison (``same``), as the ``constant``
relation of marking_rules.py does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal

from grading.checkers.mathparse import BinOp, Node, Num, Var
from grading.checkers.substitution import at_point

__all__ = ["CONSTANT_NAMES", "constant_answer_text", "up_to_arbitrary_constant"]

#: The letters offered for the constant in the key as a student would type it, in order.
CONSTANT_NAMES = ("C", "K", "c", "k", "A")

Relation = Literal["equal", "not_general", "nonlinear", "different"]


def constant_answer_text(key_text: str, variables: Sequence[str]) -> str:
    """The key written with a constant the spec does not use: ``x^3/3 + C``."""
    name = next(n for n in (*CONSTANT_NAMES, "D") if n not in variables)
    return f"{key_text} + {name}"


def up_to_arbitrary_constant(answer: Node, key: Node, variables: Sequence[str],
                             constant: str, same: Callable[[Node, Node], bool]) -> Relation:
    """How ``answer`` (in ``variables`` and ``constant``) stands to ``key``: ``equal``
    (key + a*C + b, a != 0), ``not_general`` (key + b), ``nonlinear`` (key + b when C = 0,
    but C does not enter as a*C) or ``different``. ``same`` compares over the variables and
    the constant."""
    point = {name: Fraction(3, 2) + Fraction(i, 3) for i, name in enumerate(variables)}
    at_zero = at_point(answer, {**point, constant: Fraction(0)})
    at_one = at_point(answer, {**point, constant: Fraction(1)})
    shift = BinOp("-", at_zero, at_point(key, point))
    slope = BinOp("-", at_one, at_zero)
    general = BinOp("+", BinOp("+", key, shift), BinOp("*", slope, Var(constant)))
    zero = Num(Fraction(0), "0")
    if same(answer, general):
        return "not_general" if same(slope, zero) else "equal"
    without = at_point(answer, {constant: Fraction(0)})
    if same(without, BinOp("+", key, shift)):
        return "nonlinear"
    return "different"
