"""Moodle `multianswer` (cloze) questions: each gap `{1:NUMERICAL:=4:0.1#Right}` becomes a part.

A gap's answers are read into a small `<question>` of the gap's own type and converted by the
same converters as whole questions (numerical, shortanswer, multichoice), so a gap keeps its
credits, tolerances, wildcards and feedback; the text shows the gap as **[n]**.
"""

import re
from xml.etree.ElementTree import Element, SubElement

from interchange.moodle_questions import (
    Converted,
    NotImported,
    _base,
    _points,
    multichoice,
    numerical,
    shortanswer,
)
from interchange.moodle_text import child_text

_GAP = re.compile(r"\{(\d*):([A-Z_]+):((?:\\.|[^\\}])*)\}")
_KINDS = {
    "NUMERICAL": "numerical", "NM": "numerical",
    "SHORTANSWER": "shortanswer", "SA": "shortanswer", "MW": "shortanswer",
    "SHORTANSWER_C": "shortanswer_c", "SAC": "shortanswer_c", "MWC": "shortanswer_c",
    "MULTICHOICE": "single", "MC": "single", "MULTICHOICE_V": "single", "MCV": "single",
    "MULTICHOICE_H": "single", "MCH": "single", "MULTICHOICE_S": "single", "MCS": "single",
    "MULTICHOICE_VS": "single", "MCVS": "single", "MULTICHOICE_HS": "single", "MCHS": "single",
    "MULTIRESPONSE": "multiple", "MR": "multiple", "MULTIRESPONSE_H": "multiple",
    "MRH": "multiple", "MULTIRESPONSE_S": "multiple", "MRS": "multiple",
    "MULTIRESPONSE_HS": "multiple", "MRHS": "multiple",
}
MAX_GAPS = 50


def _split(text: str, mark: str) -> list[str]:
    """`text` split at `mark` where it is not escaped with a backslash."""
    return re.split(rf"(?<!\\){re.escape(mark)}", text)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _gap_question(kind: str, body: str, weight: float) -> Element:
    qtype = {"numerical": "numerical", "shortanswer": "shortanswer",
             "shortanswer_c": "shortanswer"}.get(kind, "multichoice")
    question = Element("question", {"type": qtype})
    SubElement(SubElement(question, "name"), "text").text = "gap"
    SubElement(SubElement(question, "questiontext"), "text").text = "gap"
    SubElement(question, "defaultgrade").text = str(weight)
    SubElement(question, "usecase").text = "1" if kind == "shortanswer_c" else "0"
    SubElement(question, "single").text = "false" if kind == "multiple" else "true"
    for raw in _split(body, "~"):
        raw = raw.strip()
        if not raw:
            continue
        fraction = "0"
        if raw.startswith("="):
            fraction, raw = "100", raw[1:]
        elif (match := re.match(r"%(-?\d+(?:\.\d+)?)%", raw)):
            fraction, raw = match.group(1), raw[match.end():]
        pieces = _split(raw, "#")
        answer_text, feedback = pieces[0], "#".join(pieces[1:])
        tolerance = "0"
        if qtype == "numerical" and re.search(r"(?<!\\):", answer_text):
            answer_text, tolerance = _split(answer_text, ":")[:2]
        answer = SubElement(question, "answer", {"fraction": fraction})
        SubElement(answer, "text").text = _unescape(answer_text.strip())
        SubElement(answer, "tolerance").text = tolerance.strip() or "0"
        SubElement(SubElement(answer, "feedback"), "text").text = _unescape(feedback.strip())
    return question


def multianswer(question: Element) -> Converted:
    """`multianswer`: the text with **[n]** for each gap, and one part per gap."""
    out = _base(question, [])
    source = child_text(question, "questiontext")
    gaps = list(_GAP.finditer(source))
    if not gaps:
        raise NotImported("the cloze text has no gap")
    if len(gaps) > MAX_GAPS:
        raise NotImported(f"the cloze text has more than {MAX_GAPS} gaps")
    converters = {"numerical": numerical, "shortanswer": shortanswer,
                  "shortanswer_c": shortanswer, "single": multichoice, "multiple": multichoice}
    total = _points(question)
    for number, gap in enumerate(gaps, start=1):
        kind = _KINDS.get(gap.group(2))
        if kind is None:
            raise NotImported(f"gap {number} has the type {gap.group(2)}, not read here")
        weight = float(gap.group(1) or 1)
        try:
            converted = converters[kind](_gap_question(kind, gap.group(3), weight))
        except NotImported as exc:
            raise NotImported(f"gap {number}: {exc}") from exc
        part = converted.parts[0]
        part["key"] = f"gap{number}"
        part["label"] = f"Gap {number}"
        part["prompt"] = f"**[{number}]**"
        if kind in ("single", "multiple"):
            options = ", ".join(f"{o['key']}: {o['text']}" for o in part["options"])
            part["prompt"] += f" ({options})"
        out.parts.append(part)
        out.changes.extend(c for c in converted.changes if "general feedback" not in c)
    weights = sum(float(p["points"]) for p in out.parts) or 1.0
    for part in out.parts:
        part["points"] = round(float(part["points"]) * total / weights, 4)
    # The prompt: the gaps replaced by their numbers, once the text is sanitised.
    marked = source
    for number, gap in reversed(list(enumerate(gaps, start=1))):
        marked = marked[:gap.start()] + f" <strong>[{number}]</strong> " + marked[gap.end():]
    copy = Element("question")
    SubElement(SubElement(copy, "questiontext"), "text").text = marked
    out.prompt = _base(copy, out.changes).prompt
    return out
