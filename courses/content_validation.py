"""Checking what content files mean: required fields, types, references between items.

`validate_content` returns every problem at once (as `file:line: reason`) so an author
fixes a whole batch in one go; nothing is applied while any problem remains.
"""

import math
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import models

from courses.content_files import ContentError, ContentFiles, SourceFile
from courses.figure_kinds import FIGURE_KINDS, figure_data_problems
from courses.models import Exercise, Figure, Lab, Module, Part, Section

ANSWER_TYPES = ("numeric", "symbolic", "vector", "integer", "choice", "text", "matrix", "quantity",
                "set", "list", "string", "equation", "matching", "logic", "item_list")


@dataclass(frozen=True)
class FieldRule:
    types: tuple[type, ...]
    required: bool = True
    #: Bounds of a number (inclusive), so that what the database stores is what was meant.
    minimum: float | None = None
    maximum: float | None = None
    #: The longest string its column holds (the model field's max_length), so that sync
    #: reports a too-long value at its line instead of failing in the database.
    max_length: int | None = None


#: The largest whole number an `order` or count column holds on every database.
MAX_STORED_INT = 2_147_483_647
#: Bounds of numeric fields, by name, wherever they appear.
NUMBER_BOUNDS: dict[str, tuple[float, float]] = {
    "order": (0, MAX_STORED_INT),
    "max_attempts": (0, 10_000),
    "penalty": (0.0, 1.0),
    "points": (0.0, 10_000.0),
}
#: Characters no content string may hold: NUL and the other C0/C1 controls (tab, newline and
#: carriage return are text). PostgreSQL refuses NUL outright; the others hide in pages.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _rules(
    required: Mapping[str, tuple[type, ...]], optional: Mapping[str, tuple[type, ...]],
    model: type[models.Model],
) -> dict[str, FieldRule]:
    lengths = {field.name: field.max_length for field in model._meta.fields
               if isinstance(field, models.CharField) and field.max_length}

    def rule(name: str, types: tuple[type, ...], needed: bool) -> FieldRule:
        low, high = NUMBER_BOUNDS.get(name, (None, None))
        return FieldRule(types, required=needed, minimum=low, maximum=high,
                         max_length=lengths.get(name))

    rules = {name: rule(name, types, True) for name, types in required.items()}
    rules.update({name: rule(name, types, False) for name, types in optional.items()})
    return rules


STR = (str,)
INT = (int,)
NUMBER = (int, float)
TABLE = (dict,)
LIST = (list,)

MODULE_FIELDS = _rules(
    {"uuid": STR, "slug": STR, "number": STR, "title": STR},
    {"intro": STR, "references": LIST},
    model=Module,
)
SECTION_FIELDS = _rules(
    {"uuid": STR, "number": STR, "slug": STR, "title": STR, "order": INT},
    {"label": STR},
    model=Section,
)
FIGURE_FIELDS = _rules(
    {"uuid": STR, "slug": STR, "section": STR, "number": STR, "title": STR, "kind": STR},
    {"instructions": STR, "caption": STR, "in_words": STR, "data": TABLE},
    model=Figure,
)
LAB_FIELDS = _rules(
    {"uuid": STR, "slug": STR, "section": STR, "title": STR, "simulation": STR},
    {"description": STR, "order": INT, "params": TABLE},
    model=Lab,
)
EXERCISE_FIELDS = _rules(
    {"uuid": STR, "slug": STR, "kind": STR, "section": STR, "title": STR, "prompt": STR,
     "parts": LIST},
    {"order": INT, "parameters": TABLE, "derived": TABLE, "max_attempts": INT,
     "penalty": NUMBER},
    model=Exercise,
)
PART_REQUIRED = {"key": STR, "type": STR}
PART_OPTIONAL = {"points": NUMBER, "prompt": STR, "label": STR}

SpecValidator = Callable[[dict[str, Any]], list[str]]
LabParamsValidator = Callable[[str, dict[str, Any]], list[str]]
LabSchemaBuilder = Callable[[str, dict[str, Any]], dict[str, Any]]


@dataclass
class Validators:
    """Hooks into the apps above: grading checks part specs, labs a lab's simulation and
    parameter overrides (and builds the schema stored with the lab)."""

    part_spec: SpecValidator | None = None
    lab: LabParamsValidator | None = None
    lab_schema: LabSchemaBuilder | None = None


