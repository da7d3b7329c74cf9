"""Reading and checking a module's assessments: `assessments/*.toml` (one file per quiz or
exam) and `assessments/questions/*.toml` (the questions its zones draw from, written like
exercises without `section` and `kind`). Every problem is a `file:line: reason`; each part of
every question gets the exercise's checks, its key and question tests run in every variant.
"""

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.db import models

from courses.content_files import ContentError, ContentFiles, SourceFile, read_toml
from courses.content_validation import REGISTERED, item_with_parts_problems
from exams.content_integrity import integrity_problems
from exams.models import Assessment, Question

FOLDER = "assessments"
QUESTIONS = "questions"

QUESTION_REQUIRED: dict[str, tuple[type, ...]] = {
    "uuid": (str,), "slug": (str,), "title": (str,), "prompt": (str,), "parts": (list,)}
QUESTION_OPTIONAL: dict[str, tuple[type, ...]] = {"parameters": (dict,), "derived": (dict,)}
ASSESSMENT_FIELDS: dict[str, tuple[type, ...]] = {
    "uuid": (str,), "slug": (str,), "kind": (str,), "title": (str,), "opens": (datetime,),
    "closes": (datetime,), "zones": (list,),
}
ASSESSMENT_OPTIONAL: dict[str, tuple[type, ...]] = {
    "instructions": (str,), "time_limit": (int,), "attempts": (int,), "counts": (str,),
    "shuffle": (bool,), "feedback": (str,), "key": (str,), "networks": (list,),
    "seb_config_keys": (list,), "weight": (int, float),
}
ZONE_FIELDS: dict[str, tuple[type, ...]] = {"questions": (list,), "draw": (int,)}
ZONE_OPTIONAL: dict[str, tuple[type, ...]] = {"title": (str,)}
CHOICES = {"kind": Assessment.Kind.values, "counts": Assessment.Counts.values,
           "feedback": Assessment.Feedback.values, "key": Assessment.Key.values}
LENGTHS = {f.name: f.max_length for f in Assessment._meta.fields
           if isinstance(f, models.CharField) and f.max_length}
BOUNDS: dict[str, tuple[int, int]] = {"time_limit": (0, 24 * 60), "attempts": (1, 100),
                                      "weight": (0, 1000)}


@dataclass
class AssessmentFiles:
    """A module folder's assessment and question files, and the problems reading them."""

    assessments: list[SourceFile] = field(default_factory=list)
    questions: list[SourceFile] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)


def read_assessments(root: Path) -> AssessmentFiles:
    """Parse every file under `root`/assessments (none: an empty AssessmentFiles)."""
    found = AssessmentFiles()
    for pattern, kind, bucket in (("*.toml", "assessment", found.assessments),
                                  (f"{QUESTIONS}/*.toml", "question", found.questions)):
        for path in sorted((root / FOLDER).glob(pattern)):
            result = read_toml(path, root, kind)
            if isinstance(result, ContentError):
                found.errors.append(result)
            else:
                bucket.append(result)
    return found


def assessment_problems(files: ContentFiles) -> list[ContentError]:
    """Every problem of the module folder's assessments and questions (sorted by file, line)."""
    found = read_assessments(files.root)
    errors = list(found.errors)
    uuids: dict[str, str] = {}
    for source in found.questions:
        errors += item_with_parts_problems(
            source, required=QUESTION_REQUIRED, optional=QUESTION_OPTIONAL, model=Question,
            uuids=uuids, validators=REGISTERED)
    errors += _unique(found.questions, "slug", "question")
    slugs = {s.data["slug"] for s in found.questions if isinstance(s.data.get("slug"), str)}
    for source in found.assessments:
        errors += _assessment_problems(source, slugs, uuids)
    errors += _unique(found.assessments, "slug", "assessment")
    if not errors:
        errors = _database_problems(found, files)
    return sorted(set(errors), key=lambda e: (e.path, e.line, e.reason))


def _unique(sources: list[SourceFile], name: str, what: str) -> list[ContentError]:
    seen: dict[str, str] = {}
    errors = []
    for source in sources:
        value = source.data.get(name)
        if isinstance(value, str):
            if value in seen:
                errors.append(ContentError(source.display_path, source.line_of(name),
                                           f"{what} {name} '{value}' is already used by {seen[value]}"))
            seen[value] = source.display_path
    return errors


def _typed(source: SourceFile, data: dict[str, Any], rules: Mapping[str, tuple[type, ...]],
           required: bool, keys: tuple[str | int, ...] = ()) -> list[ContentError]:
    errors = []
    for name, types in rules.items():
        where = source.line_of(*keys, name) if name in data else source.line_of(*keys)
        if name not in data:
            if required:
                errors.append(ContentError(source.display_path, where,
                                           f"missing required field '{name}'"))
            continue
        value = data[name]
        if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
            expected = " or ".join("a date-time" if t is datetime else t.__name__ for t in types)
            errors.append(ContentError(source.display_path, where,
                                       f"'{name}' must be {expected}, not {type(value).__name__}"))
        elif isinstance(value, datetime) and value.tzinfo is None:
            errors.append(ContentError(source.display_path, where,
                                       f"'{name}' needs a time zone offset (2027-03-01T09:00:00Z "
                                       "or 2027-03-01T10:00:00+01:00)"))
        elif isinstance(value, str) and not value.strip():
            errors.append(ContentError(source.display_path, where, f"'{name}' must not be empty"))
        elif name in CHOICES and value not in CHOICES[name]:
            errors.append(ContentError(source.display_path, where,
                                       f"unknown {name} '{value}' (use one of "
                                       f"{', '.join(CHOICES[name])})"))
        elif isinstance(value, str) and name in LENGTHS and len(value) > LENGTHS[name]:
            errors.append(ContentError(source.display_path, where,
                                       f"'{name}' must be at most {LENGTHS[name]} characters, "
                                       f"not {len(value)}"))
        elif name in BOUNDS and isinstance(value, int | float) \
                and not BOUNDS[name][0] <= value <= BOUNDS[name][1]:
            low, high = BOUNDS[name]
            errors.append(ContentError(source.display_path, where,
                                       f"'{name}' must be between {low} and {high}, not {value}"))
    return errors


