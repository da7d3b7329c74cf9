"""A part's short label for staff pages (the progress matrix, statistics, the review queue):
the part's own `label` content key when it has one, otherwise the first words of its prompt
without markup, otherwise its key. Maths in either is written as readable plain text
(`$1/\\sqrt{d}$` as "1/√d", courses.plain_maths), never dropped or left as LaTeX."""

import re

from courses.plain_maths import plain_maths

#: Longest derived label, in characters (an ellipsis marks a cut).
MAX_LABEL = 40

_MATHS = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", re.S)
#: `\\(...\\)` and `\\[...\\]` maths, read as `$...$` is.
_BRACKETED_MATHS = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
_PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_TAG = re.compile(r"<[^>]*>")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(r"[*_`#>|~]+")


def _readable_maths(text: str) -> str:
    text = _BRACKETED_MATHS.sub(lambda m: f"${m.group(1) or m.group(2) or ''}$", text)
    return plain_maths(text)


def _without_markup(text: str) -> str:
    """`text` without placeholders, tags and Markdown markup; its maths kept whole (a
    subscript's `_` is the maths', not emphasis) and written as plain text."""
    formulas: list[str] = []

    def keep(match: re.Match[str]) -> str:
        formulas.append(_readable_maths(match.group(0)))
        return f"\x00{len(formulas) - 1}\x00"

    text = _MATHS.sub(keep, text)
    text = _PLACEHOLDER.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _MARKUP.sub("", text)
    return re.sub("\x00(\\d+)\x00", lambda m: formulas[int(m.group(1))], text)


def part_label(*, label: str, prompt: str, key: str) -> str:
    """`label` stripped, its maths as plain text, if not empty; else the prompt's first
    words with maths ($...$, \\(...\\)) as plain text ("Without the 1/√d, each row"),
    template placeholders, HTML tags and Markdown markup removed, cut at a word boundary to
    at most MAX_LABEL characters (an ellipsis added when cut), a trailing colon dropped; else
    `key`. Plain text (escape it when you render it)."""
    if label.strip():
        return _readable_maths(label).strip()
    text = " ".join(_without_markup(prompt).split()).rstrip(" :;,")
    if not text:
        return key
    if len(text) <= MAX_LABEL:
        return text
    cut = text[:MAX_LABEL]
    if " " in cut:
        cut = cut[:cut.rindex(" ")]
    return cut.rstrip(" :;,.(") + "\u2026"