#: Filled by GradingConfig.ready() and LabsConfig.ready(): courses never imports the apps
#: that own those vocabularies (they sit above it).
REGISTERED = Validators()


def content_validators_register(*, part_spec: SpecValidator | None = None,
                                lab: LabParamsValidator | None = None,
                                lab_schema: LabSchemaBuilder | None = None) -> None:
    """Install the validators an app owns (each argument given replaces the current one)."""
    if part_spec is not None:
        REGISTERED.part_spec = part_spec
    if lab is not None:
        REGISTERED.lab = lab
    if lab_schema is not None:
        REGISTERED.lab_schema = lab_schema


class _Collector:
    def __init__(self) -> None:
        self.errors: list[ContentError] = []

    def add(self, source: SourceFile, keys: Iterable[str | int], reason: str) -> None:
        self.errors.append(ContentError(source.display_path, source.line_of(*keys), reason))


def _check_fields(
    out: _Collector, source: SourceFile, data: dict[str, Any], rules: dict[str, FieldRule],
    prefix: tuple[str | int, ...] = (),
) -> None:
    for name, rule in rules.items():
        if name not in data:
            if rule.required:
                where = ".".join(str(p) for p in prefix) or source.kind
                out.add(source, prefix, f"missing required field '{name}' in {where}")
            continue
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, rule.types):
            expected = " or ".join(t.__name__ for t in rule.types)
            out.add(source, (*prefix, name), f"'{name}' must be {expected}, not {type(value).__name__}")
        elif isinstance(value, str) and rule.types == STR and not value.strip():
            out.add(source, (*prefix, name), f"'{name}' must not be empty")
        elif isinstance(value, str) and rule.max_length is not None and len(value) > rule.max_length:
            out.add(source, (*prefix, name),
                    f"'{name}' must be at most {rule.max_length} characters, not {len(value)}")
        elif isinstance(value, int | float):
            problem = _number_problem(name, value, rule)
            if problem:
                out.add(source, (*prefix, name), problem)


def _number_problem(name: str, value: float, rule: FieldRule) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return f"'{name}' must be a finite number, not {value}"
    low, high = rule.minimum, rule.maximum
    if (low is not None and value < low) or (high is not None and value > high):
        return f"'{name}' must be between {low:g} and {high:g}, not {value:g}"
    return None


def _check_text(out: _Collector, source: SourceFile) -> None:
    """No string anywhere in the file (nor a Markdown body) may hold control characters."""

    def visit(value: Any, keys: tuple[str | int, ...]) -> None:
        if isinstance(value, str):
            found = _CONTROL.search(value)
            if found:
                where = ".".join(str(k) for k in keys if isinstance(k, str)) or "the file"
                out.add(source, keys, f"'{where}' holds a control character "
                                      f"(U+{ord(found.group()):04X}); remove it")
        elif isinstance(value, dict):
            for key, item in value.items():
                visit(item, (*keys, str(key)))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, (*keys, index) if isinstance(item, dict) else keys)

    visit(source.data, ())
    found = _CONTROL.search(source.body)
    if found:
        line = source.body[:found.start()].count("\n") + 1
        out.errors.append(ContentError(
            source.display_path, source.text.count("\n") + 1 + source.line_offset + line,
            f"the body holds a control character (U+{ord(found.group()):04X}); remove it"))


def _check_unknown(
    out: _Collector, source: SourceFile, data: dict[str, Any], known: Iterable[str]
) -> None:
    for name in sorted(set(data) - set(known)):
        out.add(source, (name,), f"unknown field '{name}'")


def _check_uuid(out: _Collector, source: SourceFile, seen: dict[str, str]) -> None:
    raw = source.data.get("uuid")
    if not isinstance(raw, str):
        return
    try:
        value = str(uuid.UUID(raw))
    except ValueError:
        out.add(source, ("uuid",), f"'{raw}' is not a valid uuid")
        return
    if value in seen:
        out.add(source, ("uuid",), f"uuid {value} is already used by {seen[value]}")
    seen[value] = source.display_path


