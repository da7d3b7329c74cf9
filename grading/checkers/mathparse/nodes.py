"""The expression tree the reader builds: small immutable nodes (``Expr``, a tree with its
text, is in ``expr.py``).

Nodes compare by value (positions are ignored), so two readings of the same text are equal.
A function application, built-in or declared, is a ``Call`` naming the function's canonical
name (``factorial`` for ``n!``, ``log`` with two arguments for ``log_2(x)``); ``|x|`` and
``abs(x)`` are ``Abs``; ``pi``, ``e`` and infinity (``oo``) are ``Const``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Union

__all__ = [
    "BP_ADD",
    "BP_MUL",
    "BP_POSTFIX",
    "BP_POW",
    "BP_UNARY",
    "CONSTANTS",
    "Abs",
    "BinOp",
    "Call",
    "Const",
    "Neg",
    "Node",
    "Num",
    "Pow",
    "Var",
    "children",
    "walk",
]

#: The named constants: pi, e and infinity ("oo", read only where a spec allows it).
CONSTANTS = ("pi", "e", "oo")

# Binding powers, shared by the parser and the renderers: + -, * / (and implicit products),
# unary minus, ^ (right-associative), postfix ! (tighter than ^: 2^3! is 2^(3!)).
BP_ADD = 10
BP_MUL = 20
BP_UNARY = 30
BP_POW = 40
BP_POSTFIX = 50


@dataclass(frozen=True, slots=True)
class Num:
    """A number literal: exact value and its canonical text (``1.5e-3``)."""

    value: Fraction
    text: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Var:
    """A declared variable (or, in references, a parameter)."""

    name: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Const:
    """The constant ``pi``, ``e`` or ``oo`` (infinity)."""

    name: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    """A function applied to its arguments, by the function's canonical name."""

    func: str
    args: tuple[Node, ...]
    pos: int = field(default=0, compare=False)

    @property
    def arg(self) -> Node:
        """The first (usually only) argument."""
        return self.args[0]


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` with op one of ``+ - * /``."""

    op: str
    left: Node
    right: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    operand: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Pow:
    """``base ^ exponent``."""

    base: Node
    exponent: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Abs:
    """``|operand|`` or ``abs(operand)``."""

    operand: Node
    pos: int = field(default=0, compare=False)


Node = Union[Num, Var, Const, Call, BinOp, Neg, Pow, Abs]  # noqa: UP007


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-nodes of ``node``, left to right."""
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, Pow):
        return (node.base, node.exponent)
    if isinstance(node, Neg | Abs):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    return ()


def walk(node: Node) -> Iterable[Node]:
    """Every node of the tree (iteratively, so deep trees cannot exhaust the stack)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))
