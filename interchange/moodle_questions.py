"""One Moodle XML `<question>` converted into an exercise of the service (or refused).

Each converter returns a `Converted` (the exercise's prompt, parameters and parts, and the
changes the conversion made, in words) or raises `NotImported` with the reason. Every part
carries question tests built from the source's own key, which sync runs in every variant.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

from interchange.moodle_text import child_text, html_to_content, plain

Part = dict[str, Any]
_RESERVED = frozenset({"e", "pi", "i", "j", "oo", "E", "I", "inf"}) | frozenset(
    {"sin", "cos", "tan", "exp", "ln", "log", "sqrt", "abs", "max", "min", "sum", "len"})
_INLINE_FORMULA = re.compile(r"\{=([^{}]+)\}")


class NotImported(Exception):
    """The question is left out; the message says why."""


@dataclass
class Converted:
    """What one question becomes: an exercise (parts) or, for a description, section text."""

    title: str
    prompt: str
    parts: list[Part] = field(default_factory=list)
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)
    derived: dict[str, str] = field(default_factory=dict)
    penalty: float | None = None
    changes: list[str] = field(default_factory=list)


def _fraction(answer: Element) -> float:
    try:
        return float(answer.get("fraction", "0")) / 100
    except ValueError as exc:
        raise NotImported(f"an <answer> has the fraction {answer.get('fraction')!r}") from exc


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise NotImported(f"{what} {text!r} is not a number") from exc
    return value


def _plain_number(value: float) -> int | float:
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _base(question: Element, changes: list[str]) -> Converted:
    prompt, more = html_to_content(child_text(question, "questiontext"))
    changes.extend(more)
    name = plain(child_text(question, "name")) or "Imported question"
    general, more = html_to_content(child_text(question, "generalfeedback"))
    if general:
        changes.append("the general feedback was left out (shown after an answer in Moodle)")
    penalty_text = child_text(question, "penalty")
    penalty = round(float(penalty_text), 4) if re.fullmatch(r"[0-9.]+", penalty_text or "x") else None
    return Converted(title=name[:200], prompt=prompt or name, penalty=penalty, changes=changes)


def _points(question: Element) -> float:
    text = child_text(question, "defaultgrade", "1")
    try:
        return max(0.0, float(text)) or 1.0
    except ValueError:
        return 1.0


def _feedback(answer: Element) -> str:
    return plain(html_to_content(child_text(answer, "feedback"))[0])


def _answers(question: Element) -> list[Element]:
    answers = question.findall("answer")
    if not answers:
        raise NotImported("the question has no <answer>")
    return answers


def _units(question: Element, part: Part, changes: list[str]) -> None:
    """A numerical or calculated part with units becomes a quantity in its base unit."""
    units = [(child_text(u, "unit_name"), child_text(u, "multiplier", "1"))
             for u in question.findall("units/unit")]
    base = [name for name, multiplier in units if name and _number(multiplier, "a unit multiplier") == 1]
    if not units or not base:
        return
    part["type"] = "quantity"
    part["unit"] = base[0]
    grading = child_text(question, "unitgradingtype", "0")
    part["unit_mode"] = "optional" if grading == "0" else "required"
    penalty = child_text(question, "unitpenalty", "0")
    if grading != "0" and _number(penalty, "the unit penalty") > 0:
        part["magnitude_credit"] = round(max(0.0, 1 - float(penalty)), 4)
    if len(units) > 1:
        changes.append(f"units other than {base[0]} are accepted by their dimension "
                       "(converted exactly), not by Moodle's multipliers")


def numerical(question: Element) -> Converted:
    """`numerical`: the best answer is the key, its tolerance absolute; others are credits."""
    changes: list[str] = []
    out = _base(question, changes)
    answers = [a for a in _answers(question) if child_text(a, "text") != "*"]
    if len(answers) < len(_answers(question)):
        changes.append("the catch-all answer '*' became the part's feedback for a wrong answer")
    if not answers:
        raise NotImported("the only answer is the catch-all '*'")
    answers.sort(key=_fraction, reverse=True)
    best = answers[0]
    if _fraction(best) < 1:
        raise NotImported("no answer earns full marks")
    part: Part = {"key": "answer", "type": "numeric", "points": _points(question)}
    value = _number(child_text(best, "text"), "the answer")
    part["reference"] = child_text(best, "text")
    tolerance = _number(child_text(best, "tolerance", "0") or "0", "the tolerance")
    if tolerance > 0:
        part["atol"] = _plain_number(abs(tolerance))
    if feedback := _feedback(best):
        part["feedback_correct"] = feedback
    alternatives: list[Part] = []
    for other in answers[1:]:
        text = child_text(other, "text")
        _number(text, "the answer")
        entry: Part = {"answer": text, "credit": round(max(0.0, _fraction(other)), 4)}
        if (feedback := _feedback(other)):
            entry["feedback"] = feedback
        other_tolerance = _number(child_text(other, "tolerance", "0") or "0", "the tolerance")
        entry["atol"] = _plain_number(abs(other_tolerance))
        if entry["credit"] == 0:
            entry["tag"] = f"answer-{len(alternatives) + 1}"
        alternatives.append(entry)
    if alternatives:
        part["alternatives"] = alternatives
    catch_all = [a for a in _answers(question) if child_text(a, "text") == "*"]
    if catch_all and (feedback := _feedback(catch_all[0])):
        part["feedback_incorrect"] = feedback
    _units(question, part, changes)
    typed = f"{_plain_number(value)}" + (f" {part['unit']}" if part.get("unit") else "")
    part["tests"] = [{"answer": typed, "outcome": "correct"}]
    out.parts.append(part)
    return out


def _wildcard_pattern(texts: list[str]) -> str:
    """Moodle's `*` (any text) as an RE2 pattern of the whole answer; `\\*` is a star."""
    def one(text: str) -> str:
        pieces = re.split(r"(?<!\\)\*", text)
        return ".*".join(re.escape(piece.replace("\\*", "*")) for piece in pieces)
    return "|".join(f"(?:{one(t)})" for t in texts)


