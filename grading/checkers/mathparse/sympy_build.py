"""sympy objects built from a tree node by node (never from a string).

Numbers become exact ``Rational``s, variables ``Symbol``s with the given assumptions (or the
substituted values of parameters), registry functions their sympy counterparts, declared
functions undefined sympy ``Function``s. List parameters are combined elementwise and reduced
by the list functions (dot, sum, mean, len) of references. Matrix parameters are sympy
matrices: ``*`` of two is the matrix product, other arithmetic and functions go entry by
entry (see matrix_functions.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sympy

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.expr import Expr
from grading.checkers.mathparse.matrix_functions import m_inverse, shape_text
from grading.checkers.mathparse.nodes import Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var

__all__ = ["sympy_text", "to_sympy"]


def to_sympy(
    expr: Expr | Node,
    *,
    substitutions: Mapping[str, Any] | None = None,
    assumptions: Mapping[str, bool] | None = None,
) -> Any:
    """Build the sympy object for ``expr`` node by node (never from a string).

    ``substitutions`` maps names to sympy values or lists of them (list parameters, used by
    dot/sum/mean/len and elementwise arithmetic). Other variables become Symbols with the
    given ``assumptions`` (default: real). Raises ValueError for a misuse of lists, or when
    sympy itself fails on the expression (its internals raise assorted exceptions).
    """
    node = expr.node if isinstance(expr, Expr) else expr
    builder = _SympyBuilder(substitutions or {}, dict(assumptions or {"real": True}))
    try:
        return builder.build(node)
    except ValueError:
        raise
    except Exception as exc:  # sympy internals: AssertionError, PolynomialError, TypeError...
        raise ValueError(f"sympy cannot represent this expression ({exc!r})") from exc


def _sympy_power(base: Any, exponent: Any) -> Any:
    """``base^exponent``; a number to a fractional power stays unevaluated.

    sympy would otherwise try to extract exact roots of possibly large rationals, which can
    take seconds; evalf and simplify still see through the unevaluated power.
    """
    if isinstance(base, sympy.Rational) and isinstance(exponent, sympy.Rational) \
            and not isinstance(exponent, sympy.Integer):
        return sympy.Pow(base, exponent, evaluate=False)
    return sympy.Pow(base, exponent)


_BINOPS: Mapping[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: sympy.Add(a, b),
    "-": lambda a, b: sympy.Add(a, sympy.Mul(-1, b)),
    "*": lambda a, b: sympy.Mul(a, b),
    "/": lambda a, b: sympy.Mul(a, sympy.Pow(b, -1)),
}


def _entrywise(fn: Callable[..., Any], values: Sequence[Any]) -> Any:
    """``fn`` applied to each entry of the matrices among ``values`` (one shape; scalars
    broadcast), as numpy applies functions: exp(A) is the matrix of exp(a_ij)."""
    matrices = [v for v in values if isinstance(v, sympy.MatrixBase)]
    shape = matrices[0].shape
    if any(m.shape != shape for m in matrices) or any(isinstance(v, list) for v in values):
        raise ValueError("matrices of different shapes are combined entry by entry")
    rows, cols = shape
    return sympy.ImmutableMatrix(rows, cols, [
        fn(*(v[i, j] if isinstance(v, sympy.MatrixBase) else v for v in values))
        for i in range(rows) for j in range(cols)
    ])


def _column(value: Any) -> Any:
    return sympy.ImmutableMatrix(len(value), 1, value) if isinstance(value, list) else value


def _matrix_binop(op: str, left: Any, right: Any) -> Any:
    """Arithmetic with a matrix: ``*`` of two matrices is the matrix product; otherwise
    entry by entry, a scalar broadcasting (``A/sqrt(d)``, ``A - 1``); a list is a column."""
    left, right = _column(left), _column(right)
    both = isinstance(left, sympy.MatrixBase) and isinstance(right, sympy.MatrixBase)
    if op == "*" and both:
        if left.cols != right.rows:
            raise ValueError(f"cannot multiply a {shape_text(left)} matrix by a "
                             f"{shape_text(right)} matrix")
        return sympy.ImmutableMatrix(left * right)
    if op == "/" and isinstance(right, sympy.MatrixBase):
        raise ValueError("cannot divide by a matrix (use inverse(B))")
    return _entrywise(_BINOPS[op], [left, right])


def _matrix_power(base: Any, exponent: Any) -> Any:
    """``A^n`` for a square matrix and a whole n (``A^-1`` is the inverse)."""
    if not isinstance(exponent, sympy.Integer) or base.rows != base.cols \
            or abs(int(exponent)) > 100:
        raise ValueError("a matrix power needs a square matrix and a whole exponent "
                         "(at most 100)")
    if int(exponent) < 0:
        return sympy.ImmutableMatrix(m_inverse(base) ** -int(exponent))
    return sympy.ImmutableMatrix(base ** int(exponent))


class _SympyBuilder:
    def __init__(self, substitutions: Mapping[str, Any], assumptions: dict[str, bool]) -> None:
        self.substitutions = substitutions
        self.assumptions = assumptions
        self.symbols: dict[str, Any] = {}

    def symbol(self, name: str) -> Any:
        if name not in self.symbols:
            self.symbols[name] = sympy.Symbol(name, **self.assumptions)
        return self.symbols[name]

    @staticmethod
    def lift(fn: Callable[..., Any], *values: Any) -> Any:
        if any(isinstance(v, sympy.MatrixBase) for v in values):
            return _entrywise(fn, values)
        lists = [v for v in values if isinstance(v, list)]
        if not lists:
            return fn(*values)
        length = len(lists[0])
        if any(len(v) != length for v in lists):
            raise ValueError("lists of different lengths are combined")
        return [fn(*(v[k] if isinstance(v, list) else v for v in values)) for k in range(length)]

    def build(self, node: Node) -> Any:
        if isinstance(node, Num):
            return sympy.Rational(node.value.numerator, node.value.denominator)
        if isinstance(node, Var):
            if node.name in self.substitutions:
                return self.substitutions[node.name]
            return self.symbol(node.name)
        if isinstance(node, Const):
            return {"pi": sympy.pi, "e": sympy.E, "oo": sympy.oo, "i": sympy.I,
                    "j": sympy.I}[node.name]
        if isinstance(node, Neg):
            return self.lift(lambda x: -x, self.build(node.operand))
        if isinstance(node, Abs):
            return self.lift(sympy.Abs, self.build(node.operand))
        if isinstance(node, BinOp):
            left, right = self.build(node.left), self.build(node.right)
            if isinstance(left, sympy.MatrixBase) or isinstance(right, sympy.MatrixBase):
                return _matrix_binop(node.op, left, right)
            return self.lift(_BINOPS[node.op], left, right)
        if isinstance(node, Pow):
            base, exponent = self.build(node.base), self.build(node.exponent)
            if isinstance(base, sympy.MatrixBase):
                return _matrix_power(base, exponent)
            return self.lift(_sympy_power, base, exponent)
        return self.call(node)

    def call(self, node: Call) -> Any:
        args = [self.build(arg) for arg in node.args]
        fn = registry.find(node.func)
        if fn is None:
            return self.lift(sympy.Function(node.func), *args)
        if fn.lists:
            return fn.sympy(*args)
        return self.lift(fn.sympy, *args)


def sympy_text(expr: Any) -> str:
    """A sympy expression written in our grammar, ``^`` for powers and ``e`` for E (used
    only for keys computed from authors' references, never for student text)."""
    text = sympy.sstr(expr, full_prec=False)
    return re.sub(r"\bE\b", "e", text.replace("**", "^"))

