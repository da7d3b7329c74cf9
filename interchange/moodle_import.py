"""A Moodle XML file read into converted questions, grouped by category, with their outcomes.

`read_moodle_xml(data)` parses safely, walks every `<question>` in order and converts it;
the result is handed to `module_writer`, which writes, validates and moves the files.
"""

from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from interchange.gift import MAX_GIFT_BYTES, gift_to_quiz
from interchange.moodle_calculated import calculated, matching
from interchange.moodle_cloze import multianswer
from interchange.moodle_questions import CONVERTERS, Converted, NotImported
from interchange.moodle_text import child_text, html_to_content, plain
from interchange.report import QuestionOutcome
from interchange.safe_xml import XmlRefused, parse_xml, question_lines

#: Question types converted, by Moodle's name.
SUPPORTED = {**CONVERTERS, "calculated": calculated, "calculatedsimple": calculated,
             "matching": matching, "multianswer": multianswer,
             "cloze": multianswer}  # Moodle's own XML export names multianswer "cloze"
#: Types known but not carried yet, with the reason given in the report.
NOT_YET = {
    "calculatedmulti": "calculated multiple-choice questions are not imported yet",
    "stack": "STACK questions are not imported yet",
    "ddwtos": "drag-and-drop questions have no equivalent here",
    "ddimageortext": "drag-and-drop questions have no equivalent here",
    "ddmarker": "drag-and-drop questions have no equivalent here",
    "gapselect": "select-missing-words questions are not imported yet",
    "randomsamatch": "random short-answer matching draws other questions: not imported",
    "random": "a random question draws others from a category: not imported",
}


@dataclass(eq=False)
class Pending:
    """One question converted and waiting to be written (or a description's text)."""

    outcome: QuestionOutcome
    category: str
    converted: Converted | None = None
    description: str = ""


@dataclass
class ReadResult:
    """The questions of the file in order; `refused` says why the file was not read at all."""

    pending: list[Pending] = field(default_factory=list)
    refused: str = ""


def read_moodle_xml(data: bytes) -> ReadResult:
    """Every question of a Moodle XML file, converted or with the reason it is not."""
    try:
        root = parse_xml(data)
    except XmlRefused as exc:
        return ReadResult(refused=str(exc))
    if root.tag != "quiz":
        return ReadResult(refused=f"the root element is <{root.tag}>, not Moodle's <quiz>")
    return read_quiz(root, question_lines(data))


def read_gift(data: bytes) -> ReadResult:
    """Every question of a GIFT file, converted as the Moodle XML of it would be."""
    if len(data) > MAX_GIFT_BYTES:
        return ReadResult(refused=f"the file is {len(data):,} bytes; at most "
                                  f"{MAX_GIFT_BYTES:,} are read")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return ReadResult(refused=f"the file is not UTF-8 text (byte {exc.start + 1})")
    try:
        root, lines = gift_to_quiz(text)
    except ValueError as exc:
        return ReadResult(refused=f"the GIFT file cannot be read: {exc}")
    return read_quiz(root, lines)


def read_quiz(root: Element, lines: list[int]) -> ReadResult:
    """Every `<question>` of a Moodle `<quiz>` element converted (`lines`: each one's line)."""
    result = ReadResult()
    category = "Imported questions"
    for index, question in enumerate(root.findall("question"), start=1):
        qtype = question.get("type", "")
        line = lines[index - 1] if index - 1 < len(lines) else 0
        if qtype == "category":
            path = child_text(question, "category").replace("$course$/", "").replace(
                "$system$/", "")
            parts = [p for p in path.split("/") if p and p != "top"]
            category = " / ".join(parts) or "Imported questions"
            continue
        name = plain(child_text(question, "name")) or f"question {index}"

        def outcome(status: str, notes: list[str], line: int = line, index: int = index,
                    qtype: str = qtype, name: str = name) -> QuestionOutcome:
            return QuestionOutcome(index, line, qtype, name, status, tuple(dict.fromkeys(notes)))

        if qtype == "description":
            text, changes = html_to_content(child_text(question, "questiontext"))
            result.pending.append(Pending(outcome("changed" if changes else "imported", changes),
                                          category, description=text))
            continue
        converter = SUPPORTED.get(qtype)
        if converter is None:
            reason = NOT_YET.get(qtype, f"the question type '{qtype}' is not imported")
            result.pending.append(Pending(outcome("skipped", [reason]), category))
            continue
        try:
            converted = converter(question)
        except NotImported as exc:
            result.pending.append(Pending(outcome("skipped", [str(exc)]), category))
            continue
        status = "changed" if converted.changes else "imported"
        result.pending.append(Pending(outcome(status, converted.changes), category, converted))
    return result
