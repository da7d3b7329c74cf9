"""sympy objects built from a tree node by node (never from a string).

Numbers become exact ``Rational``s, variables ``Symbol``s with the given assumptions (or the
substituted values of parameters), registry functions their sympy counterparts, declared
functions undefined sympy ``Function``s. List parameters are combined elementwise and reduced
by the list functions (dot, sum, mean, len) of references.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.nodes import Abs, BinOp, Call, Const, Expr, Neg, Node, Num, Pow, Var

__all__ = ["to_sympy"]


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
            return {"pi": sympy.pi, "e": sympy.E, "oo": sympy.oo}[node.name]
        if isinstance(node, Neg):
            return self.lift(lambda x: -x, self.build(node.operand))
        if isinstance(node, Abs):
            return self.lift(sympy.Abs, self.build(node.operand))
        if isinstance(node, BinOp):
            left, right = self.build(node.left), self.build(node.right)
            return self.lift(_BINOPS[node.op], left, right)
        if isinstance(node, Pow):
            return self.lift(_sympy_power, self.build(node.base), self.build(node.exponent))
        return self.call(node)

    def call(self, node: Call) -> Any:
        args = [self.build(arg) for arg in node.args]
        fn = registry.find(node.func)
        if fn is None:
            return self.lift(sympy.Function(node.func), *args)
        if fn.lists:
            return fn.sympy(*args)
        return self.lift(fn.sympy, *args)
