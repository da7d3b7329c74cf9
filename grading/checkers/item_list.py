"""Lists of words and mixed items (``type = "item_list"``): each item its own comparer.

The MITx grading library's ``SingleListGrader`` (one box, entries split at a delimiter) and
``ListGrader`` (several boxes graded together, in any order): every expected item is a part
spec of its own (``string``, ``numeric``, ``symbolic``, ``quantity``, ``integer``, ``set``,
...) with its own key, tolerance, alternatives (with their credit) and misconceptions. An
entry earns the best score any item gives it; unordered lists (the default) pair entries and
items by a maximum-weight assignment, so each item is used once and a tolerance or partial
credit cannot make a greedy pairing miss. The score is MITx's: the sum over the pairs, less
one for each entry beyond the items expected, divided by the number of items, never below 0
(``cat, dog, moose`` for cat and dog earns 1/2); without ``partial`` it is all or nothing.
The feedback of an item's partial alternative or misconception is passed on. Several boxes
are one list: the answer form joins several ``answer`` values with commas.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import Answer, Checker, Verdict, feedback
from grading.checkers.mathparse import FormatError
from grading.checkers.pipeline import grade_with, validate_with
from grading.checkers.structure import Piece, bracket_pairs, check_length, split_top, structural

__all__ = ["ItemListAnswer", "ItemListChecker", "best_assignment"]

MAX_ITEMS = 40
DELIMITERS = (",", ";")


@dataclass(frozen=True)
class ItemListAnswer(Answer):
    """The entries as typed, each with its 0-based offset in the answer."""

    entries: tuple[tuple[str, int], ...] = ()


def _items(spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = spec.get("items") or []
    return [item for item in items if isinstance(item, Mapping)]


def split_entries(raw: str, delimiter: str) -> list[tuple[str, int]]:
    """The entries of ``raw`` at ``delimiter`` outside brackets, each with its offset."""
    check_length(raw)
    text = structural(raw)
    if not text.strip():
        raise FormatError("empty answer", None)
    pieces = split_top(text, Piece(text, 0), delimiter, bracket_pairs(text))
    if len(pieces) > MAX_ITEMS:
        raise FormatError(f"a list of at most {MAX_ITEMS} entries is accepted", None)
    entries = []
    for index, piece in enumerate(pieces, start=1):
        stripped = piece.stripped
        if not stripped.text:
            position = piece.offset + 1
            raise FormatError(f"entry {index} is missing (two '{delimiter}' in a row?) at "
                              f"character {position}", position)
        entries.append((raw[stripped.offset:stripped.offset + len(stripped.text)],
                        stripped.offset))
    return entries


def best_assignment(weights: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """Rows paired with distinct columns so that the sum of weights is greatest (the
    Hungarian method on the square matrix padded with zeros; O(n^3), n at most 40)."""
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    n = max(rows, cols)
    if n == 0:
        return []
    cost = [[-(weights[i][j] if i < rows and j < cols else 0.0) for j in range(n)]
            for i in range(n)]
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    owner, way = [0] * (n + 1), [0] * (n + 1)
    for i in range(1, n + 1):
        owner[0], j0 = i, 0
        least = [float("inf")] * (n + 1)
        used = [False] * (n + 1)
        while owner[j0] != 0:
            used[j0] = True
            i0, delta, j1 = owner[j0], float("inf"), 0
            for j in range(1, n + 1):
                if not used[j]:
                    current = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if current < least[j]:
                        least[j], way[j] = current, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return [(owner[j] - 1, j - 1) for j in range(1, n + 1)
            if owner[j] - 1 < rows and j - 1 < cols]


def _shifted(exc: FormatError, offset: int) -> FormatError:
    message = re.sub(r"character (\d+)", lambda m: f"character {int(m.group(1)) + offset}",
                     exc.message)
    return FormatError(message, exc.position + offset if exc.position else exc.position)


class ItemListChecker(Checker[ItemListAnswer]):
    """Entries matched to items, each item graded by its own spec (see the module)."""

    type_name = "item_list"
    spec_keys = frozenset({"items", "ordered", "partial", "delimiter"})

    def __init__(self, checker_for: Callable[[Mapping[str, Any]], Checker[Any]]) -> None:
        """``checker_for`` is the registry's dispatch (an item is any answer type's spec)."""
        self._checker_for = checker_for

    def parse(self, raw: str, spec: Mapping[str, Any]) -> ItemListAnswer:
        checker_for = self._checker_for
        entries = split_entries(raw if isinstance(raw, str) else "",
                                str(spec.get("delimiter", ",")))
        for text, offset in entries:  # every entry must be readable by some item's type
            errors: list[FormatError] = []
            for item in _items(spec):
                try:
                    checker_for(item).parse(text, item)
                    break
                except FormatError as exc:
                    errors.append(exc)
            else:
                if errors:  # the reading that went furthest, a suggestion preferred
                    best = max(errors, key=lambda e: (e.position or 0, "did you mean" in
                                                      e.message, "may use" in e.message))
                    raise _shifted(best, offset)
        canonical = f"{spec.get('delimiter', ',')} ".join(text for text, _ in entries)
        return ItemListAnswer(raw=raw, canonical=canonical, entries=tuple(entries))

    def check(self, answer: ItemListAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        items = _items(spec)
        results = [[grade_with(self._checker_for(item), text, item, params) for item in items]
                   for text, _ in answer.entries]
        weights = [[r.score or 0.0 for r in row] for row in results]
        if spec.get("ordered"):
            pairs = [(k, k) for k in range(min(len(results), len(items)))]
        else:
            pairs = best_assignment(weights)
        total = sum(weights[i][j] for i, j in pairs)
        extra = max(0, len(results) - len(items))
        score = max(0.0, (total - extra) / (len(items) or 1))
        if score >= 1 - 1e-12:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        tags = [results[i][j].misconception for i, j in pairs if results[i][j].misconception]
        if not spec.get("partial", True):
            score = 0.0
        message = feedback(spec, False)
        right = sum(1 for i, j in pairs if weights[i][j] >= 1)
        if "feedback_incorrect" not in spec:
            message += f" {right} of {len(items)} items are right."
            if len(results) > len(items):
                message += " There are more entries than items asked for."
            elif len(results) < len(items):
                message += " Some items are missing."
        notes = [results[i][j].feedback for i, j in pairs
                 if results[i][j].misconception or 0 < weights[i][j] < 1]
        if notes:
            message += " " + " ".join(notes)
        return Verdict(score, "partial" if score > 0 else "incorrect", message,
                       tags[0] if tags else None, [], answer.canonical)

    def _item_problems(self, item: Mapping[str, Any]) -> list[str]:
        try:
            checker = self._checker_for(item)
        except ValueError as exc:
            return [str(exc)]
        return validate_with(checker, item)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        checker_for = self._checker_for
        delimiter = str(spec.get("delimiter", ","))
        return f"{delimiter} ".join(checker_for(item).reference_answer(item, params)
                                    for item in _items(spec))

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        items = spec.get("items")
        if not isinstance(items, list) or not items or len(items) > MAX_ITEMS \
                or not all(isinstance(item, Mapping) for item in items):
            problems.append(f"'items' must be a list of 1 to {MAX_ITEMS} part specs")
            return problems
        for index, item in enumerate(items, start=1):
            if item.get("type") == "item_list":
                problems.append(f"'items' entry {index}: an item cannot be a list of items")
                continue
            problems += [f"'items' entry {index}: {p}" for p in self._item_problems(item)]
        if spec.get("delimiter", ",") not in DELIMITERS:
            problems.append(f"'delimiter' must be one of {' '.join(DELIMITERS)}")
        for key in ("ordered", "partial"):
            if key in spec and not isinstance(spec[key], bool):
                problems.append(f"'{key}' must be true or false")
        return problems
