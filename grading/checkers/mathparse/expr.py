"""``Expr``: a parsed answer, the root node of its tree with the text it was read from."""

from __future__ import annotations

from dataclasses import dataclass

from grading.checkers.mathparse.nodes import Abs, Call, Node, Var, walk
from grading.checkers.mathparse.render import to_latex, to_text

__all__ = ["Expr"]


@dataclass(frozen=True)
class Expr:
    """A parsed answer: the root node plus the text it was read from."""

    node: Node
    source: str = ""

    @property
    def free_variables(self) -> frozenset[str]:
        """Names of the variables the expression uses."""
        return frozenset(n.name for n in walk(self.node) if isinstance(n, Var))

    @property
    def functions_used(self) -> frozenset[str]:
        """Names of the functions the expression applies (``abs`` included)."""
        names = {n.func for n in walk(self.node) if isinstance(n, Call)}
        if any(isinstance(n, Abs) for n in walk(self.node)):
            names.add("abs")
        return frozenset(names)

    @property
    def node_count(self) -> int:
        """Number of nodes in the tree."""
        return sum(1 for _ in walk(self.node))

    def to_text(self) -> str:
        """Canonical plain-text rendering (see ``render.to_text``)."""
        return to_text(self.node)

    def to_latex(self) -> str:
        """Canonical LaTeX rendering (see ``render.to_latex``)."""
        return to_latex(self.node)
