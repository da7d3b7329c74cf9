# ruff: noqa: RUF001, RUF002 - full-width and maths symbols are the point here
"""The outer structure of an answer: brackets, separators and words, before any maths is read.

Sets, intervals, lists and relations are written around expressions (``(0, 1]``,
``{1, 2}``, ``2, -3``, ``-2 <= x < 5``). This module finds that structure in the student's
text one character for one, so every offset is a position in the student's own characters,
and hands the pieces between to the safe maths reader (``mathparse.parse`` with an
``offset``). Nothing here evaluates anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from grading.checkers.mathparse import FormatError
from grading.checkers.mathparse.characters import normalize

__all__ = [
    "CLOSERS",
    "OPENERS",
    "Piece",
    "bracket_pairs",
    "outer_pair",
    "split_top",
    "structural",
    "words_at_top",
]

OPENERS = "([{"
CLOSERS = ")]}"
PAIR_OF = {"(": ")", "[": "]", "{": "}"}
_KEPT = set("()[]{},;<>=!≤≥≠∪∅")
MAX_STRUCTURE_LENGTH = 5000


@dataclass(frozen=True)
class Piece:
    """A stretch of the answer: its text as typed and its 0-based offset in the answer."""

    text: str
    offset: int

    @property
    def stripped(self) -> Piece:
        """The piece without surrounding spaces (offset moved to the first character)."""
        lead = len(self.text) - len(self.text.lstrip())
        return Piece(self.text.strip(), self.offset + lead)


def structural(raw: str) -> str:
    """``raw`` with full-width brackets, commas and relation signs (``［``, ``，``, ``＜``) read as
    their ASCII forms, one character for one, so that offsets stay the student's."""
    out = []
    for ch in raw:
        if ch.isascii():
            out.append(ch)
            continue
        form = normalize(ch)[0]
        out.append(form if len(form) == 1 and form in _KEPT else ch)
    return "".join(out)


def bracket_pairs(text: str) -> dict[int, int]:
    """Each opening bracket's index mapped to the index of the bracket that closes it, pairing
    by depth whatever the kinds (``(0, 1]`` pairs ``(`` with ``]``: callers decide whether a
    mixed pair is allowed). Raises FormatError for a bracket that is never closed or opened."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for i, ch in enumerate(text):
        if ch in OPENERS:
            stack.append(i)
        elif ch in CLOSERS:
            if not stack:
                raise FormatError(f"unexpected {ch!r} at character {i + 1}: nothing to close",
                                  i + 1)
            pairs[stack.pop()] = i
    if stack:
        i = stack[-1]
        raise FormatError(f"the bracket {text[i]!r} at character {i + 1} is never closed", i + 1)
    return pairs


def outer_pair(text: str, piece: Piece, pairs: dict[int, int]) -> tuple[str, str] | None:
    """The (opener, closer) if ``piece`` (stripped) is wholly enclosed by one bracket pair."""
    start = piece.offset
    end = piece.offset + len(piece.text) - 1
    if not piece.text or text[start] not in OPENERS or pairs.get(start) != end:
        return None
    return text[start], text[end]


def split_top(text: str, piece: Piece, separators: str, pairs: dict[int, int]) -> list[Piece]:
    """``piece`` split at the characters in ``separators`` found outside every bracket."""
    out: list[Piece] = []
    depth = 0
    start = piece.offset
    end = piece.offset + len(piece.text)
    for i in range(start, end):
        ch = text[i]
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
        elif depth == 0 and ch in separators:
            out.append(Piece(text[start:i], start))
            start = i + 1
    out.append(Piece(text[start:end], start))
    return out


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def words_at_top(text: str, piece: Piece, words: Iterable[str]) -> list[tuple[int, int, str]]:
    """Where any of ``words`` (case-insensitive, whole words) stands outside every bracket:
    (start, end, word) with 0-based offsets in ``text``. A word written as one symbol (``∪``)
    needs no spaces around it."""
    lowered = text.lower()
    found: list[tuple[int, int, str]] = []
    depth = 0
    i = piece.offset
    end = piece.offset + len(piece.text)
    candidates = sorted({w.lower() for w in words}, key=len, reverse=True)
    while i < end:
        ch = text[i]
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
        elif depth == 0:
            for word in candidates:
                stop = i + len(word)
                if stop > end or lowered[i:stop] != word:
                    continue
                alnum = _is_word_char(word[0])
                if alnum and ((i > 0 and _is_word_char(text[i - 1]))
                              or (stop < len(text) and _is_word_char(text[stop]))):
                    continue
                found.append((i, stop, word))
                i = stop - 1
                break
        i += 1
    return found


def check_length(raw: str, limit: int = MAX_STRUCTURE_LENGTH) -> None:
    """Refuse an answer longer than ``limit`` characters before any work is done."""
    if len(raw) > limit:
        raise FormatError(f"the answer is too long (at most {limit} characters)", None)
