"""The tokenizer: normalised student text to a list of tokens with positions in the original.

Tokens are numbers (with their exact value and canonical text), names (ASCII spelling: Greek
letters written out, ``_`` subscripts kept), the operators ``+ - * / ^`` (``**`` and the
Unicode signs students paste included), brackets, ``|``, ``,``, ``√``, ``!`` and the end. Each
token carries the 1-based position of its first character in the student's own text.
"""


from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from grading.checkers.mathparse.characters import (
    CLOSERS,
    DIGITS,
    DIVIDE,
    INFINITY_SIGNS,
    MINUS,
    OPENERS,
    SUPERSCRIPT_LETTERS,
    SUPERSCRIPT_SIGNS,
    SUPERSCRIPTS,
    TIMES,
    is_letter,
    letter_name,
    normalize,
)
from grading.checkers.mathparse.errors import FormatError, gettext_noop
from grading.checkers.mathparse.limits import MAX_LITERAL_EXPONENT

__all__ = ["SPECIAL_MESSAGES", "Token", "quote", "tokenize"]

SPECIAL_MESSAGES = {
    "=": gettext_noop("'=' is not allowed at character %(pos)s: type only the value or "
                      "expression, without 'name ='"),
    "%": gettext_noop("'%%' is not allowed at character %(pos)s: write a percentage as a "
                      "fraction (0.15 rather than 15%%)"),
    ",": gettext_noop("unexpected ',' at character %(pos)s: use a point for decimals (0.85) "
                      "and no separators inside numbers (1000)"),
    "\\": gettext_noop("'\\' at character %(pos)s: LaTeX is not read in this answer; did "
                       "you mean the plain form (1/2 for \\frac{1}{2}, sqrt(x) for "
                       "\\sqrt{x})?"),
}


@dataclass(frozen=True, slots=True)
class Token:
    """One token: ``kind`` is num, name, op, open, close, bar, comma, sqrt, bang or end."""

    kind: str
    text: str  # normalised: op is one of + - * / ^, name is the ASCII name
    pos: int  # 1-based character position in the student's text (plus offset)
    raw: str  # as typed, for messages
    value: Fraction | None = None


def quote(ch: str) -> str:
    """A character quoted for a message (unprintable ones by code point)."""
    if ch == "'":
        return '"\'"'
    if not ch.isprintable() or 0xD800 <= ord(ch[0]) <= 0xDFFF \
            or unicodedata.combining(ch[0]):
        return f"character U+{ord(ch[0]):04X}"
    return f"'{ch}'"