def _check_unique(
    out: _Collector, sources: list[SourceFile], field_name: str, what: str
) -> None:
    seen: dict[Any, str] = {}
    for source in sources:
        value = source.data.get(field_name)
        if not isinstance(value, str | int) or isinstance(value, bool):
            continue  # a missing or mistyped value is reported by _check_fields
        if value in seen:
            out.add(source, (field_name,), f"{what} {field_name} '{value}' is already used by {seen[value]}")
        seen[value] = source.display_path


def _check_section_ref(
    out: _Collector, source: SourceFile, section_numbers: set[str]
) -> None:
    number = source.data.get("section")
    if isinstance(number, str) and number not in section_numbers:
        known = ", ".join(sorted(section_numbers))
        out.add(source, ("section",), f"section '{number}' does not exist (known: {known})")


def _check_choice(
    out: _Collector, source: SourceFile, name: str, allowed: list[str], what: str
) -> None:
    value = source.data.get(name)
    if isinstance(value, str) and value not in allowed:
        out.add(source, (name,), f"unknown {what} '{value}' (use one of {', '.join(allowed)})")


def _check_figure_kind(out: _Collector, source: SourceFile) -> None:
    """The kind is registered, and its `[data]` is what the kind draws."""
    kind = source.data.get("kind")
    if not isinstance(kind, str):
        return
    if kind not in FIGURE_KINDS:
        _check_choice(out, source, "kind", sorted(FIGURE_KINDS), "figure kind")
        return
    data = source.data.get("data", {})
    for problem in figure_data_problems(kind, data):
        out.add(source, ("data", *problem.keys), f"figure data: {problem.reason}")


#: How parts are written, for the messages that refuse another spelling.
PARTS_SPELLING = ("write each part as a [[parts]] table holding its key and its spec's fields "
                  "(key = \"...\", type = \"...\", reference = \"...\", ...)")


def _check_named_parts(out: _Collector, source: SourceFile, parts: dict[str, Any]) -> None:
    """`[parts.name]` tables (a table of parts by name) instead of `[[parts]]` tables."""
    for name in parts:
        out.add(source, ("parts", name),
                f"parts are not named by their tables: write [[parts]] and then key = \"{name}\" "
                f"instead of [parts.{name}] ({PARTS_SPELLING})")


def _nested_spec_problem(part: dict[str, Any]) -> str | None:
    """A part whose spec sits in a `spec = { ... }` table instead of in the part itself."""
    nested = part.get("spec")
    if not isinstance(nested, dict):
        return None
    fields = ", ".join(f"{name} = ..." for name in list(nested)[:3])
    return (f"a part's spec is not a 'spec' table: move its fields ({fields}) into the "
            f"[[parts]] table itself and remove spec = {{ ... }} ({PARTS_SPELLING})")


def _check_parts(out: _Collector, source: SourceFile, validators: Validators) -> None:
    parts = source.data.get("parts")
    if isinstance(parts, dict):
        _check_named_parts(out, source, parts)
        return
    if not isinstance(parts, list):
        return
    if not parts:
        out.add(source, ("parts",), "an exercise needs at least one [[parts]] table")
    keys: set[str] = set()
    for index, part in enumerate(parts):
        where: tuple[str | int, ...] = ("parts", index)
        if not isinstance(part, dict):
            out.add(source, where, f"part {index + 1} must be a table")
            continue
        nested = _nested_spec_problem(part)
        if nested:
            out.add(source, (*where, "spec"), nested)
            continue
        _check_fields(out, source, part, _rules(PART_REQUIRED, PART_OPTIONAL, model=Part), where)
        key = part.get("key")
        if isinstance(key, str):
            if key in keys:
                out.add(source, (*where, "key"), f"part key '{key}' appears twice")
            keys.add(key)
        answer_type = part.get("type")
        if isinstance(answer_type, str) and answer_type not in ANSWER_TYPES:
            out.add(source, (*where, "type"),
                    f"unknown answer type '{answer_type}' (use one of {', '.join(ANSWER_TYPES)})")
            continue
        if validators.part_spec is not None and isinstance(answer_type, str):
            for problem in validators.part_spec(_part_context(source, part)):
                out.add(source, (*where, _problem_key(problem, part)), f"part '{key}': {problem}")


def _part_context(source: SourceFile, part: dict[str, Any]) -> dict[str, Any]:
    """The part spec plus its exercise's variant definitions, which references may use."""
    return {
        "spec": part,
        "parameters": source.data.get("parameters", {}),
        "derived": source.data.get("derived", {}),
        "parts": source.data.get("parts", []),  # a part may use earlier parts' answers
    }


