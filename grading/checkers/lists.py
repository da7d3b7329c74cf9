"""List answers (``type = "list"``): several numbers or expressions, ordered or not.

``2, -3`` (or ``[2, -3]``, ``(2, -3)``): the roots of an equation, the entries of a table.
By default (as WeBWorK's List) order does not count and the list is a multiset: each entry of
the key is matched by one entry of the answer. ``ordered = true`` compares position by
position. ``duplicates`` says what a repeated entry means: ``"count"`` (default: it must be
repeated in the key too), ``"ignore"`` (repeats are dropped, as in a set) or ``"refuse"`` (a
repeated entry makes the answer invalid, with the two positions). ``partial = true`` gives
right entries / max(entries given, entries expected), WeBWorK's rule. Braces are a set's
and mismatched brackets are nobody's: both are invalid with a message.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    functions_of,
    is_number,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import Expr, FormatError, parse
from grading.checkers.numeric import TOLERANCE_KEYS, validate_tolerance
from grading.checkers.realsets import compare_numbers
from grading.checkers.refs import Number, answer_number, parse_reference, reference_numbers
from grading.checkers.sampling import DOMAINS, compare
from grading.checkers.structure import (
    Piece,
    bracket_pairs,
    check_length,
    outer_pair,
    split_top,
    structural,
)
from grading.checkers.symbolic import SymbolicChecker
from grading.checkers.tolerance import Tolerance

__all__ = ["DUPLICATE_RULES", "ListAnswer", "ListChecker", "read_list"]

DUPLICATE_RULES = ("count", "ignore", "refuse")
MAX_ENTRIES = 200
MAX_SYMBOLIC_ENTRIES = 40  # each pair of symbolic entries is a sampled comparison


@dataclass(frozen=True)
class ListAnswer(Answer):
    """The entries as parsed expressions."""

    exprs: tuple[Expr, ...] = ()


def read_list(raw: str, *, variables: Sequence[str], functions: Any,
              limit: int = MAX_ENTRIES, what: str = "list") -> list[Expr]:
    """The comma-separated entries of ``raw``, bare or in one pair of ``[ ]`` or ``( )``.

    FormatError (with the position in ``raw``) for braces, mismatched brackets, an empty
    entry or too many entries."""
    check_length(raw)
    if raw.count(",") + raw.count("\uff0c") >= limit:  # refused before any reading
        raise FormatError(f"a {what} of at most {limit} entries is accepted", None)
    text = structural(raw)
    whole = Piece(text, 0).stripped
    if not whole.text:
        raise FormatError("empty answer", None)
    pairs = bracket_pairs(text)
    enclosed = outer_pair(text, whole, pairs)
    body = whole
    if enclosed is not None:
        opener, closer = enclosed
        end = whole.offset + len(whole.text)
        if opener == "{" or closer == "}":
            raise FormatError(
                f"braces at character {whole.offset + 1} write a set; write the {what} as "
                f"2, -3 or [2, -3]", whole.offset + 1)
        if {"(": ")", "[": "]"}[opener] != closer:
            raise FormatError(
                f"the bracket {raw[whole.offset]!r} at character {whole.offset + 1} is closed "
                f"by {raw[end - 1]!r} at character {end}: write the {what} as 2, -3 or "
                f"[2, -3]", end)
        inner = Piece(text[whole.offset + 1:end - 1], whole.offset + 1)
        if len(split_top(text, inner, ",", pairs)) > 1 or not inner.text.strip():
            body = inner
    pieces = split_top(text, body, ",", pairs)
    if len(pieces) > limit:
        raise FormatError(f"a {what} of at most {limit} entries is accepted", None)
    exprs = []
    for index, piece in enumerate(pieces, start=1):
        if not piece.text.strip():
            pos = piece.offset + 1
            raise FormatError(f"entry {index} is missing (two commas in a row, or a comma at "
                              f"the end?) at character {pos}", pos)
        exprs.append(parse(raw[piece.offset:piece.offset + len(piece.text)],
                           variables=variables, functions=functions, offset=piece.offset))
    return exprs


class _Entries:
    """Entry comparison for one part: numbers with the tolerance, or expressions in the
    declared variables by sampling."""

    def __init__(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> None:
        self.spec = spec
        self.params = params
        self.variables = names_of(spec, "variables")
        self.functions = functions_of(spec)
        self.symbolic = bool(self.variables)
        self.tolerance = Tolerance.from_spec(spec)
        self.domain = "real" if spec.get("domain") == "real" else "positive"

    def values(self, exprs: Sequence[Expr]) -> list[Any]:
        if self.symbolic:
            return list(exprs)
        out = []
        for expr in exprs:
            number = answer_number(expr, self.params)
            if not number.is_finite:
                raise FormatError(f"'{expr.to_text()}' has no finite value", None)
            out.append(number)
        return out

    def key(self, reference: object) -> list[Any]:
        if self.symbolic:
            items = reference if isinstance(reference, list) else [reference]
            return [parse_reference(item, self.params, variables=self.variables,
                                    functions=self.functions) for item in items]
        return reference_numbers(reference, self.params)

    def same(self, a: Any, b: Any, tolerance: Tolerance | None = None) -> bool:
        if self.symbolic:
            rtol, atol = self.spec.get("rtol"), self.spec.get("atol")
            return compare(a, b, self.variables, functions=self.functions, params=self.params,
                           use_sympy=False, domain=self.domain,  # type: ignore[arg-type]
                           rtol=float(rtol) if rtol is not None and is_number(rtol) else None,
                           atol=float(atol) if atol is not None and is_number(atol) else None
                           ).status == "equal"
        return (tolerance or self.tolerance).accepts(a, b)

    def text(self, value: Any) -> str:
        if isinstance(value, Number):
            return _number_text(value)
        return str(value.to_text())


def _number_text(number: Number) -> str:
    if number.exact is not None and number.exact.denominator == 1:
        return str(number.exact.numerator)
    if number.exact is not None and number.exact.denominator < 10**6:
        return f"{number.exact.numerator}/{number.exact.denominator}"
    return repr(number.value)


def max_matching(answer: Sequence[Any], key: Sequence[Any], same: Any) -> int:
    """The most entries of ``answer`` that can be paired with distinct entries of ``key``
    (bipartite matching by augmenting paths: tolerances make greedy pairing unsafe)."""
    edges = [[j for j, k in enumerate(key) if same(a, k)] for a in answer]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return sum(1 for i in range(len(answer)) if augment(i, set()))


class ListChecker(Checker[ListAnswer]):
    """Entries compared as a multiset (default) or in order, with an author's duplicates
    rule and optional partial credit."""

    type_name = "list"
    spec_keys = frozenset({*TOLERANCE_KEYS, "ordered", "duplicates", "partial", "domain"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> ListAnswer:
        variables = names_of(spec, "variables")
        limit = MAX_SYMBOLIC_ENTRIES if variables else MAX_ENTRIES
        exprs = read_list(raw or "", variables=variables, functions=functions_of(spec),
                          limit=limit)
        if not variables:
            for expr in exprs:
                if expr.free_variables:
                    continue
                number = answer_number(expr, {})
                if not number.is_finite:
                    raise FormatError(f"'{expr.to_text()}' has no finite value", None)
        canonical = ", ".join(e.to_text() for e in exprs)
        latex = ", ".join(e.to_latex() for e in exprs)
        return ListAnswer(raw=raw, canonical=canonical, latex=latex, exprs=tuple(exprs))

    def check(self, answer: ListAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        entries = _Entries(spec, params or {})
        values = entries.values(answer.exprs)
        rule = spec.get("duplicates", "count")
        ordered = bool(spec.get("ordered"))
        if rule in ("ignore", "refuse"):
            first_seen: list[int] = []
            for i, value in enumerate(values):
                twin = next((j for j in first_seen if entries.same(value, values[j])), None)
                if twin is None:
                    first_seen.append(i)
                elif rule == "refuse":
                    raise FormatError(f"entry {i + 1} repeats entry {twin + 1}: each entry "
                                      f"may appear once", None)
            if rule == "ignore":
                values = [values[i] for i in first_seen]
        key = entries.key(spec["reference"])
        if rule == "ignore":
            key = [k for i, k in enumerate(key)
                   if not any(entries.same(k, key[j]) for j in range(i))]
        canonical = self._canonical(values, entries, ordered)
        right, wrong_positions = self._score(values, key, entries, ordered)
        total = max(len(values), len(key))
        if right == total:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
        for item in misconception_list(spec):
            try:
                target = entries.key(item.get("answer"))
            except ValueError:
                continue
            tolerance = entries.tolerance.for_misconception(item)
            if len(target) == len(values) and self._score(
                values, target, entries, ordered, tolerance)[0] == len(values):
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], canonical)
        message = feedback(spec, False)
        if "feedback_incorrect" not in spec:
            hint = self._hint(values, key, right, wrong_positions, ordered)
            if ordered and len(values) == len(key) \
                    and max_matching(values, key, entries.same) == len(key):
                hint = "The entries are right but not in the right order."
            message = f"{message} {hint}"
        if spec.get("partial") and right > 0:
            return Verdict(right / total, "partial", message.strip(), None, [], canonical)
        return Verdict(0.0, "incorrect", message.strip(), None, [], canonical)

    @staticmethod
    def _score(values: Sequence[Any], key: Sequence[Any], entries: _Entries, ordered: bool,
               tolerance: Tolerance | None = None) -> tuple[int, list[int]]:
        def same(a: Any, b: Any) -> bool:
            return entries.same(a, b, tolerance)

        if ordered:
            wrong = [i + 1 for i, v in enumerate(values)
                     if i >= len(key) or not same(v, key[i])]
            return sum(1 for i, v in enumerate(values) if i < len(key) and same(v, key[i])), \
                wrong
        return max_matching(values, key, same), []

    @staticmethod
    def _hint(values: Sequence[Any], key: Sequence[Any], right: int, wrong: list[int],
              ordered: bool) -> str:
        if len(values) < len(key):
            return "There should be more entries in your list."
        if len(values) > len(key):
            return "There should be fewer entries in your list."
        if ordered and wrong:
            noun = "Entry" if len(wrong) == 1 else "Entries"
            verb = "is" if len(wrong) == 1 else "are"
            return f"{noun} {', '.join(map(str, wrong))} {verb} not right."
        wrong_count = len(values) - right
        return f"{wrong_count} of your entries {'is' if wrong_count == 1 else 'are'} not right."

    @staticmethod
    def _canonical(values: Sequence[Any], entries: _Entries, ordered: bool) -> str:
        if ordered:
            return ", ".join(entries.text(v) for v in values)
        if values and isinstance(values[0], Number):
            ordered_values = sorted(values, key=functools.cmp_to_key(compare_numbers))
            return ", ".join(entries.text(v) for v in ordered_values)
        return ", ".join(sorted(entries.text(v) for v in values))

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        entries = _Entries(spec, params)
        key = entries.key(spec["reference"])
        if entries.symbolic:
            checker = SymbolicChecker()
            return ", ".join(checker.reference_answer({**spec, "reference": r}, params)
                             for r in (spec["reference"] if isinstance(spec["reference"], list)
                                       else [spec["reference"]]))
        return ", ".join(entries.text(v) for v in key)

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        value = spec.get("reference")
        if isinstance(value, list):
            if not value or not all(isinstance(v, str | int | float)
                                    and not isinstance(v, bool) for v in value):
                problems.append("'reference' must be a non-empty list of expressions")
        elif not isinstance(value, str) or not value.strip():
            problems.append("'reference' must be a list of expressions (or one expression "
                            "giving a list)")
        problems += validate_tolerance(spec)
        for flag in ("ordered", "partial"):
            if flag in spec and not isinstance(spec[flag], bool):
                problems.append(f"'{flag}' must be true or false")
        if spec.get("duplicates", "count") not in DUPLICATE_RULES:
            problems.append(f"'duplicates' must be one of {', '.join(DUPLICATE_RULES)}")
        if spec.get("domain", "positive") not in DOMAINS:
            problems.append(f"'domain' must be one of {', '.join(sorted(DOMAINS))}")
        problems += check_misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        entries = _Entries(spec, params)
        key = entries.key(spec["reference"])
        problems = []
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = entries.key(item.get("answer"))
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if len(target) == len(key) and self._score(
                    target, key, entries, bool(spec.get("ordered")))[0] == len(key):
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') would be "
                                f"graded correct")
        return problems
