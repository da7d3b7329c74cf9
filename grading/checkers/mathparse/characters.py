"""The characters students type or paste, and the Unicode normalisation applied before reading.

``normalize(text)`` applies NFKC character by character (full-width digits, letters, brackets
and operators become ASCII; ``ℯ`` becomes ``e``; ``µ`` becomes ``μ``) while keeping what NFKC
would destroy: superscript digits and signs stay superscripts (``x²`` is a power, not ``x2``),
subscript digits become a ``_`` subscript (``x₁`` is ``x_1``) and a vulgar fraction becomes a
bracketed division (``½`` is ``(1/2)``). It returns, for every character of the normalised
text, the index of the character of the student's text it came from, so error positions are
reported in the student's own characters.
"""

# ruff: noqa: RUF001, RUF002 - Greek letters and maths symbols are read on purpose
from __future__ import annotations

import unicodedata
from collections.abc import Mapping

__all__ = [
    "ASCII_LETTERS",
    "CLOSERS",
    "DIGITS",
    "DIVIDE",
    "GREEK_LETTERS",
    "GREEK_NAMES",
    "INFINITY_SIGNS",
    "MINUS",
    "OPENERS",
    "SUPERSCRIPTS",
    "SUPERSCRIPT_LETTERS",
    "SUPERSCRIPT_SIGNS",
    "TIMES",
    "is_letter",
    "letter_name",
    "normalize",
]

GREEK_LETTERS: Mapping[str, str] = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "µ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi",
    "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi",
    "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi",
    "Σ": "Sigma", "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
GREEK_NAMES = frozenset(GREEK_LETTERS.values())

DIGITS = frozenset("0123456789")
ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
MINUS = frozenset("-\u2212\u2013\u2010\u2011\u2012\ufe63\uff0d")
TIMES = frozenset("*\u00d7\u00b7\u22c5\u2219\u2217\u2022\u2715\u2a2f")
DIVIDE = frozenset("/\u00f7\u2215\u2044")
OPENERS: Mapping[str, str] = {"(": ")", "[": "]", "{": "}"}
CLOSERS = frozenset(")]}")
INFINITY_SIGNS = frozenset("\u221e")
SUPERSCRIPTS: Mapping[str, str] = {
    "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4",
    "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
}
SUPERSCRIPT_SIGNS = frozenset("⁻⁺")
SUPERSCRIPT_LETTERS: Mapping[str, str] = {"ⁿ": "n", "ˣ": "x"}
_SUBSCRIPTS: Mapping[str, str] = {
    "₀": "0", "₁": "1", "₂": "2", "₃": "3", "₄": "4",
    "₅": "5", "₆": "6", "₇": "7", "₈": "8", "₉": "9",
}
_KEEP = frozenset([*SUPERSCRIPTS, *SUPERSCRIPT_SIGNS, *SUPERSCRIPT_LETTERS, *GREEK_LETTERS])


def is_letter(ch: str) -> bool:
    """A letter that may start or continue a name: ASCII or Greek."""
    return ch in ASCII_LETTERS or ch in GREEK_LETTERS


def letter_name(ch: str) -> str:
    """The ASCII spelling of a letter (``σ`` -> ``sigma``)."""
    return GREEK_LETTERS.get(ch, ch)


def _normal_char(ch: str) -> str:
    if ch.isascii() or ch in _KEEP:
        return ch
    form = unicodedata.normalize("NFKC", ch)
    if "\u2044" in form:  # a vulgar fraction such as ½
        numerator, _, denominator = form.partition("\u2044")
        return f"({numerator or '1'}/{denominator})"
    return form


def normalize(text: str) -> tuple[str, list[int]]:
    """The text to read and, per character of it, the index of the student's character.

    See the module docstring. Characters NFKC leaves alone pass through unchanged, so an
    unexpected character is still reported as the student typed it.
    """
    if text.isascii():  # nothing to normalise: the common case
        return text, list(range(len(text)))
    out: list[str] = []
    origin: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in _SUBSCRIPTS:
            out.append("_")
            origin.append(i)
            while i < n and text[i] in _SUBSCRIPTS:
                out.append(_SUBSCRIPTS[text[i]])
                origin.append(i)
                i += 1
            continue
        form = _normal_char(ch)
        out.extend(form)
        origin.extend([i] * len(form))
        i += 1
    return "".join(out), origin