def _assessment_problems(source: SourceFile, question_slugs: set[str],
                         uuids: dict[str, str]) -> list[ContentError]:
    data = source.data
    errors = _typed(source, data, ASSESSMENT_FIELDS, True)
    errors += _typed(source, data, ASSESSMENT_OPTIONAL, False)
    for name in sorted(set(data) - set(ASSESSMENT_FIELDS) - set(ASSESSMENT_OPTIONAL)):
        errors.append(ContentError(source.display_path, source.line_of(name),
                                   f"unknown field '{name}'"))
    errors += _uuid_problems(source, uuids)
    errors += integrity_problems(source)
    opens, closes = data.get("opens"), data.get("closes")
    if isinstance(opens, datetime) and isinstance(closes, datetime) and opens.tzinfo \
            and closes.tzinfo and closes <= opens:
        errors.append(ContentError(source.display_path, source.line_of("closes"),
                                   "'closes' must be after 'opens'"))
    zones = data.get("zones")
    if isinstance(zones, list):
        if not zones:
            errors.append(ContentError(source.display_path, source.line_of("zones"),
                                       "an assessment needs at least one [[zones]] table"))
        used: set[str] = set()
        for index, zone in enumerate(zones):
            errors += _zone_problems(source, index, zone, question_slugs, used)
    return errors


def _uuid_problems(source: SourceFile, uuids: dict[str, str]) -> list[ContentError]:
    raw = source.data.get("uuid")
    if not isinstance(raw, str):
        return []
    try:
        value = str(uuid.UUID(raw))
    except ValueError:
        return [ContentError(source.display_path, source.line_of("uuid"),
                             f"'{raw}' is not a valid uuid")]
    if value in uuids:
        return [ContentError(source.display_path, source.line_of("uuid"),
                             f"uuid {value} is already used by {uuids[value]}")]
    uuids[value] = source.display_path
    return []


def _zone_problems(source: SourceFile, index: int, zone: Any, question_slugs: set[str],
                   used: set[str]) -> list[ContentError]:
    keys: tuple[str | int, ...] = ("zones", index)
    line = source.line_of(*keys)
    if not isinstance(zone, dict):
        return [ContentError(source.display_path, line, f"zone {index + 1} must be a table")]
    errors = _typed(source, zone, ZONE_FIELDS, True, keys)
    errors += _typed(source, zone, ZONE_OPTIONAL, False, keys)
    for name in sorted(set(zone) - set(ZONE_FIELDS) - set(ZONE_OPTIONAL)):
        errors.append(ContentError(source.display_path, source.line_of(*keys, name),
                                   f"zone {index + 1}: unknown field '{name}'"))
    questions = zone.get("questions")
    if not isinstance(questions, list):
        return errors
    where = source.line_of(*keys, "questions")
    if not questions:
        errors.append(ContentError(source.display_path, where,
                                   f"zone {index + 1} lists no questions"))
    for slug in questions:
        if not isinstance(slug, str) or slug not in question_slugs:
            errors.append(ContentError(
                source.display_path, where,
                f"zone {index + 1}: '{slug}' is not a question of {FOLDER}/{QUESTIONS}/"
                f" (known: {', '.join(sorted(question_slugs)) or 'none'})"))
        elif slug in used:
            errors.append(ContentError(source.display_path, where,
                                       f"zone {index + 1}: question '{slug}' is drawn from twice"))
        else:
            used.add(slug)
    draw = zone.get("draw")
    if isinstance(draw, int) and not isinstance(draw, bool) \
            and not 1 <= draw <= max(len(questions), 1):
        errors.append(ContentError(
            source.display_path, source.line_of(*keys, "draw"),
            f"zone {index + 1}: 'draw' must be between 1 and the {len(questions)} questions "
            f"listed, not {draw}"))
    return errors


def _database_problems(found: AssessmentFiles, files: ContentFiles) -> list[ContentError]:
    """Slugs another assessment already holds, and uuids of another module's items."""
    module_uuid = str(files.module.data["uuid"]).lower() if files.module else ""
    errors = []
    by_slug = {s.data["slug"]: s for s in found.assessments}
    for slug, holder in Assessment.objects.filter(slug__in=list(by_slug)).values_list(
            "slug", "uuid"):
        source = by_slug[slug]
        if str(holder) != str(source.data["uuid"]).lower():
            errors.append(ContentError(source.display_path, source.line_of("slug"),
                                       f"slug '{slug}' belongs to another assessment (uuid "
                                       f"{holder}); choose another slug or reuse that uuid"))
    for model, sources in ((Assessment, found.assessments), (Question, found.questions)):
        by_uuid = {str(s.data["uuid"]).lower(): s for s in sources}
        foreign = model.objects.filter(uuid__in=list(by_uuid)).exclude(
            module__uuid=module_uuid).values_list("uuid", flat=True)
        for item in foreign:
            source = by_uuid[str(item)]
            errors.append(ContentError(source.display_path, source.line_of("uuid"),
                                       f"uuid {item} belongs to an {model._meta.verbose_name} "
                                       "of another module; give this item a new uuid"))
    return errors
