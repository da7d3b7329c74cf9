"""Moodle `calculated` and `calculatedsimple` questions, and `matching`.

A calculated question's wildcards `{a}` become variant parameters (their dataset's values as
`choices`, or the definition's range on a grid of its decimals), its formula the part's key
(translated by `formulas.translate`, never evaluated as text), `{a}` in the text `{{ a }}`
and `{=formula}` a derived parameter.
"""

import re
from typing import Any
from xml.etree.ElementTree import Element

from interchange.formulas import FormulaError, translate
from interchange.moodle_questions import (
    _RESERVED,
    Converted,
    NotImported,
    Part,
    _answers,
    _base,
    _feedback,
    _fraction,
    _number,
    _plain_number,
    _points,
    _units,
)
from interchange.moodle_text import child_text, html_to_content, plain

MAX_DATASET_ITEMS = 200


def _name_of(wildcard: str) -> str:
    return f"w_{wildcard}" if wildcard in _RESERVED or wildcard.lower() in _RESERVED else wildcard


def _parameter(definition: Element) -> tuple[str, dict[str, Any]]:
    name = child_text(definition, "name")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise NotImported(f"the wildcard name {name!r} cannot be a parameter")
    values: list[int | float] = []
    for item in definition.findall("dataset_items/dataset_item")[:MAX_DATASET_ITEMS]:
        value = _number(child_text(item, "value"), f"a value of {{{name}}}")
        if _plain_number(value) not in values:
            values.append(_plain_number(value))
    if values:
        return name, {"default": values[0], "choices": values}
    low = _number(child_text(definition, "minimum"), f"the minimum of {{{name}}}")
    high = _number(child_text(definition, "maximum"), f"the maximum of {{{name}}}")
    decimals = int(_number(child_text(definition, "decimals", "0") or "0", "decimals"))
    step = 10.0 ** -decimals
    spec: dict[str, Any] = {"default": _plain_number(round(low, decimals)),
                            "min": _plain_number(round(low, decimals)),
                            "max": _plain_number(round(high, decimals)),
                            "step": _plain_number(round(step, decimals))}
    return name, spec


def calculated(question: Element) -> Converted:
    """`calculated`/`calculatedsimple`: wildcards become parameters, the formula the key."""
    out = _base(question, [])
    definitions = question.findall("dataset_definitions/dataset_definition")
    for definition in definitions:
        name, spec = _parameter(definition)
        out.parameters[_name_of(name)] = spec
    if len(definitions) > 1 and any(len(d.findall("dataset_items/dataset_item")) > 1
                                    for d in definitions):
        out.changes.append("each wildcard's values combine freely with the others' (Moodle "
                           "draws them as numbered sets)")
    answers = sorted(_answers(question), key=_fraction, reverse=True)
    best = answers[0]
    if _fraction(best) < 1:
        raise NotImported("no answer earns full marks")
    try:
        reference, used = translate(child_text(best, "text"), _name_of)
    except FormulaError as exc:
        raise NotImported(f"the formula {child_text(best, 'text')!r}: {exc}") from exc
    missing = [w for w in used if _name_of(w) not in out.parameters]
    if missing:
        raise NotImported(f"the wildcard {{{missing[0]}}} has no dataset definition")
    part: Part = {"key": "answer", "type": "numeric", "points": _points(question),
                  "reference": reference}
    _tolerance(best, part, out)
    if (feedback := _feedback(best)):
        part["feedback_correct"] = feedback
    if len(answers) > 1:
        out.changes.append(f"{len(answers) - 1} further answer formula(s) were left out")
    _units(question, part, out.changes)
    out.prompt = _prompt(out, out.prompt)
    typed = re.sub(r"\b([A-Za-z_][A-Za-z0-9_]*)\b",
                   lambda m: f"({{{{ {m.group(1)} }}}})" if m.group(1) in out.parameters
                   else m.group(1), reference)
    if part.get("unit"):
        typed = f"({typed}) {part['unit']}"
    part["tests"] = [{"answer": typed, "outcome": "correct"}]
    out.parts.append(part)
    return out


def _tolerance(answer: Element, part: Part, out: Converted) -> None:
    tolerance = abs(_number(child_text(answer, "tolerance", "0") or "0", "the tolerance"))
    kind = child_text(answer, "tolerancetype", "1")
    if tolerance == 0:
        return
    if kind == "2":
        part["atol"] = _plain_number(tolerance)
    elif kind == "3":
        part["rtol"] = min(0.99, tolerance)
        out.changes.append("the geometric tolerance became a relative one")
    else:
        part["rtol"] = min(0.99, tolerance)


def _prompt(out: Converted, prompt: str) -> str:
    """`{a}` as `{{ a }}` and each `{=formula}` as a derived parameter shown the same way."""
    def inline(match: re.Match[str]) -> str:
        try:
            expression, _ = translate(match.group(1), _name_of)
        except FormulaError as exc:
            raise NotImported(f"the inline formula {{={match.group(1)}}}: {exc}") from exc
        name = f"f{len(out.derived) + 1}"
        out.derived[name] = expression
        return f"{{{{ {name} }}}}"

    text = re.sub(r"\{=((?:[^{}]|\{[A-Za-z_][A-Za-z0-9_]*\})+)\}", inline, prompt)
    for wildcard in list(out.parameters):
        original = wildcard[2:] if wildcard.startswith("w_") else wildcard
        text = text.replace(f"{{{original}}}", f"{{{{ {wildcard} }}}}")
    return text


def matching(question: Element) -> Converted:
    """`matching`: rows are the stems, columns the distinct answers; the key pairs them."""
    out = _base(question, [])
    rows: list[tuple[str, str]] = []
    columns: dict[str, str] = {}
    correct: dict[str, str] = {}
    for sub in question.findall("subquestion"):
        stem = plain(html_to_content(child_text(sub, "."))[0]) if sub.find("text") is not None else ""
        answer = plain(child_text(sub, "answer"))
        if answer and answer not in columns.values():
            columns[f"c{len(columns) + 1}"] = answer
        if stem:
            key = f"r{len(rows) + 1}"
            rows.append((key, stem))
            correct[key] = next(k for k, v in columns.items() if v == answer)
    if len(rows) < 2:
        raise NotImported("a matching question needs at least two statements")
    table = "\n".join([f"- **{key}**: {stem}" for key, stem in rows] + [""] +
                      [f"- **{key}**: {text}" for key, text in columns.items()])
    out.prompt = f"{out.prompt}\n\nMatch each statement to an option (e.g. `r1=c2, r2=c1`):\n\n{table}"
    out.parts.append({
        "key": "answer", "type": "matching", "points": _points(question),
        "rows": [key for key, _ in rows], "columns": list(columns), "correct": correct,
        "tests": [{"answer": ", ".join(f"{r}={c}" for r, c in correct.items()),
                   "outcome": "correct"}],
    })
    return out
