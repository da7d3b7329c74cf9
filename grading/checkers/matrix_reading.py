# ruff: noqa: RUF001, RUF002 - the multiplication sign of shapes and maths symbols
"""Reading a matrix as typed: ``[[1, 2], [3, 4]]``, ``[1 2; 3 4]``, rows on lines, numpy's
``[[1 2] [3 4]]``, full-width brackets; the entries' text and positions, or a FormatError that
says which row or entry is wrong. Entries are read as maths by the matrix checker (matrix.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from grading.checkers.mathparse import FormatError
from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.characters import normalize

__all__ = ["MAX_CELLS", "MAX_MATRIX_TEXT", "WRONG_SHAPE", "Cell", "entries_text", "read_matrix",
           "written_as_matrix"]

MAX_MATRIX_TEXT = 5000
MAX_CELLS = 400
_PAIRS = {"(": ")", "[": "]"}
_CLOSERS = {")": "(", "]": "["}
_BINARY = set("+-*/^×·⋅÷−–")
_AFTER_BINARY = set("*/^×·⋅÷)!")
WRONG_SHAPE = ("invalid", "incorrect")

Cell = tuple[str, int]  # the entry's text and its 0-based offset in the answer


def _structure(raw: str) -> str:
    """``raw`` with full-width brackets, commas and semicolons read as ASCII, one character
    for one, so offsets stay those of the student's text."""
    out = []
    for ch in raw:
        form = normalize(ch)[0] if not ch.isascii() else ch
        out.append(form if len(form) == 1 and form in "()[]{},;" else ch)
    return "".join(out).replace("{", "[").replace("}", "]")


def _check_brackets(text: str) -> dict[int, int]:
    """The matching close of every opening bracket; FormatError at the first mismatch."""
    stack: list[int] = []
    match: dict[int, int] = {}
    for i, ch in enumerate(text):
        if ch in _PAIRS:
            stack.append(i)
        elif ch in _CLOSERS:
            if not stack:
                raise FormatError(f"unexpected '{ch}' at character {i + 1}", i + 1)
            opened = stack.pop()
            if text[opened] != _CLOSERS[ch]:
                raise FormatError(f"'{ch}' at character {i + 1} does not match the "
                                  f"'{text[opened]}' opened at character {opened + 1}", i + 1)
            match[opened] = i
    if stack:
        opened = stack[-1]
        raise FormatError(f"missing '{_PAIRS[text[opened]]}' to close the '{text[opened]}' "
                          f"opened at character {opened + 1}", opened + 1)
    return match


def _split_top(text: str, start: int, end: int, separators: str) -> list[tuple[int, int]]:
    """Spans of ``text[start:end]`` between separators at bracket depth 0."""
    spans = []
    depth = 0
    piece = start
    for i in range(start, end):
        ch = text[i]
        if ch in _PAIRS:
            depth += 1
        elif ch in _CLOSERS:
            depth -= 1
        elif depth == 0 and ch in separators:
            spans.append((piece, i))
            piece = i + 1
    spans.append((piece, end))
    return spans


def _bracketed(text: str, span: tuple[int, int], match: Mapping[int, int]) -> tuple[int, int] | None:
    """The inside of a span that is one bracketed group (``[1, 2]``), else None."""
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end and text[start] in _PAIRS and match.get(start) == end - 1:
        return start + 1, end - 1
    return None


