"""A module folder exported to Moodle XML, for the parts Moodle can carry.

A `choice` part becomes a `multichoice` question; a `numeric` or `integer` part becomes a
`numerical` question when its key names no parameter, else a `calculated` question whose
wildcards are the parameters it uses and whose dataset is the exercise's variants, numbered
as sync numbers them (at most 100, Moodle's limit); the key is written in Moodle's formula
syntax from the maths reader's tree (`pow`, `pi()`, `log` for ln). Every other part is listed
as not exported, with its type.
"""

import re
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, SubElement, indent, tostring

from courses.content_files import read_module_folder
from grading.checkers.mathparse import (
    Abs,
    BinOp,
    Call,
    Const,
    FormatError,
    Neg,
    Num,
    Pow,
    Var,
    parse,
)
from grading.checkers.mathparse.nodes import walk
from grading.variant_space import variants_all
from grading.variants import reference_value

MAX_DATASET_ITEMS = 100
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
#: The service's function name -> Moodle's.
_MOODLE_FUNCTIONS = {
    "ln": "log", "log10": "log10", "sqrt": "sqrt", "exp": "exp", "sin": "sin", "cos": "cos",
    "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan", "atan2": "atan2",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "floor": "floor", "ceil": "ceil",
    "min": "min", "max": "max", "abs": "abs",
}


class NotExported(ValueError):
    """The part has no Moodle equivalent (the message says why)."""


def moodle_formula(node: Any) -> str:
    """The maths reader's tree written in Moodle's calculated-question syntax."""
    if isinstance(node, Num):
        return node.text
    if isinstance(node, Var):
        return f"{{{node.name}}}"
    if isinstance(node, Const):
        if node.name == "pi":
            return "pi()"
        if node.name == "e":
            return "exp(1)"
        raise NotExported(f"the constant {node.name} has no Moodle spelling")
    if isinstance(node, BinOp):
        return f"({moodle_formula(node.left)} {node.op} {moodle_formula(node.right)})"
    if isinstance(node, Neg):
        return f"(-{moodle_formula(node.operand)})"
    if isinstance(node, Pow):
        return f"pow({moodle_formula(node.base)}, {moodle_formula(node.exponent)})"
    if isinstance(node, Abs):
        return f"abs({moodle_formula(node.operand)})"
    if isinstance(node, Call) and node.func in _MOODLE_FUNCTIONS:
        args = ", ".join(moodle_formula(a) for a in node.args)
        return f"{_MOODLE_FUNCTIONS[node.func]}({args})"
    raise NotExported(f"'{getattr(node, 'func', type(node).__name__)}' has no Moodle formula")


def _text(parent: Element, tag: str, value: str, *, html: bool = False) -> Element:
    element = SubElement(parent, tag, {"format": "html"} if html else {})
    SubElement(element, "text").text = value
    return element


def _question(quiz: Element, qtype: str, name: str, prompt: str, points: float) -> Element:
    question = SubElement(quiz, "question", {"type": qtype})
    _text(question, "name", name)
    _text(question, "questiontext", prompt, html=True)
    SubElement(question, "defaultgrade").text = str(points)
    return question


def _prompt(exercise: dict[str, Any], part: dict[str, Any], wildcard: bool,
            defaults: dict[str, Any]) -> str:
    text = "\n\n".join(t for t in (exercise.get("prompt", ""), part.get("prompt", "")) if t)
    if wildcard:
        return _PLACEHOLDER.sub(lambda m: f"{{{m.group(1)}}}", text)
    return _PLACEHOLDER.sub(lambda m: str(defaults.get(m.group(1), m.group(0))), text)


def _choice(quiz: Element, exercise: dict[str, Any], part: dict[str, Any], name: str,
            defaults: dict[str, Any]) -> None:
    question = _question(quiz, "multichoice", name, _prompt(exercise, part, False, defaults),
                         float(part.get("points", 1)))
    multiple = bool(part.get("multiple"))
    SubElement(question, "single").text = "false" if multiple else "true"
    correct = set(part.get("correct", []))
    share = 100 / max(1, len(correct))
    for option in part.get("options", []):
        right = option["key"] in correct
        fraction = (share if right else -share) if multiple else (100 if right else 0)
        answer = SubElement(question, "answer", {"fraction": f"{fraction:g}"})
        SubElement(answer, "text").text = str(option.get("text", option["key"]))


