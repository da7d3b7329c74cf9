# ruff: noqa: RUF001, RUF002 - maths symbols are the point here
"""Sets of real numbers: finite sets, intervals and unions, read, reduced and compared.

Notation (as WeBWorK's Interval/Set/Union and STACK's real sets): ``{1, 2, 3}``; the empty
set ``{}``, ``∅``, ``empty``, ``none`` or ``no solution``; intervals ``(0, 1]``, ``[2, oo)``
(an infinite end is open: ``[-oo, 1]`` is invalid, as WeBWorK's "Infinite endpoints must be
open");
``R`` or ``ℝ`` for every real; unions ``(-oo, 0) U (1, oo)`` or with ``∪``. ``[a, a]`` is the
point ``{a}``; ``(a, a)``, ``(a, a]`` and an interval whose left end exceeds its right are
invalid, as are brackets that are not an interval's (``{0, 1)``).

A set is reduced to its canonical form (disjoint components in increasing order, each an
interval or a single point) with exact comparisons of the endpoints (exact rationals, else
40 significant digits); two sets are equal when their canonical forms have the same
components with the same kinds of ends, endpoints compared with the part's tolerance.
``reduction_problem`` says, in WeBWorK's words, why a union is not written reduced.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.mathparse import Expr, FormatError, parse
from grading.checkers.mathparse.names import Functions
from grading.checkers.numeric import format_value
from grading.checkers.refs import Number, answer_number
from grading.checkers.structure import (
    Piece,
    bracket_pairs,
    check_length,
    outer_pair,
    split_top,
    structural,
    words_at_top,
)
from grading.checkers.tolerance import Tolerance

__all__ = [
    "EMPTY_WORDS",
    "Component",
    "FiniteTerm",
    "IntervalTerm",
    "RealSet",
    "RealsTerm",
    "SetExpr",
    "Term",
    "compare_numbers",
    "evaluate_set",
    "parse_set",
    "reduction_problem",
    "sets_equal",
]

EMPTY_WORDS = ("{}", "∅", "empty", "empty set", "the empty set", "none", "no solution",
               "no solutions", "no real solution", "no real solutions")
REALS_WORDS = ("r", "ℝ", "all real numbers", "all reals", "reals")
UNION_WORDS = ("U", "∪", "union")
MAX_TERMS = 200
MAX_ELEMENTS = 200
_APPROX_SAME = Fraction(1, 10**35)


@dataclass(frozen=True)
class IntervalTerm:
    """An interval as written: brackets and endpoint expressions."""

    left: str
    lo: Expr
    hi: Expr
    right: str
    pos: int  # 1-based position of the opening bracket


@dataclass(frozen=True)
class FiniteTerm:
    """A finite set as written (possibly empty)."""

    elements: tuple[Expr, ...]
    pos: int


@dataclass(frozen=True)
class RealsTerm:
    """Every real number (``R``)."""

    pos: int


Term = IntervalTerm | FiniteTerm | RealsTerm


@dataclass(frozen=True)
class SetExpr:
    """A union of terms, as written."""

    terms: tuple[Term, ...]

    def to_text(self) -> str:
        """Canonical text, read back by ``parse_set``."""
        return " U ".join(_term_text(t) for t in self.terms) if self.terms else "{}"

    def to_latex(self) -> str:
        """LaTeX of the set as written."""
        return r" \cup ".join(_term_latex(t) for t in self.terms) if self.terms \
            else r"\varnothing"


def _term_text(term: Term) -> str:
    if isinstance(term, RealsTerm):
        return "R"
    if isinstance(term, FiniteTerm):
        return "{" + ", ".join(e.to_text() for e in term.elements) + "}"
    return f"{term.left}{term.lo.to_text()}, {term.hi.to_text()}{term.right}"


def _term_latex(term: Term) -> str:
    if isinstance(term, RealsTerm):
        return r"\mathbb{R}"
    if isinstance(term, FiniteTerm):
        if not term.elements:
            return r"\varnothing"
        return r"\left\{" + ", ".join(e.to_latex() for e in term.elements) + r"\right\}"
    left = r"\left(" if term.left == "(" else r"\left["
    right = r"\right)" if term.right == ")" else r"\right]"
    return f"{left}{term.lo.to_latex()}, {term.hi.to_latex()}{right}"


# --------------------------------------------------------------------------- reading


def parse_set(raw: str, *, variables: Sequence[str] = (), functions: Functions = ()) -> SetExpr:
    """Read a set of reals (see the module docstring); FormatError with the position in
    ``raw`` if it is not one."""
    check_length(raw)
    # Counted on the raw text, before any scanning: an over-long union or set is refused in
    # microseconds (each count may overestimate, never underestimate).
    if raw.count("U") + raw.count("\u222a") + raw.lower().count("union") >= MAX_TERMS:
        raise FormatError(f"a union of at most {MAX_TERMS} sets is accepted", None)
    if raw.count(",") + raw.count("\uff0c") >= MAX_ELEMENTS + 2 * MAX_TERMS:
        raise FormatError(f"a set of at most {MAX_ELEMENTS} elements is accepted", None)
    text = structural(raw)
    whole = Piece(text, 0).stripped
    if not whole.text:
        raise FormatError("empty answer", None)
    if whole.text.lower() in EMPTY_WORDS:
        return SetExpr(())
    pairs = bracket_pairs(text)
    cuts = words_at_top(text, whole, UNION_WORDS)
    pieces: list[Piece] = []
    start = whole.offset
    for cut_start, cut_end, _ in cuts:
        pieces.append(Piece(text[start:cut_start], start))
        start = cut_end
    pieces.append(Piece(text[start:whole.offset + len(whole.text)], start))
    if len(pieces) > MAX_TERMS:
        raise FormatError(f"a union of at most {MAX_TERMS} sets is accepted", None)
    terms = []
    for index, piece in enumerate(pieces):
        piece = piece.stripped
        if not piece.text:
            where = cuts[min(index, len(cuts) - 1)][0] + 1
            raise FormatError(f"a set is missing beside the union sign at character {where}",
                              where)
        terms.append(_term(raw, text, piece, pairs, variables, functions))
    return SetExpr(tuple(t for t in terms if not (isinstance(t, FiniteTerm)
                                                 and not t.elements and len(terms) > 1)))


def _term(raw: str, text: str, piece: Piece, pairs: dict[int, int], variables: Sequence[str],
          functions: Functions) -> Term:
    lowered = piece.text.lower()
    pos = piece.offset + 1
    if lowered in REALS_WORDS:
        return RealsTerm(pos)
    if lowered in EMPTY_WORDS:
        return FiniteTerm((), pos)
    enclosed = outer_pair(text, piece, pairs)
    if enclosed is None:
        raise FormatError(
            f"'{raw[piece.offset:piece.offset + len(piece.text)]}' at character {pos} is not "
            f"a set: write a set as {{1, 2}}, an interval as (0, 1] or [2, oo), or a union "
            f"as (-oo, 0) U (1, oo)",
            pos,
        )
    opener, closer = enclosed
    inner = Piece(text[piece.offset + 1:piece.offset + len(piece.text) - 1], piece.offset + 1)
    close_pos = piece.offset + len(piece.text)
    if opener == "{" or closer == "}":
        if opener != "{" or closer != "}":
            raise FormatError(
                f"the bracket {raw[piece.offset]!r} at character {pos} is closed by "
                f"{raw[close_pos - 1]!r} at character {close_pos}: a set is written in braces "
                f"{{1, 2}}, an interval with ( or [ and ) or ]",
                close_pos,
            )
        if not inner.text.strip():
            return FiniteTerm((), pos)
        elements = split_top(text, inner, ",", pairs)
        if len(elements) > MAX_ELEMENTS:
            raise FormatError(f"a set of at most {MAX_ELEMENTS} elements is accepted", None)
        return FiniteTerm(tuple(_expr(raw, e, variables, functions, f"element {i}")
                                for i, e in enumerate(elements, start=1)), pos)
    ends = split_top(text, inner, ",", pairs)
    if len(ends) != 2:
        raise FormatError(
            f"the interval at character {pos} needs two endpoints separated by one comma, "
            f"as in (0, 1]; a finite set is written in braces {{1, 2, 3}}",
            pos,
        )
    lo = _expr(raw, ends[0], variables, functions, "the left endpoint")
    hi = _expr(raw, ends[1], variables, functions, "the right endpoint")
    return IntervalTerm(opener, lo, hi, closer, pos)


def _expr(raw: str, piece: Piece, variables: Sequence[str], functions: Functions,
          what: str) -> Expr:
    if not piece.text.strip():
        pos = piece.offset + 1
        raise FormatError(f"{what} is missing at character {pos}", pos)
    return parse(raw[piece.offset:piece.offset + len(piece.text)], variables=variables,
                 functions=functions, offset=piece.offset, infinity=True)


# --------------------------------------------------------------------------- values


def compare_numbers(a: Number, b: Number) -> int:
    """-1, 0 or 1 as ``a`` is below, equal to or above ``b`` (exact rationals compared
    exactly; an irrational value equal to 35 significant digits counts as equal)."""
    if a.is_infinite or b.is_infinite:
        return (a.value > b.value) - (a.value < b.value)
    x, y = a.best(), b.best()
    if x == y:
        return 0
    if (a.exact is None or b.exact is None) and abs(x - y) <= _APPROX_SAME * max(abs(x), abs(y)):
        return 0
    return -1 if x < y else 1


@dataclass(frozen=True)
class Component:
    """A maximal piece of a reduced set: an interval, or a point (lo = hi, both closed)."""

    lo: Number
    hi: Number
    lo_closed: bool
    hi_closed: bool

    @property
    def is_point(self) -> bool:
        """True for a single number."""
        return self.lo_closed and self.hi_closed and compare_numbers(self.lo, self.hi) == 0


@dataclass(frozen=True)
class RealSet:
    """A reduced set of reals: disjoint components in increasing order."""

    components: tuple[Component, ...]

    def to_text(self) -> str:
        """The canonical form (values, not expressions), read back by ``parse_set``."""
        if not self.components:
            return "{}"
        out: list[str] = []
        points: list[str] = []
        for c in self.components:
            if c.is_point:
                points.append(_value_text(c.lo))
                continue
            if points:
                out.append("{" + ", ".join(points) + "}")
                points = []
            out.append(("[" if c.lo_closed else "(") + _value_text(c.lo) + ", "
                       + _value_text(c.hi) + ("]" if c.hi_closed else ")"))
        if points:
            out.append("{" + ", ".join(points) + "}")
        return " U ".join(out)


def _value_text(number: Number) -> str:
    if number.is_infinite:
        return "oo" if number.value > 0 else "-oo"
    if number.exact is not None and number.exact.denominator == 1:
        return str(number.exact.numerator)
    if number.exact is not None and number.exact.denominator < 10**6:
        return f"{number.exact.numerator}/{number.exact.denominator}"
    return format_value(number, 12)


_MINUS_INF = Number(float("-inf"))
_PLUS_INF = Number(float("inf"))


def _value(expr: Expr, params: Mapping[str, Any]) -> Number:
    value = answer_number(expr, params)
    if value.is_nan:
        raise FormatError(f"'{expr.to_text()}' has no real value", None)
    return value


def _raw_components(expr: SetExpr, params: Mapping[str, Any]) -> list[tuple[Term, Component]]:
    """Each term as components (a finite set gives one point per element), checked as
    WeBWorK checks an interval: ends in order, a single point only as [a, a]."""
    out: list[tuple[Term, Component]] = []
    for term in expr.terms:
        if isinstance(term, RealsTerm):
            out.append((term, Component(_MINUS_INF, _PLUS_INF, False, False)))
        elif isinstance(term, FiniteTerm):
            for element in term.elements:
                value = _value(element, params)
                if value.is_infinite:
                    raise FormatError(f"a set's element cannot be infinite (at character "
                                      f"{term.pos})", term.pos)
                out.append((term, Component(value, value, True, True)))
        else:
            lo, hi = _value(term.lo, params), _value(term.hi, params)
            if (lo.is_infinite and lo.value > 0) or (hi.is_infinite and hi.value < 0) \
                    or compare_numbers(lo, hi) > 0:
                raise FormatError(f"in the interval at character {term.pos} the left endpoint "
                                  f"must be less than the right endpoint", term.pos)
            if compare_numbers(lo, hi) == 0 and (term.left != "[" or term.right != "]"):
                raise FormatError(f"the interval at character {term.pos} holds no number or a "
                                  f"single one: a single point is written [a, a] or {{a}}",
                                  term.pos)
            if (lo.is_infinite and term.left == "[") or (hi.is_infinite and term.right == "]"):
                raise FormatError(f"infinite endpoints must be open (the interval at character "
                                  f"{term.pos}): write (-oo, a] or [a, oo)", term.pos)
            lo_closed = term.left == "["
            hi_closed = term.right == "]"
            out.append((term, Component(lo, hi, lo_closed, hi_closed)))
    return out


def evaluate_set(expr: SetExpr, params: Mapping[str, Any] | None = None) -> RealSet:
    """The reduced set (FormatError for an interval that is not one, or an undefined value)."""
    parts = [c for _, c in _raw_components(expr, params or {})]
    return reduce_components(parts)


def _order(c: Component) -> tuple[Fraction | float, int]:
    lo = c.lo.value if c.lo.is_infinite else c.lo.best()
    return (lo, 0 if c.lo_closed else 1)


def _hi_key(c: Component) -> Number:
    return c.hi


def _touches(a: Component, b: Component) -> bool:
    """Does ``b`` (starting at or after ``a``'s start) overlap or adjoin ``a``?"""
    order = compare_numbers(b.lo, a.hi)
    return order < 0 or (order == 0 and (a.hi_closed or b.lo_closed))


def reduce_components(parts: Sequence[Component]) -> RealSet:
    """The union of ``parts`` as disjoint components in increasing order."""
    ordered = sorted(parts, key=_order)
    merged: list[Component] = []
    for part in ordered:
        if merged and _touches(merged[-1], part):
            last = merged[-1]
            order = compare_numbers(part.hi, last.hi)
            if order > 0:
                merged[-1] = Component(last.lo, part.hi, last.lo_closed, part.hi_closed)
            elif order == 0 and part.hi_closed and not last.hi_closed:
                merged[-1] = Component(last.lo, last.hi, last.lo_closed, True)
            if compare_numbers(part.lo, last.lo) == 0 and part.lo_closed \
                    and not merged[-1].lo_closed:
                current = merged[-1]
                merged[-1] = Component(current.lo, current.hi, True, current.hi_closed)
        else:
            merged.append(part)
    return RealSet(tuple(merged))


def reduction_problem(expr: SetExpr, params: Mapping[str, Any] | None = None) -> str | None:
    """Why the set is not written in reduced form (WeBWorK's messages), or None."""
    raw = _raw_components(expr, params or {})
    finite_terms = [t for t in expr.terms if isinstance(t, FiniteTerm) and t.elements]
    points = [c for t, c in raw if isinstance(t, FiniteTerm)]
    intervals = sorted((c for t, c in raw if not isinstance(t, FiniteTerm)), key=_order)
    single = len(expr.terms) == 1
    for a, b in itertools.pairwise(intervals):
        if compare_numbers(b.lo, a.hi) < 0:
            return "Your union contains overlapping intervals."
        if _touches(a, b):
            return "Your union can be simplified by combining intervals."
    for p in points:
        for c in intervals:
            lo, hi = compare_numbers(p.lo, c.lo), compare_numbers(p.lo, c.hi)
            if (lo > 0 or (lo == 0 and c.lo_closed)) and (hi < 0 or (hi == 0 and c.hi_closed)):
                return "Your union contains sets and intervals that overlap."
            if (lo == 0 and not c.lo_closed) or (hi == 0 and not c.hi_closed):
                return "Your union can be simplified by combining some sets."
    if len(finite_terms) > 1:
        return "Your union can be simplified by combining some sets."
    ordered = sorted(points, key=_order)
    for a, b in itertools.pairwise(ordered):
        if compare_numbers(a.lo, b.lo) == 0:
            return ("Your set should have no repeated elements." if single
                    else "Your union contains sets with repeated elements.")
    return None


def sets_equal(answer: RealSet, reference: RealSet, tolerance: Tolerance) -> bool:
    """Same components, same kinds of ends, endpoints within ``tolerance``."""
    if len(answer.components) != len(reference.components):
        return False
    for a, r in zip(answer.components, reference.components, strict=True):
        if a.lo_closed != r.lo_closed or a.hi_closed != r.hi_closed:
            return False
        if not (tolerance.accepts(a.lo, r.lo) and tolerance.accepts(a.hi, r.hi)):
            return False
    return True
