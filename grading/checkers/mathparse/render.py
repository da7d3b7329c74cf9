"""Rendering a tree back for people: canonical plain text and LaTeX ("how we read you").

``to_text`` writes explicit ``*``, ``^`` for powers, only the brackets needed, functions by
their canonical names (``asin(x)`` for ``arcsin x``), ``n!`` for factorials and ``oo`` for
infinity; reading the text again gives the same tree. ``to_latex`` writes ``\\frac``,
``\\cdot``, Greek letters and each function's LaTeX from the registry.
"""

from __future__ import annotations

from typing import Protocol

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.characters import GREEK_NAMES
from grading.checkers.mathparse.nodes import (
    BP_ADD,
    BP_MUL,
    BP_POW,
    BP_UNARY,
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

__all__ = ["Rooted", "precedence", "to_latex", "to_text"]


class Rooted(Protocol):
    """Anything with a tree to render, such as ``Expr`` (which renders itself through here)."""

    @property
    def node(self) -> Node: ...


_NODES = (Num, Var, Const, Call, BinOp, Neg, Pow, Abs)


def _root(expr: Rooted | Node) -> Node:
    return expr if isinstance(expr, _NODES) else expr.node

_ATOM = 100


def precedence(node: Node) -> int:
    """How tightly a node binds when written out (atoms: 100)."""
    if isinstance(node, BinOp):
        return BP_ADD if node.op in "+-" else BP_MUL
    if isinstance(node, Neg):
        return BP_UNARY
    if isinstance(node, Pow):
        return BP_POW
    return _ATOM


def _is_postfix(node: Node) -> bool:
    fn = registry.find(node.func) if isinstance(node, Call) else None
    return fn is not None and fn.postfix


def _atomic_for_postfix(node: Node) -> bool:
    if isinstance(node, Num):
        return "e" not in node.text
    if isinstance(node, Call):
        return not _is_postfix(node)
    return isinstance(node, Var | Const | Abs)


def _scientific(node: Node) -> bool:
    return isinstance(node, Num) and "e" in node.text


# --------------------------------------------------------------------------- text


def to_text(expr: Rooted | Node) -> str:
    """Canonical plain text: explicit ``*``, ``^`` for powers, only the brackets needed."""
    return _text(_root(expr))


def _wrap(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def _text(node: Node) -> str:
    if isinstance(node, Num):
        return node.text
    if isinstance(node, Var | Const):
        return node.name
    if isinstance(node, Neg):
        return "-" + _wrap(_text(node.operand), precedence(node.operand) < BP_UNARY)
    if isinstance(node, Abs):
        return f"|{_text(node.operand)}|"
    if isinstance(node, Call):
        if _is_postfix(node):
            return _wrap(_text(node.arg), not _atomic_for_postfix(node.arg)) + "!"
        return f"{node.func}({', '.join(_text(a) for a in node.args)})"
    if isinstance(node, Pow):
        base = _wrap(_text(node.base), precedence(node.base) <= BP_POW
                     or _scientific(node.base))
        exponent = _wrap(_text(node.exponent), precedence(node.exponent) < _ATOM
                         or _scientific(node.exponent))
        return f"{base}^{exponent}"
    prec = precedence(node)
    left = _wrap(_text(node.left), precedence(node.left) < prec)
    right_prec = precedence(node.right)
    right_needs = right_prec < prec or isinstance(node.right, Neg) or (
        node.op in "-/" and right_prec == prec
    )
    right_text = _text(node.right)
    # A right operand whose own text starts with a minus (a sum whose first term is negated)
    # would read back as a different tree: "0 + -(a) + b".
    right = _wrap(right_text, right_needs or right_text.startswith("-"))
    if node.op in "+-":
        return f"{left} {node.op} {right}"
    return f"{left}{node.op}{right}"


# --------------------------------------------------------------------------- LaTeX


def to_latex(expr: Rooted | Node) -> str:
    """Canonical LaTeX: ``\\frac``, ``\\cdot``, Greek letters, each function's own form."""
    return _latex(_root(expr))


def latex_name(name: str) -> str:
    """A variable's LaTeX: Greek letters as commands, subscripts after ``_``."""
    base, _, subscript = name.partition("_")
    if base in GREEK_NAMES:
        if base == "omicron":
            head = "o"
        elif base == "epsilon":
            head = r"\varepsilon"
        else:
            head = "\\" + base
    elif len(base) == 1:
        head = base
    else:
        head = r"\mathrm{" + base + "}"
    if not subscript:
        return head
    pieces = [latex_name(p) if p in GREEK_NAMES else p for p in subscript.split("_")]
    sub = ",".join(p if len(p) <= 2 or p.startswith("\\") else r"\mathrm{" + p + "}"
                   for p in pieces)
    return f"{head}_{{{sub}}}"


def _latex_number(text: str) -> str:
    if "e" in text:
        mantissa, exponent = text.split("e")
        return rf"{mantissa} \times 10^{{{exponent}}}"
    return text


def _paren(text: str, needed: bool) -> str:
    return rf"\left({text}\right)" if needed else text


_CONSTANTS = {"pi": r"\pi", "e": "e", "oo": r"\infty", "i": r"\mathrm{i}", "j": r"\mathrm{j}"}


def _latex(node: Node) -> str:
    if isinstance(node, Num):
        return _latex_number(node.text)
    if isinstance(node, Var):
        return latex_name(node.name)
    if isinstance(node, Const):
        return _CONSTANTS[node.name]
    if isinstance(node, Neg):
        return "-" + _paren(_latex(node.operand), precedence(node.operand) < BP_UNARY)
    if isinstance(node, Abs):
        return rf"\left|{_latex(node.operand)}\right|"
    if isinstance(node, Call):
        return _latex_call(node)
    if isinstance(node, Pow):
        base = _paren(_latex(node.base), precedence(node.base) <= BP_POW
                      or _scientific(node.base))
        return f"{{{base}}}^{{{_latex(node.exponent)}}}"
    if node.op == "/":
        return rf"\frac{{{_latex(node.left)}}}{{{_latex(node.right)}}}"
    prec = precedence(node)
    left = _paren(_latex(node.left), precedence(node.left) < prec)
    right_needs = precedence(node.right) < prec or isinstance(node.right, Neg) or (
        node.op == "-" and precedence(node.right) == prec
    )
    right = _paren(_latex(node.right), right_needs)
    if node.op == "*":
        return rf"{left} \cdot {right}"
    return f"{left} {node.op} {right}"


def _latex_call(node: Call) -> str:
    args = [_latex(a) for a in node.args]
    fn = registry.find(node.func)
    if fn is not None:
        return fn.latex(args, [_atomic_for_postfix(a) for a in node.args])
    head = (latex_name(node.func) if len(node.func) == 1 or node.func in GREEK_NAMES
            else r"\operatorname{" + node.func.replace("_", r"\_") + "}")
    return head + r"\left(" + ", ".join(args) + r"\right)"