def _problem_key(problem: str, part: dict[str, Any]) -> str:
    """Point the line at the field a problem names, when it names one."""
    for name in part:
        if f"'{name}'" in problem or problem.startswith(name):
            return name
    return "key"


def item_with_parts_problems(
    source: SourceFile, *, required: Mapping[str, tuple[type, ...]],
    optional: Mapping[str, tuple[type, ...]], model: type[models.Model],
    uuids: dict[str, str], validators: Validators | None = None,
) -> list[ContentError]:
    """The checks an exercise file gets (text, fields with their bounds and the model's column
    lengths, unknown fields, a unique uuid among `uuids`, and its `[[parts]]` with each spec
    and its question tests run in every variant), for another kind of file that holds parts
    (an assessment's question). `uuids` (uuid -> file) is updated; `parts` must be among the
    required fields."""
    out = _Collector()
    if not source.data:
        out.add(source, (), f"the {source.kind} file is empty")
    _check_text(out, source)
    rules = _rules(required, optional, model=model)
    if isinstance(source.data.get("parts"), dict):
        rules = {name: rule for name, rule in rules.items() if name != "parts"}
    _check_fields(out, source, source.data, rules)
    _check_unknown(out, source, source.data, _rules(required, optional, model=model))
    _check_uuid(out, source, uuids)
    _check_parts(out, source, validators or Validators())
    return out.errors


def validate_content(files: ContentFiles, validators: Validators | None = None) -> list[ContentError]:
    """All problems in `files`, sorted by file and line; an empty list means safe to apply."""
    validators = validators or Validators()
    out = _Collector()
    out.errors.extend(files.errors)
    uuids: dict[str, str] = {}

    sources = [*([files.module] if files.module else []), *files.sections, *files.figures,
               *files.labs, *files.exercises]
    for source in sources:
        if not source.data:
            out.add(source, (), f"the {source.kind} file is empty")
        _check_text(out, source)

    if files.module is not None:
        _check_fields(out, files.module, files.module.data, MODULE_FIELDS)
        _check_unknown(out, files.module, files.module.data, MODULE_FIELDS)
        _check_uuid(out, files.module, uuids)

    for source in files.sections:
        _check_fields(out, source, source.data, SECTION_FIELDS)
        _check_unknown(out, source, source.data, SECTION_FIELDS)
        _check_uuid(out, source, uuids)
        if not source.body.strip():
            out.add(source, (), "the section has no body text")
    _check_unique(out, files.sections, "number", "section")
    _check_unique(out, files.sections, "slug", "section")
    numbers = {s.data["number"] for s in files.sections if isinstance(s.data.get("number"), str)}

    for source in files.figures:
        _check_fields(out, source, source.data, FIGURE_FIELDS)
        _check_unknown(out, source, source.data, FIGURE_FIELDS)
        _check_uuid(out, source, uuids)
        _check_section_ref(out, source, numbers)
        _check_figure_kind(out, source)
    _check_unique(out, files.figures, "slug", "figure")

    for source in files.labs:
        _check_fields(out, source, source.data, LAB_FIELDS)
        _check_unknown(out, source, source.data, LAB_FIELDS)
        _check_uuid(out, source, uuids)
        _check_section_ref(out, source, numbers)
        simulation = source.data.get("simulation")
        if validators.lab is not None and isinstance(simulation, str):
            for problem in validators.lab(simulation, source.data.get("params", {})):
                out.add(source, ("simulation",), problem)
    _check_unique(out, files.labs, "slug", "lab")

    for source in files.exercises:
        rules = EXERCISE_FIELDS
        if isinstance(source.data.get("parts"), dict):  # [parts.name]: _check_parts says so
            rules = {name: rule for name, rule in rules.items() if name != "parts"}
        _check_fields(out, source, source.data, rules)
        _check_unknown(out, source, source.data, EXERCISE_FIELDS)
        _check_uuid(out, source, uuids)
        _check_section_ref(out, source, numbers)
        _check_choice(out, source, "kind", Exercise.Kind.values, "exercise kind")
        _check_parts(out, source, validators)
    _check_unique(out, files.exercises, "slug", "exercise")

    return sorted(set(out.errors), key=lambda e: (e.path, e.line, e.reason))
