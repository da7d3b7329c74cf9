"""A part's short label for staff pages (the progress matrix, statistics, the review queue):
the part's own `label` content key when it has one, otherwise the first words of its prompt
without markup or maths, otherwise its key."""

import re

#: Longest derived label, in characters (an ellipsis marks a cut).
MAX_LABEL = 40

_MATHS = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", re.S)
_PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_TAG = re.compile(r"<[^>]*>")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(r"[*_`#>|~]+")


def part_label(*, label: str, prompt: str, key: str) -> str:
    """`label` stripped if not empty; else the prompt's first words with maths ($...$,
    \\(...\\)), template placeholders, HTML tags and Markdown markup removed, cut at a word
    boundary to at most MAX_LABEL characters (an ellipsis added when cut), a trailing colon
    dropped; else `key`. Plain text (escape it when you render it)."""
    if label.strip():
        return label.strip()
    text = _MATHS.sub(" ", prompt)
    text = _PLACEHOLDER.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _MARKUP.sub("", text)
    text = " ".join(text.split()).rstrip(" :;,")
    if not text:
        return key
    if len(text) <= MAX_LABEL:
        return text
    cut = text[:MAX_LABEL]
    if " " in cut:
        cut = cut[:cut.rindex(" ")]
    return cut.rstrip(" :;,.(") + "\u2026"