class _Lexer:
    def __init__(self, source: str, offset: int) -> None:
        self.source = source
        self.text, self.origin = normalize(source)
        self.offset = offset
        self.tokens: list[Token] = []

    def pos(self, i: int) -> int:
        """1-based position in the student's text of normalised character ``i``."""
        if i >= len(self.origin):
            return len(self.source) + 1 + self.offset
        return self.origin[i] + 1 + self.offset

    def raw(self, start: int, end: int) -> str:
        """The student's characters behind normalised characters ``start:end``."""
        if start >= end:
            return ""
        return self.source[self.origin[start]:self.origin[end - 1] + 1]

    def add(self, kind: str, text: str, start: int, end: int,
            value: Fraction | None = None) -> None:
        self.tokens.append(Token(kind, text, self.pos(start), self.raw(start, end), value))

    def run(self) -> list[Token]:
        text = self.text
        n = len(text)
        i = 0
        while i < n:
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch in DIGITS or (ch == "." and i + 1 < n and text[i + 1] in DIGITS):
                i = self.number(i)
            elif is_letter(ch):
                i = self.name(i)
            elif ch in INFINITY_SIGNS:
                self.add("name", "oo", i, i + 1)
                i += 1
            elif ch in MINUS:
                self.add("op", "-", i, i + 1)
                i += 1
            elif ch == "+":
                self.add("op", "+", i, i + 1)
                i += 1
            elif ch == "*" and i + 1 < n and text[i + 1] == "*":
                self.add("op", "^", i, i + 2)
                i += 2
            elif ch in TIMES:
                self.add("op", "*", i, i + 1)
                i += 1
            elif ch in DIVIDE:
                self.add("op", "/", i, i + 1)
                i += 1
            elif ch == "^":
                self.add("op", "^", i, i + 1)
                i += 1
            elif ch in OPENERS:
                self.add("open", ch, i, i + 1)
                i += 1
            elif ch in CLOSERS:
                self.add("close", ch, i, i + 1)
                i += 1
            elif ch in "|\u2223":
                self.add("bar", "|", i, i + 1)
                i += 1
            elif ch == ",":
                self.add("comma", ",", i, i + 1)
                i += 1
            elif ch == "!":
                self.add("bang", "!", i, i + 1)
                i += 1
            elif ch == "\u221a":
                self.add("sqrt", "sqrt", i, i + 1)
                i += 1
            elif ch in SUPERSCRIPTS or ch in SUPERSCRIPT_SIGNS or ch in SUPERSCRIPT_LETTERS:
                i = self.superscript(i)
            elif ch in SPECIAL_MESSAGES and ch != ",":
                pos = self.pos(i)
                raise FormatError(SPECIAL_MESSAGES[ch] % {"pos": pos}, pos)
            else:
                pos = self.pos(i)
                shown = self.raw(i, i + 1) or ch
                raise FormatError(gettext_noop("unexpected %(what)s at character %(pos)s")
                                  % {"what": quote(shown), "pos": pos}, pos)
        self.tokens.append(Token("end", "", len(self.source) + 1 + self.offset,
                                 "end of the answer"))
        return self.tokens

    def number(self, i: int) -> int:
        text = self.text
        start = i
        n = len(text)
        while i < n and text[i] in DIGITS:
            i += 1
        if i < n and text[i] == ".":
            i += 1
            while i < n and text[i] in DIGITS:
                i += 1
        mantissa = text[start:i]
        exponent = ""
        if i < n and text[i] in "eE":
            j = i + 1
            sign = ""
            if j < n and (text[j] == "+" or text[j] in MINUS):
                sign = "-" if text[j] in MINUS else ""
                j += 1
            if j < n and text[j] in DIGITS:
                k = j
                while k < n and text[k] in DIGITS:
                    k += 1
                exponent = sign + text[j:k].lstrip("0")
                if exponent in ("", "-"):
                    exponent = "0"
                i = k
        raw = self.raw(start, i)
        pos = self.pos(start)
        if exponent and (len(exponent.lstrip("-")) > 4
                         or abs(int(exponent)) > MAX_LITERAL_EXPONENT):
            size = "small" if exponent.startswith("-") else "large"
            raise FormatError(
                f"the number '{raw}' at character {pos} is too {size} to work with", pos
            )
        canonical = _canonical_mantissa(mantissa)
        if exponent:
            canonical = f"{canonical}e{exponent}"
        value = Fraction(mantissa if not mantissa.endswith(".") else mantissa[:-1] or "0")
        if exponent:
            value *= Fraction(10) ** int(exponent)
        self.tokens.append(Token("num", canonical, pos, raw, value))
        return i

    def name(self, i: int) -> int:
        text = self.text
        start = i
        n = len(text)
        parts: list[str] = []
        while i < n and (is_letter(text[i]) or text[i] in DIGITS):
            parts.append(letter_name(text[i]))
            i += 1
        while i < n and text[i] == "_":
            underscore = i
            i += 1
            if i < n and text[i] == "{":
                close = text.find("}", i)
                inner = text[i + 1:close] if close != -1 else ""
                if close == -1 or not inner or not all(is_letter(c) or c in DIGITS
                                                       for c in inner):
                    pos = self.pos(i)
                    raise FormatError(
                        f"a subscript in braces at character {pos} may hold only letters and "
                        f"digits, as in sigma_{{max}}",
                        pos,
                    )
                parts.append("_" + "".join(letter_name(c) for c in inner))
                i = close + 1
            else:
                sub_start = i
                while i < n and (is_letter(text[i]) or text[i] in DIGITS):
                    i += 1
                if i == sub_start:
                    pos = self.pos(underscore)
                    raise FormatError(f"a name cannot end with '_' (character {pos})", pos)
                parts.append("_" + "".join(letter_name(c) for c in text[sub_start:i]))
        self.add("name", "".join(parts), start, i)
        return i

    def superscript(self, i: int) -> int:
        text = self.text
        n = len(text)
        self.add("op", "^", i, i + 1)
        if text[i] in SUPERSCRIPT_LETTERS:
            self.add("name", SUPERSCRIPT_LETTERS[text[i]], i, i + 1)
            return i + 1
        if text[i] in SUPERSCRIPT_SIGNS:
            if text[i] == "⁻":
                self.add("op", "-", i, i + 1)
            i += 1
        start = i
        while i < n and text[i] in SUPERSCRIPTS:
            i += 1
        if i == start:
            pos = self.pos(start - 1)
            raise FormatError(
                f"a superscript sign at character {pos} needs superscript digits", pos
            )
        digits = "".join(SUPERSCRIPTS[c] for c in text[start:i])
        self.add("num", digits.lstrip("0") or "0", start, i, Fraction(int(digits)))
        return i


def _canonical_mantissa(mantissa: str) -> str:
    if mantissa.endswith("."):
        mantissa = mantissa[:-1]
    if mantissa.startswith("."):
        mantissa = "0" + mantissa
    if "." in mantissa:
        whole, frac = mantissa.split(".")
        whole = whole.lstrip("0") or "0"
        return f"{whole}.{frac}"
    return mantissa.lstrip("0") or "0"


def tokenize(text: str, offset: int = 0) -> list[Token]:
    """The tokens of ``text`` (normalised first; see characters.normalize), ending with an
    ``end`` token. Raises FormatError at the first character that cannot start a token;
    positions are 1-based in ``text``, shifted by ``offset``."""
    return _Lexer(text, offset).run()