def _space_split(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A row without commas split at spaces as MATLAB does: ``1 -2`` is two entries,
    ``1 - 2`` and ``1 -  2`` one; a space after an operator, an opening bracket or a function
    name written without brackets (``sin x``) does not split."""
    spans = []
    depth = 0
    piece = start
    i = start
    while i < end:
        ch = text[i]
        if ch in _PAIRS:
            depth += 1
        elif ch in _CLOSERS:
            depth -= 1
        elif ch.isspace() and depth == 0:
            j = i
            while j < end and text[j].isspace():
                j += 1
            before = text[piece:i].rstrip()
            nxt = text[j] if j < end else ""
            word = before.split()[-1] if before.split() else ""
            fn = registry.lookup(word) if word.isalpha() else None
            joined = (not before or not nxt or before[-1] in _BINARY or before[-1] in "(["
                      or nxt in _AFTER_BINARY
                      or (nxt in _BINARY and (j + 1 >= end or text[j + 1].isspace()))
                      or (fn is not None and fn.parenless and not fn.reference_only))
            if not joined:
                spans.append((piece, i))
                piece = j
            i = j
            continue
        i += 1
    spans.append((piece, end))
    return [(s, e) for s, e in spans if text[s:e].strip()] or [(start, end)]


def _row_cells(text: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    start, end = span
    pieces = _split_top(text, start, end, ",")
    return pieces if len(pieces) > 1 else _space_split(text, start, end)


def _rows_of_groups(text: str, pieces: list[tuple[int, int]],
                    match: Mapping[int, int]) -> list[tuple[int, int]] | None:
    """The insides of pieces that are all bracketed rows (``[1, 2], [3, 4]``; also
    ``[1 2] [3 4]`` as numpy prints), or None. Round brackets around single entries
    (``(1+2), (3)``) are grouping, not rows."""
    if len(pieces) == 1:
        groups = _space_split(text, *pieces[0])
        if len(groups) > 1 and all(text[s:e].strip()[:1] == "[" for s, e in groups):
            pieces = groups
    inner = [_bracketed(text, piece, match) for piece in pieces]
    if not all(span is not None for span in inner):
        return None
    rows = [span for span in inner if span is not None]
    square = all(text[s - 1] == "[" for s, _ in rows)
    several = any(len(_row_cells(text, span)) > 1 for span in rows)
    return rows if square or several else None


def read_matrix(raw: str) -> list[list[Cell]]:
    """The rows of a matrix as typed, each a list of (entry text, 0-based offset).

    Reads ``[[1, 2], [3, 4]]`` (also round or curly brackets, or without the outer pair),
    ``[1 2; 3 4]``, ``[1, 2; 3, 4]``, rows on separate lines, ``[[1 2] [3 4]]`` as numpy
    prints it, and one row ``[1, 2, 3]`` (a 1×n matrix). Entries in a row are separated by
    commas or, without commas, by spaces as MATLAB reads them (``[1 -2]`` is two entries,
    ``[1 - 2]`` one). Raises FormatError for unbalanced brackets, empty entries or rows of
    different lengths.
    """
    text = _structure(raw)
    if not text.strip():
        raise FormatError("empty answer", None)
    match = _check_brackets(text)
    region = _bracketed(text, (0, len(text)), match) or (0, len(text))
    outer = _split_top(text, region[0], region[1], ",;\n")
    if len(outer) > 1 and not text[outer[-1][0]:outer[-1][1]].strip() \
            and text[outer[-1][0] - 1] in ";\n":
        outer = outer[:-1]  # a trailing ; or line break
    rows = _rows_of_groups(text, outer, match)
    if rows is None:
        rows = _split_top(text, region[0], region[1], ";\n")
        if len(rows) > 1 and not text[rows[-1][0]:rows[-1][1]].strip():
            rows = rows[:-1]
    cells: list[list[Cell]] = []
    for number, span in enumerate(rows, start=1):
        row = []
        if not text[span[0]:span[1]].strip():
            position = span[0] + 1
            raise FormatError(f"row {number} is empty (character {position})", position)
        for start, end in _row_cells(text, span):
            if not text[start:end].strip():
                position = start + 1
                raise FormatError(f"an entry of row {number} is missing (two commas in a row, "
                                  f"or a comma at the end?) at character {position}", position)
            row.append((raw[start:end], start))
        cells.append(row)
        if sum(len(r) for r in cells) > MAX_CELLS:
            raise FormatError(f"too many entries (at most {MAX_CELLS})", None)
    widths = [len(row) for row in cells]
    if len(set(widths)) > 1:
        first = widths[0]
        bad = next(i for i, w in enumerate(widths) if w != first)
        raise FormatError(f"row {bad + 1} has {entries_text(widths[bad])} but row 1 has "
                          f"{entries_text(first)}: every row needs the same number of entries",
                          None)
    return cells


def entries_text(count: int) -> str:
    return "1 entry" if count == 1 else f"{count} entries"


def written_as_matrix(text: str) -> bool:
    """A reference string written as a matrix (``[[a, 0], [0, b]]``, ``[1 2; 3 4]``) rather
    than an expression giving one."""
    structured = _structure(text)
    try:
        match = _check_brackets(structured)
    except FormatError:
        return False
    whole = _bracketed(structured, (0, len(structured)), match)
    return whole is not None and (
        len(_split_top(structured, whole[0], whole[1], ",;\n")) > 1
        or _bracketed(structured, whole, match) is not None
        or len(_space_split(structured, *whole)) > 1)