def shortanswer(question: Element) -> Converted:
    """`shortanswer`: a string part; `*` wildcards become a pattern, `usecase` the case rule."""
    changes: list[str] = []
    out = _base(question, changes)
    answers = sorted(_answers(question), key=_fraction, reverse=True)
    full = [child_text(a, "text") for a in answers if _fraction(a) >= 1]
    if not full:
        raise NotImported("no answer earns full marks")
    part: Part = {"key": "answer", "type": "string", "points": _points(question),
                  "case_sensitive": child_text(question, "usecase", "0") == "1"}
    wild = any(re.search(r"(?<!\\)\*", text) for text in full)
    if wild:
        part["pattern"] = _wildcard_pattern(full)
    else:
        part["reference"] = [t.replace("\\*", "*") for t in full]
    if (feedback := _feedback(answers[0])):
        part["feedback_correct"] = feedback
    alternatives: list[Part] = []
    misconceptions: list[Part] = []
    for other in answers[len(full):]:
        text = child_text(other, "text")
        credit = round(max(0.0, _fraction(other)), 4)
        if text == "*":
            if (feedback := _feedback(other)):
                part["feedback_incorrect"] = feedback
            continue
        has_wild = bool(re.search(r"(?<!\\)\*", text))
        if credit > 0:
            entry: Part = {"answer": text.replace("\\*", "*"), "credit": credit}
            if has_wild:
                entry = {"answer": "", "pattern": _wildcard_pattern([text]), "credit": credit}
                changes.append(f"the partly right answer {text!r} is matched as a pattern")
            if (feedback := _feedback(other)):
                entry["feedback"] = feedback
            alternatives.append(entry)
        elif (feedback := _feedback(other)):
            tag = f"answer-{len(misconceptions) + 1}"
            key = {"pattern": _wildcard_pattern([text])} if has_wild else {"answer": text}
            misconceptions.append({**key, "tag": tag, "feedback": feedback})
    if alternatives:
        part["alternatives"] = alternatives
    if misconceptions:
        part["misconceptions"] = misconceptions
    sample = re.sub(r"(?<!\\)\*", "", full[0]).replace("\\*", "*")
    part["tests"] = [{"answer": sample, "outcome": "correct"}] if sample.strip() else []
    out.parts.append(part)
    return out


