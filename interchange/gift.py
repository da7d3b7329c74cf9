"""GIFT (Moodle's plain-text format) read into Moodle's `<quiz>` elements, then converted as XML.

Each question (separated by blank lines) becomes the `<question>` Moodle itself would make of
it: `{=a ~b}` multichoice (`~%50%` weights: multiple), `{=a =b}` shortanswer, `{#4:0.5}` and
`{#3..5}` numerical, `{T}`/`{F}` truefalse, `{}` essay, `{=a -> b ...}` matching, text
alone a description; `$CATEGORY:` lines categories. `// comments` are skipped; `\\~ \\= \\#
\\{ \\} \\:` are literal characters.
"""

import re
from xml.etree.ElementTree import Element, SubElement

MAX_GIFT_BYTES = 20 * 1024 * 1024
_ESCAPED = {"\\~": "\x01", "\\=": "\x02", "\\#": "\x03", "\\{": "\x04", "\\}": "\x05",
            "\\:": "\x06", "\\\\": "\x07"}
_LITERAL = {"\x01": "~", "\x02": "=", "\x03": "#", "\x04": "{", "\x05": "}", "\x06": ":",
            "\x07": "\\"}


class GiftRefused(ValueError):
    """The file is not read (too large, not text)."""


def _protect(text: str) -> str:
    for escaped, mark in _ESCAPED.items():
        text = text.replace(escaped, mark)
    return text


def _literal(text: str) -> str:
    for mark, char in _LITERAL.items():
        text = text.replace(mark, char)
    return text.strip()


def _add(parent: Element, tag: str, value: str, **attributes: str) -> Element:
    element = SubElement(parent, tag, attributes)
    SubElement(element, "text").text = value
    return element


def _answer(question: Element, text: str, fraction: str, feedback: str = "",
            tolerance: str | None = None) -> None:
    answer = _add(question, "answer", _literal(text), fraction=fraction)
    _add(answer, "feedback", _literal(feedback))
    if tolerance is not None:
        SubElement(answer, "tolerance").text = tolerance


def _split_feedback(item: str) -> tuple[str, str]:
    text, _, feedback = item.partition("#")
    return text, feedback


def _choices(body: str) -> list[tuple[str, str]]:
    """(`=` or `~`, rest) for each answer of a `{...}` body."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"([=~])([^=~]*)", body)]


def _weight(item: str, default: str) -> tuple[str, str]:
    match = re.match(r"\s*%(-?\d+(?:\.\d+)?)%", item)
    return (match.group(1), item[match.end():]) if match else (default, item)


def _numerical(question: Element, body: str) -> None:
    question.set("type", "numerical")
    items = _choices(body) if body.lstrip().startswith("=") else [("=", body)]
    for _, item in items:
        weight, item = _weight(item, "100")
        value, feedback = _split_feedback(item)
        value = _literal(value)
        if ".." in value:
            low, high = (float(v) for v in value.split("..", 1))
            value, tolerance = repr((low + high) / 2), repr((high - low) / 2)
        elif ":" in value:
            value, tolerance = value.split(":", 1)
        else:
            tolerance = "0"
        _answer(question, value, weight, feedback, tolerance.strip())


def _fill(question: Element, body: str) -> None:
    stripped = body.strip()
    if stripped.startswith("#"):
        _numerical(question, stripped[1:])
    elif not stripped:
        question.set("type", "essay")
    elif stripped.split("#")[0].strip() in ("T", "TRUE", "F", "FALSE"):
        question.set("type", "truefalse")
        truth = stripped.split("#")[0].strip() in ("T", "TRUE")
        feedbacks = [*stripped.split("#")[1:], "", ""]
        _answer(question, "true", "100" if truth else "0", feedbacks[1 if truth else 0])
        _answer(question, "false", "0" if truth else "100", feedbacks[0 if truth else 1])
    elif "->" in stripped:
        question.set("type", "matching")
        for _, item in _choices(stripped):
            left, _, right = item.partition("->")
            sub = _add(question, "subquestion", _literal(left))
            _add(sub, "answer", _literal(right))
    else:
        items = _choices(stripped)
        if items and all(mark == "=" for mark, _ in items):
            question.set("type", "shortanswer")
            for _, item in items:
                weight, item = _weight(item, "100")
                text, feedback = _split_feedback(item)
                _answer(question, text, weight, feedback)
            return
        question.set("type", "multichoice")
        weighted = any(re.match(r"\s*%", item) for mark, item in items if mark == "~")
        SubElement(question, "single").text = "false" if weighted else "true"
        for mark, item in items:
            weight, item = _weight(item, "100" if mark == "=" else "0")
            text, feedback = _split_feedback(item)
            _answer(question, text, weight, feedback)


def gift_to_quiz(text: str) -> tuple[Element, list[int]]:
    """The `<quiz>` Moodle would import from GIFT `text`, and each question's first line."""
    quiz = Element("quiz")
    lines: list[int] = []
    block: list[str] = []
    start = 0

    def flush() -> None:
        if not block:
            return
        source = _protect("\n".join(block))
        block.clear()
        if source.startswith("$CATEGORY:"):
            question = SubElement(quiz, "question", {"type": "category"})
            _add(question, "category", _literal(source[len("$CATEGORY:"):]))
            lines.append(start)
            return
        name = ""
        if (match := re.match(r"::(.*?)::", source, re.DOTALL)):
            name, source = _literal(match.group(1)), source[match.end():]
        source = re.sub(r"^\[(html|moodle|plain|markdown)\]", "", source.strip())
        question = SubElement(quiz, "question", {"type": "description"})
        gap = re.search(r"\{([^{}]*)\}", source)
        prompt = source if gap is None else (source[:gap.start()] + " ___ " * bool(
            source[gap.end():].strip()) + source[gap.end():])
        _add(question, "name", name or _literal(prompt)[:60])
        _add(question, "questiontext", _literal(prompt).replace("\n", "<br>"), format="html")
        if gap is not None:
            _fill(question, gap.group(1))
        lines.append(start)

    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if not stripped:
            flush()
            continue
        if not block:
            start = number
        block.append(line)
        if stripped.startswith("$CATEGORY:"):
            flush()
    flush()
    return quiz, lines
