"""Matching grids: each row (a statement) matched to one column (an option).

PrairieLearn's ``pl-matching`` and Numbas' "match choices with answers" part: rows and columns
are keys of the spec; the answer pairs them, ``a=x, b=y`` (``:`` or ``->`` also pair; ``,``,
``;`` or a line break separate). Each row takes one column; a column may serve several rows
unless ``distinct`` (then a column used twice is invalid). With ``partial`` (the default, as
pl-matching gives "partial credit for each correct match") the score is the fraction of rows
right, less ``penalty`` per wrong pair (Numbas' marks for a wrong choice), never below 0;
without it, all rows must be right. A row left out is wrong. Unknown keys are invalid with
their position and the closest key ("did you mean"). A misconception's ``answer`` is one or
more pairs the answer contains.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Outcome,
    Verdict,
    check_misconception_shapes,
    feedback,
    is_number,
    misconception_list,
)
from grading.checkers.mathparse import FormatError

__all__ = ["MatchingAnswer", "MatchingChecker"]

MAX_MATCHING_LENGTH = 2000
MAX_ROWS = 100
_PAIR = re.compile(r"\s*([^=:,;\n]+?)\s*(?:=|:|->|→)\s*([^,;\n]+?)\s*(?:[,;\n]|$)")


@dataclass(frozen=True)
class MatchingAnswer(Answer):
    """The pairs given, row key to column key, in the spec's spelling."""

    pairs: tuple[tuple[str, str], ...] = ()


def _keys(spec: Mapping[str, Any], name: str) -> list[str]:
    value = spec.get(name) or []
    return [str(v["key"]) if isinstance(v, Mapping) else str(v) for v in value]


def _correct(spec: Mapping[str, Any]) -> dict[str, str]:
    value = spec.get("correct") or {}
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, Mapping) else {}


def read_pairs(raw: str, rows: list[str], columns: list[str],
               distinct: bool = False) -> tuple[tuple[str, str], ...]:
    """The pairs of ``raw``; FormatError with the position for anything else."""
    text = raw if isinstance(raw, str) else ""
    if len(text) > MAX_MATCHING_LENGTH:
        raise FormatError("the answer is too long", None)
    if not text.strip():
        raise FormatError("empty answer: match each row, as a=x, b=y", None)
    pairs: dict[str, str] = {}
    used: dict[str, int] = {}
    at = 0
    while at < len(text) and text[at:].strip():
        match = _PAIR.match(text, at)
        if match is None:
            position = at + len(text[at:]) - len(text[at:].lstrip()) + 1
            raise FormatError(f"write each match as row=option, as a=x (character {position})",
                              position)
        row = _known(match.group(1), rows, match.start(1) + 1, "row")
        column = _known(match.group(2), columns, match.start(2) + 1, "option")
        if row in pairs:
            raise FormatError(f"row '{row}' is matched twice (again at character "
                              f"{match.start(1) + 1})", match.start(1) + 1)
        if distinct and column in used:
            raise FormatError(f"option '{column}' is used twice (again at character "
                              f"{match.start(2) + 1}); each option matches one row",
                              match.start(2) + 1)
        pairs[row] = column
        used[column] = match.start(2) + 1
        at = match.end()
        if len(pairs) > MAX_ROWS:
            raise FormatError("too many matches", match.start(1) + 1)
    return tuple(sorted(pairs.items()))


def _known(word: str, keys: list[str], position: int, what: str) -> str:
    if word in keys:
        return word
    lowered = {k.lower(): k for k in keys}
    if word.lower() in lowered:
        return lowered[word.lower()]
    close = difflib.get_close_matches(word, keys, n=1, cutoff=0.5)
    hint = f": did you mean '{close[0]}'?" if close else f" (the {what}s are {', '.join(keys)})"
    raise FormatError(f"unknown {what} '{word}' at character {position}{hint}", position)


class MatchingChecker(Checker[MatchingAnswer]):
    """Rows matched to columns, per-row credit (see the module docstring)."""

    type_name = "matching"
    spec_keys = frozenset({"rows", "columns", "correct", "partial", "penalty", "distinct"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> MatchingAnswer:
        pairs = read_pairs(raw, _keys(spec, "rows"), _keys(spec, "columns"),
                           bool(spec.get("distinct")))
        canonical = ", ".join(f"{row}={column}" for row, column in pairs)
        return MatchingAnswer(raw=raw, canonical=canonical, latex="", pairs=pairs)

    def check(self, answer: MatchingAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        correct = _correct(spec)
        given = dict(answer.pairs)
        right = [row for row, column in correct.items() if given.get(row) == column]
        wrong = [row for row in given if correct.get(row) != given[row]]
        if len(right) == len(correct) and not wrong:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        score = 0.0
        if spec.get("partial", True) and correct:
            penalty = float(spec.get("penalty", 0) or 0)
            score = max(0.0, (len(right) - penalty * len(wrong)) / len(correct))
        outcome: Outcome = "partial" if score > 0 else "incorrect"
        for item in misconception_list(spec):
            try:
                wanted = read_pairs(str(item.get("answer", "")), _keys(spec, "rows"),
                                    _keys(spec, "columns"))
            except FormatError:
                continue
            if set(wanted) <= set(answer.pairs):
                return Verdict(score, outcome, str(item.get("feedback", "")),
                               str(item.get("tag")), [], answer.canonical)
        missing = [row for row in correct if row not in given]
        message = feedback(spec, False)
        if "feedback_incorrect" not in spec:
            message += f" {len(right)} of {len(correct)} rows are matched right."
            if missing:
                message += f" Rows not matched: {', '.join(missing)}."
        return Verdict(score, outcome, message, None, [], answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        return ", ".join(f"{row}={column}" for row, column in sorted(_correct(spec).items()))

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        rows, columns, correct = _keys(spec, "rows"), _keys(spec, "columns"), _correct(spec)
        if not rows or not columns:
            problems.append("'rows' and 'columns' must be non-empty lists of keys")
        if not isinstance(spec.get("correct"), Mapping) or not correct:
            problems.append("'correct' must map each row to its column: { a = \"x\" }")
        problems += [f"'correct' names an unknown row '{row}'" for row in correct
                     if row not in rows]
        problems += [f"'correct' names an unknown option '{column}'"
                     for column in correct.values() if column not in columns]
        problems += [f"'correct' does not match row '{row}'" for row in rows
                     if row not in correct]
        if spec.get("distinct") and len(set(correct.values())) < len(correct):
            problems.append("'distinct' is set but 'correct' uses an option twice")
        for key in ("partial", "distinct"):
            if key in spec and not isinstance(spec[key], bool):
                problems.append(f"'{key}' must be true or false")
        if "penalty" in spec and not (is_number(spec["penalty"]) and 0 <= spec["penalty"] <= 1):
            problems.append("'penalty' must be a number from 0 to 1")
        problems += check_misconception_shapes(spec)
        return problems
