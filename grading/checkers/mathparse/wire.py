"""A tree as plain JSON data and back, for the isolated sympy helper process.

``to_data(node)`` writes our own nodes as nested lists (numbers as [numerator, denominator]
integers); ``from_data(data, functions)`` rebuilds them, accepting only the node kinds of
nodes.py, registry functions or the declared ``functions``, valid names and bounded sizes.
Nothing in the data is ever evaluated as code or parsed as an expression string.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from typing import Any

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.limits import MAX_DEPTH, MAX_EXACT_BITS, MAX_NODES
from grading.checkers.mathparse.nodes import (
    CONSTANTS,
    Abs,
    BinOp,
    Call,
    Const,
    Neg,
    Node,
    Num,
    Pow,
    Var,
)

__all__ = ["WireError", "from_data", "to_data"]

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_MAX_WIRE_NODES = 4 * MAX_NODES  # references may be longer than answers
_MAX_WIRE_DEPTH = 4 * MAX_DEPTH


class WireError(ValueError):
    """Data that is not a tree this module wrote."""


def to_data(node: Node) -> list[Any]:
    """``node`` as nested JSON-ready lists."""
    if isinstance(node, Num):
        return ["num", node.value.numerator, node.value.denominator, node.text]
    if isinstance(node, Var):
        return ["var", node.name]
    if isinstance(node, Const):
        return ["const", node.name]
    if isinstance(node, Neg):
        return ["neg", to_data(node.operand)]
    if isinstance(node, Abs):
        return ["abs", to_data(node.operand)]
    if isinstance(node, BinOp):
        return ["binop", node.op, to_data(node.left), to_data(node.right)]
    if isinstance(node, Pow):
        return ["pow", to_data(node.base), to_data(node.exponent)]
    return ["call", node.func, [to_data(a) for a in node.args]]


def from_data(data: Any, functions: Collection[str] = ()) -> Node:
    """The tree ``data`` describes; WireError for anything else (see the module docstring)."""
    budget = [_MAX_WIRE_NODES]
    return _node(data, frozenset(functions), budget, 0)


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > 100 \
            or not set(value) <= _NAME_CHARS or value[0].isdigit():
        raise WireError("invalid name")
    return value


def _node(data: Any, functions: frozenset[str], budget: list[int], depth: int) -> Node:
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_WIRE_DEPTH:
        raise WireError("tree too large")
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise WireError("not a node")
    kind, rest = data[0], data[1:]
    if kind == "num" and len(rest) == 3:
        numerator, denominator, text = rest
        if not (isinstance(numerator, int) and isinstance(denominator, int)
                and not isinstance(numerator, bool) and denominator > 0
                and isinstance(text, str) and len(text) <= 600):
            raise WireError("invalid number")
        value = Fraction(numerator, denominator)
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_EXACT_BITS:
            raise WireError("number too large")
        return Num(value, text)
    if kind == "var" and len(rest) == 1:
        return Var(_name(rest[0]))
    if kind == "const" and len(rest) == 1 and rest[0] in CONSTANTS:
        return Const(rest[0])
    if kind in ("neg", "abs") and len(rest) == 1:
        operand = _node(rest[0], functions, budget, depth + 1)
        return Neg(operand) if kind == "neg" else Abs(operand)
    if kind == "binop" and len(rest) == 3 and rest[0] in ("+", "-", "*", "/"):
        return BinOp(rest[0], _node(rest[1], functions, budget, depth + 1),
                     _node(rest[2], functions, budget, depth + 1))
    if kind == "pow" and len(rest) == 2:
        return Pow(_node(rest[0], functions, budget, depth + 1),
                   _node(rest[1], functions, budget, depth + 1))
    if kind == "call" and len(rest) == 2 and isinstance(rest[1], list) and rest[1]:
        func = _name(rest[0])
        found = registry.find(func)
        if found is None and func not in functions:
            raise WireError(f"unknown function {func!r}")
        if found is not None and not found.accepts(len(rest[1])):
            raise WireError(f"wrong number of arguments for {func!r}")
        return Call(func, tuple(_node(a, functions, budget, depth + 1) for a in rest[1]))
    raise WireError(f"invalid node {kind!r}")