def _choice(question: Element, options: list[tuple[str, str, float, str]], multiple: bool,
            out: Converted) -> Converted:
    part: Part = {"key": "answer", "type": "choice", "points": _points(question),
                  "options": [{"key": key, "text": text} for key, text, _, _ in options]}
    best = max(fraction for _, _, fraction, _ in options)
    if multiple:
        correct = [key for key, _, fraction, _ in options if fraction > 0]
        part.update(multiple=True, partial=True)
        share = 1 / len(correct) if correct else 0
        if any(abs(f - share) > 0.01 for _, _, f, _ in options if f > 0) or \
                any(abs(f + share) > 0.01 and f != 0 for _, _, f, _ in options if f <= 0):
            out.changes.append("partial credit is (right picks - wrong picks) / number right, "
                               "not Moodle's own fractions")
    else:
        if best < 1:
            raise NotImported("no option earns full marks")
        correct = [key for key, _, fraction, _ in options if fraction >= 1]
    if not correct:
        raise NotImported("no option is right")
    part["correct"] = correct
    alternatives = [{"answer": [key], "credit": round(fraction, 4)}
                    for key, _, fraction, _ in options if not multiple and 0 < fraction < 1]
    if alternatives:
        part["alternatives"] = alternatives
    misconceptions = [{"answer": key, "tag": f"option-{key}", "feedback": feedback}
                      for key, _, fraction, feedback in options
                      if feedback and key not in correct and not (0 < fraction < 1)]
    if misconceptions:
        part["misconceptions"] = misconceptions
    right = [feedback for key, _, _, feedback in options if key in correct and feedback]
    if right:
        part["feedback_correct"] = right[0]
    part["tests"] = [{"answer": ",".join(correct), "outcome": "correct"}] + [
        {"answer": key, "outcome": "incorrect"} for key, _, fraction, _ in options
        if fraction <= 0 and not multiple]
    out.parts.append(part)
    return out


def multichoice(question: Element) -> Converted:
    """`multichoice`: single or multiple choice; fractions are credit; option feedback kept."""
    out = _base(question, [])
    options: list[tuple[str, str, float, str]] = []
    for index, answer in enumerate(_answers(question)):
        text, more = html_to_content(child_text(answer, "text"))
        out.changes.extend(more)
        options.append((_option_key(index), plain(text) or f"Option {index + 1}",
                        _fraction(answer), _feedback(answer)))
    single = child_text(question, "single", "true").lower() in ("true", "1")
    return _choice(question, options, not single, out)


def truefalse(question: Element) -> Converted:
    """`truefalse`: a choice of True and False."""
    out = _base(question, [])
    options = []
    for answer in _answers(question):
        word = child_text(answer, "text").lower()
        if word not in ("true", "false"):
            raise NotImported(f"a true/false answer reads {word!r}")
        options.append((word, word.capitalize(), _fraction(answer), _feedback(answer)))
    return _choice(question, options, False, out)


def essay(question: Element) -> Converted:
    """`essay`: a text part that a person reviews; the grader information guides the reviewer."""
    out = _base(question, [])
    info = plain(html_to_content(child_text(question, "graderinfo"))[0])
    model = info or "A model answer was not given in the source."
    word = next((w for w in re.findall(r"[a-z]{5,}", model.lower())), "answer")
    out.parts.append({
        "key": "answer", "type": "text", "points": _points(question), "review": "always",
        "reference": model if word != "answer" or "answer" in model.lower() else model + " answer",
        "rubric": [{"key": "reviewed", "phrasings": [word]}],
        "review_rubric": info or "Grade by the question's intent.",
    })
    out.changes.append("graded by a person (review = always); the rubric holds one placeholder "
                       "concept taken from the grader information")
    return out


def _option_key(index: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[index] if index < 26 else f"o{index + 1}"


CONVERTERS: dict[str, Callable[[Element], Converted]] = {
    "numerical": numerical, "shortanswer": shortanswer, "multichoice": multichoice,
    "truefalse": truefalse, "essay": essay,
}
