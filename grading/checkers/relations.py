
"""Reading equations, inequalities and their combinations: ``y = 2x + 1``, ``-2 <= x < 5``,
``x < -2 or x > 2``, ``(x < 0 or x >= 1) and x <= 3``, ``x + y = 3, x - y = 1`` (a system).

The relation signs, ``and``/``or`` and the separators of a system are found outside every
bracket in the student's own characters (structure.py); the sides between them are read by the
safe maths reader with their offsets, so positions in messages are the student's. Signs:
``=``, ``<``, ``>``, ``<=`` ``≤`` ``=<``, ``>=`` ``≥`` ``=>``, ``!=`` ``≠`` ``<>``. A chain
(``a < b <= c``) must point one way; ``=`` does not chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grading.checkers.mathparse import Expr, FormatError, parse
from grading.checkers.mathparse.names import Functions
from grading.checkers.structure import (
    Piece,
    bracket_pairs,
    check_length,
    split_top,
    structural,
    words_at_top,
)

__all__ = ["Chain", "Statement", "System", "parse_statement", "parse_system"]

_SIGNS = {"<=": "<=", "=<": "<=", "≤": "<=", ">=": ">=", "=>": ">=", "≥": ">=",
          "!=": "!=", "≠": "!=", "<>": "!=", "<": "<", ">": ">", "=": "="}
_TEXT = {"<=": "<=", ">=": ">=", "!=": "!=", "<": "<", ">": ">", "=": "="}
_LATEX = {"<=": r"\le", ">=": r"\ge", "!=": r"\ne", "<": "<", ">": ">", "=": "="}
MAX_RELATIONS = 50
MAX_ALTERNATIVES = 50
MAX_GROUP_DEPTH = 20


@dataclass(frozen=True)
class Chain:
    """``sides[0] ops[0] sides[1] ops[1] sides[2] ...`` (one relation when one op)."""

    sides: tuple[Expr, ...]
    ops: tuple[str, ...]

    def to_text(self) -> str:
        out = [self.sides[0].to_text()]
        for op, side in zip(self.ops, self.sides[1:], strict=True):
            out += [_TEXT[op], side.to_text()]
        return " ".join(out)

    def to_latex(self) -> str:
        out = [self.sides[0].to_latex()]
        for op, side in zip(self.ops, self.sides[1:], strict=True):
            out += [_LATEX[op], side.to_latex()]
        return " ".join(out)


@dataclass(frozen=True)
class Statement:
    """An ``or`` of ``and``s of chains (disjunctive form as written; ``and`` binds tighter)."""

    alternatives: tuple[tuple[Chain, ...], ...]

    @property
    def chains(self) -> tuple[Chain, ...]:
        """Every chain, in reading order."""
        return tuple(c for group in self.alternatives for c in group)

    @property
    def is_equation(self) -> bool:
        """Only ``=`` signs, one per chain, and no ``and``."""
        return all(len(g) == 1 for g in self.alternatives) and all(
            c.ops == ("=",) for c in self.chains)

    def to_text(self) -> str:
        return " or ".join(" and ".join(c.to_text() for c in g) for g in self.alternatives)

    def to_latex(self) -> str:
        return r" \text{ or } ".join(r" \text{ and } ".join(c.to_latex() for c in g)
                                     for g in self.alternatives)


@dataclass(frozen=True)
class System:
    """Several statements that hold together (a system of equations)."""

    statements: tuple[Statement, ...]

    def to_text(self) -> str:
        return ", ".join(s.to_text() for s in self.statements)

    def to_latex(self) -> str:
        return r",\; ".join(s.to_latex() for s in self.statements)


def _find_signs(text: str, piece: Piece) -> list[tuple[int, int, str]]:
    """Relation signs outside brackets: (start, end, canonical sign), longest spelling first."""
    found = []
    depth = 0
    i = piece.offset
    end = piece.offset + len(piece.text)
    while i < end:
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0:
            two = text[i:i + 2]
            if two in _SIGNS and len(two) == 2:
                found.append((i, i + 2, _SIGNS[two]))
                i += 2
                continue
            if ch in _SIGNS:
                found.append((i, i + 1, _SIGNS[ch]))
        i += 1
    return found


def _side(raw: str, piece: Piece, variables: Sequence[str], functions: Functions,
          sign_at: int) -> Expr:
    if not piece.text.strip():
        raise FormatError(f"a side of the relation at character {sign_at} is missing", sign_at)
    return parse(raw[piece.offset:piece.offset + len(piece.text)], variables=variables,
                 functions=functions, offset=piece.offset, infinity=True)


def _chain(raw: str, text: str, piece: Piece, variables: Sequence[str],
           functions: Functions) -> Chain:
    signs = _find_signs(text, piece)
    if not signs:
        pos = piece.stripped.offset + 1
        raise FormatError(f"'{piece.text.strip()}' at character {pos} is not an equation or "
                          f"inequality: it needs a sign such as =, < or >=", pos)
    if len(signs) > MAX_RELATIONS:
        raise FormatError(f"at most {MAX_RELATIONS} relation signs are accepted", None)
    ops = [s[2] for s in signs]
    if len(ops) > 1:
        if "=" in ops or "!=" in ops:
            at = signs[next(i for i, op in enumerate(ops) if op in ("=", "!="))][0] + 1
            raise FormatError(f"the sign at character {at} cannot be chained: write one "
                              f"relation with = or ≠ at a time (join them with 'and'/'or')", at)
        directions = {op[0] for op in ops}
        if len(directions) > 1:
            at = signs[1][0] + 1
            raise FormatError(f"a chain of inequalities must point one way (character {at}): "
                              f"write -2 <= x < 5, or use 'and'", at)
    sides = []
    start = piece.offset
    for sign_start, sign_end, _ in signs:
        sides.append(_side(raw, Piece(text[start:sign_start], start), variables, functions,
                           sign_start + 1))
        start = sign_end
    sides.append(_side(raw, Piece(text[start:piece.offset + len(piece.text)], start), variables,
                       functions, signs[-1][0] + 1))
    return Chain(tuple(sides), tuple(ops))


def _split_words(text: str, piece: Piece, word: str) -> list[Piece]:
    cuts = words_at_top(text, piece, [word])
    out = []
    start = piece.offset
    for cut_start, cut_end, _ in cuts:
        out.append(Piece(text[start:cut_start], start))
        start = cut_end
    out.append(Piece(text[start:piece.offset + len(piece.text)], start))
    return out


def _grouped(text: str, piece: Piece, pairs: dict[int, int]) -> Piece | None:
    """The inside of a piece written wholly in round brackets around relations
    (``(x < 0 or x >= 1)``, ``((x > 1))``), or None (``(x + 1)`` is a side, not a group)."""
    whole = piece.stripped
    inner = None
    while whole.text.startswith("(") and whole.text.endswith(")") \
            and pairs.get(whole.offset) == whole.offset + len(whole.text) - 1:
        whole = Piece(text[whole.offset + 1:whole.offset + len(whole.text) - 1],
                      whole.offset + 1).stripped
        inner = whole
    if inner is not None and (_find_signs(text, inner)
                              or words_at_top(text, inner, ["and", "or"])):
        return inner
    return None


def _statement(raw: str, text: str, piece: Piece, variables: Sequence[str],
               functions: Functions, pairs: dict[int, int], depth: int = 0) -> Statement:
    """An or of ands of chains; a bracketed group is read on its own and distributed
    (``(a or b) and c`` is ``a and c or b and c``)."""
    if depth > MAX_GROUP_DEPTH:
        raise FormatError(f"groups of relations may be nested at most {MAX_GROUP_DEPTH} "
                          f"deep", None)
    groups: list[tuple[Chain, ...]] = []
    for alternative in _split_words(text, piece, "or"):
        conjunction: list[tuple[Chain, ...]] = [()]
        for part in _split_words(text, alternative, "and"):
            if not part.text.strip():
                pos = part.offset + 1
                raise FormatError(f"a relation is missing beside 'and'/'or' at character "
                                  f"{pos}", pos)
            inner = _grouped(text, part, pairs)
            options: list[tuple[Chain, ...]] = [
                (_chain(raw, text, part, variables, functions),)] if inner is None \
                else list(_statement(raw, text, inner, variables, functions, pairs,
                                     depth + 1).alternatives)
            conjunction = [chains + option for chains in conjunction for option in options]
            _check_combinations(len(groups) + len(conjunction))
        groups.extend(conjunction)
        _check_combinations(len(groups))
    return Statement(tuple(groups))


def _check_combinations(count: int) -> None:
    if count > MAX_ALTERNATIVES:
        raise FormatError(f"at most {MAX_ALTERNATIVES} alternatives (joined by 'or', "
                          f"brackets multiplied out) are accepted", None)


def parse_statement(raw: str, *, variables: Sequence[str] = (),
                    functions: Functions = ()) -> Statement:
    """Read one equation, inequality, chain, or and/or of them; FormatError otherwise
    (a top-level comma: "several relations are a system")."""
    check_length(raw)
    text = structural(raw)
    whole = Piece(text, 0).stripped
    if not whole.text:
        raise FormatError("empty answer", None)
    pairs = bracket_pairs(text)
    parts = split_top(text, whole, ",;", pairs)
    if len(parts) > 1:
        at = parts[1].offset  # the separator stands just before the second part
        raise FormatError(f"unexpected ',' at character {at}: join several solutions with "
                          f"'or' (x = 2 or x = -3)", at)
    return _statement(raw, text, whole, variables, functions, pairs)


def parse_system(raw: str, *, variables: Sequence[str] = (), functions: Functions = (),
                 limit: int = MAX_RELATIONS) -> System:
    """Read relations separated by commas, semicolons or 'and' (a system)."""
    check_length(raw)
    text = structural(raw)
    whole = Piece(text, 0).stripped
    if not whole.text:
        raise FormatError("empty answer", None)
    pairs = bracket_pairs(text)
    if whole.text[0] in "([{" and pairs.get(whole.offset) == whole.offset + len(whole.text) - 1:
        whole = Piece(text[whole.offset + 1:whole.offset + len(whole.text) - 1],
                      whole.offset + 1)
    pieces = [q for p in split_top(text, whole, ",;", pairs) for q in _split_words(text, p, "and")]
    if len(pieces) > limit:
        raise FormatError(f"a system of at most {limit} equations is accepted", None)
    statements = []
    for piece in pieces:
        if not piece.text.strip():
            pos = piece.offset + 1
            raise FormatError(f"an equation is missing at character {pos}", pos)
        statements.append(_statement(raw, text, piece, variables, functions, pairs))
    return System(tuple(statements))
