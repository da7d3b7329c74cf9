# ruff: noqa: RUF001, RUF002, RUF003 - the plain text of maths is made of maths symbols
"""Text with `$...$` LaTeX maths as plain text, for where no MathML can go: an SVG's
description, an error message an API returns, a CSV cell.

Pages typeset the same strings (`courses.rendering`, the `inline_markdown` filter); here each
formula is read by the same converter (latex2mathml) and its tree written out linearly:
`$\\sigma_{\\max}^k$` becomes "σ_max^k", `$\\mathbf{h}_{t-1}$` "h_(t−1)", `$1/\\sqrt{d}$` "1/√d".
A formula the converter cannot read is left as its source without the dollars.
"""

import re
import unicodedata
from functools import lru_cache
from xml.etree import ElementTree

from latex2mathml.converter import convert as latex_to_mathml

from courses.rendering import DISPLAY_MATHS, INLINE_MATHS

#: Operators written with a space either side ("a = b", not "a=b").
_SPACED = frozenset("=+−-<>≤≥≈≠×→")
_TOKENS = frozenset({"mi", "mn", "mo", "mtext", "ms"})


def _name(element: ElementTree.Element) -> str:
    return str(element.tag).rpartition("}")[2]


def _script(text: str) -> str:
    """A sub- or superscript: bare when it is one word or number, else in brackets."""
    text = text.replace(" ", "")
    return text if len(text) == 1 or re.fullmatch(r"[\w.]+", text) else f"({text})"


def _linear(element: ElementTree.Element) -> str:
    name, children = _name(element), list(element)
    if name in _TOKENS:
        text = unicodedata.normalize("NFKC", element.text or "")  # 𝐡 (bold) -> h
        return f" {text} " if name == "mo" and text in _SPACED else text
    parts = [_linear(child) for child in children]
    if name == "msub" and len(parts) == 2:
        return f"{parts[0]}_{_script(parts[1])}"
    if name == "msup" and len(parts) == 2:
        return f"{parts[0]}^{_script(parts[1])}"
    if name == "msubsup" and len(parts) == 3:
        return f"{parts[0]}_{_script(parts[1])}^{_script(parts[2])}"
    if name == "mfrac" and len(parts) == 2:
        return f"{_script(parts[0])}/{_script(parts[1])}"
    if name == "msqrt":
        return f"√{_script(''.join(parts))}"
    if name == "mspace":
        return " "
    return "".join(parts)


@lru_cache(maxsize=512)
def formula_plain(latex: str) -> str:
    """One LaTeX formula as plain text (its source when the converter cannot read it)."""
    try:
        root = ElementTree.fromstring(latex_to_mathml(latex.strip()))  # noqa: S314 - our converter's output
    except Exception:  # an unreadable formula is shown as typed, never an error
        return latex.strip()
    return re.sub(r" {2,}", " ", _linear(root)).strip()


def plain_maths(text: str) -> str:
    """`text` with each `$...$` and `$$...$$` formula written as plain text."""
    text = DISPLAY_MATHS.sub(lambda m: formula_plain(m.group(1)), text)
    return INLINE_MATHS.sub(lambda m: formula_plain(m.group(1)), text)