def _tolerance(part: dict[str, Any], value: float) -> tuple[str, float]:
    if "atol" in part:
        return "2", float(part["atol"])
    if "rtol" in part:
        return "1", float(part["rtol"])
    if "sigfigs" in part and value:
        return "1", 0.5 * 10 ** (1 - int(part["sigfigs"]))
    return "2", 0.0


def _numeric(quiz: Element, exercise: dict[str, Any], part: dict[str, Any], name: str) -> None:
    parameters = exercise.get("parameters", {})
    derived = exercise.get("derived", {})
    names = [*parameters, *derived]
    try:
        tree = parse(str(part["reference"]), variables=names).node
        variants = list(variants_all(parameters, derived))
        value = float(reference_value(str(part["reference"]), variants[0].params))
    except (FormatError, ValueError, TypeError) as exc:
        raise NotExported(f"its key {part['reference']!r} is not a number of the parameters "
                          "(earlier answers, lists)") from exc
    used = sorted({n.name for n in walk(tree) if isinstance(n, Var)})
    kind, tolerance = _tolerance(part, value)
    points = float(part.get("points", 1))
    if not used:
        question = _question(quiz, "numerical", name,
                             _prompt(exercise, part, False, variants[0].params), points)
        answer = SubElement(question, "answer", {"fraction": "100"})
        SubElement(answer, "text").text = repr(value)
        SubElement(answer, "tolerance").text = repr(tolerance * abs(value) if kind == "1"
                                                    else tolerance)
        return
    if any(not isinstance(variants[0].params[n], int | float) for n in used):
        raise NotExported("a list or matrix parameter has no Moodle dataset")
    question = _question(quiz, "calculated", name, _prompt(exercise, part, True, {}), points)
    SubElement(question, "synchronize").text = "1"
    answer = SubElement(question, "answer", {"fraction": "100"})
    SubElement(answer, "text").text = moodle_formula(tree)
    SubElement(answer, "tolerance").text = repr(tolerance)
    SubElement(answer, "tolerancetype").text = kind
    definitions = SubElement(question, "dataset_definitions")
    rows = variants[1:MAX_DATASET_ITEMS + 1] or variants[:1]
    for wildcard in used:
        values = [float(row.params[wildcard]) for row in rows]
        definition = SubElement(definitions, "dataset_definition")
        _text(definition, "status", "private")
        _text(definition, "name", wildcard)
        SubElement(definition, "type").text = "calculated"
        _text(definition, "distribution", "uniform")
        _text(definition, "minimum", repr(min(values)))
        _text(definition, "maximum", repr(max(values)))
        _text(definition, "decimals", "3")
        SubElement(definition, "itemcount").text = str(len(values))
        items = SubElement(definition, "dataset_items")
        for number, item in enumerate(values, start=1):
            row = SubElement(items, "dataset_item")
            SubElement(row, "number").text = str(number)
            SubElement(row, "value").text = repr(item)
        SubElement(definition, "number_of_items").text = str(len(values))


def export_module(folder: Path, slugs: list[str] | None = None) -> tuple[bytes, list[str]]:
    """The module at `folder` (only the exercises `slugs` when given) as Moodle XML, and a
    line for each part not exported; an unknown slug is a ValueError."""
    files = read_module_folder(folder)
    known = {source.data.get("slug") for source in files.exercises}
    if slugs and (unknown := [s for s in slugs if s not in known]):
        raise ValueError(f"no exercise {unknown[0]!r} in {folder}")
    quiz = Element("quiz")
    category = SubElement(quiz, "question", {"type": "category"})
    title = files.module.data.get("title", folder.name) if files.module else folder.name
    _text(category, "category", f"$course$/top/{title}")
    skipped: list[str] = []
    for source in files.exercises:
        if slugs and source.data.get("slug") not in slugs:
            continue
        exercise = source.data
        parts = exercise.get("parts", [])
        for part in parts:
            name = exercise.get("title", exercise.get("slug", "?")) + (
                f" / {part['key']}" if len(parts) > 1 else "")
            try:
                if part.get("type") == "choice":
                    _choice(quiz, exercise, part, name,
                            next(iter(variants_all(exercise.get("parameters", {}),
                                                   exercise.get("derived", {})))).params)
                elif part.get("type") in ("numeric", "integer") and "units" not in part:
                    _numeric(quiz, exercise, part, name)
                else:
                    raise NotExported(f"the type '{part.get('type')}' is not exported to Moodle")
            except NotExported as exc:
                skipped.append(f"{source.display_path}: part '{part.get('key')}': {exc}")
    indent(quiz)
    return tostring(quiz, encoding="utf-8", xml_declaration=True), skipped
