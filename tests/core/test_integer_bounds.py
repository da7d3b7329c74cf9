"""Every integer a person or a client types is bounded by validation (issue 38 item 3): the
range each integer column type holds, and a walk over every web form and every API serializer
of the project that sends each integer field a number no column holds and expects a field
error, never an exception from the database. (The admin edits no integer: content is synced,
logs are read-only; and a ModelForm is bounded by Django's model validators. The API's walk
over its schema, over HTTP, is tests/api/test_integer_overflow.py; the invite link's page,
tests/instructor/test_invite_limits.py.)"""

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django import forms
from rest_framework import serializers

from core.integer_bounds import BIGINT_MAX, column_range, form_integer
from courses.models import CourseInvite, Enrollment, Part

ROOT = Path(__file__).resolve().parents[2]
APPS = ("api", "core", "courses", "demo", "events", "grading", "instructor", "labs", "live",
        "lti", "ops", "privacy", "student", "backups")
TOO_LARGE = 10**20  # past a BIGINT, so past every integer column


def _project_modules() -> None:
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts)
                                    .removesuffix(".__init__"))


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _project_classes(base: type) -> list[Any]:
    _project_modules()
    return sorted({cls for cls in _subclasses(base) if cls.__module__.split(".")[0] in APPS},
                  key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


def _integer_fields(form_class: Any) -> list[str]:
    return [name for name, field in form_class.base_fields.items()
            if isinstance(field, forms.IntegerField)]  # FloatField and DecimalField too


def _too_large(field: forms.Field) -> str:
    """Past every integer column; for a float, past what a double holds (it reads as inf)."""
    return "1e400" if isinstance(field, forms.FloatField | forms.DecimalField) else str(TOO_LARGE)


@pytest.mark.parametrize(("internal_type", "expected"), [
    ("SmallIntegerField", (-2**15, 2**15 - 1)), ("PositiveSmallIntegerField", (0, 2**15 - 1)),
    ("IntegerField", (-2**31, 2**31 - 1)), ("PositiveIntegerField", (0, 2**31 - 1)),
    ("BigIntegerField", (-2**63, 2**63 - 1)), ("PositiveBigIntegerField", (0, 2**63 - 1)),
    ("AutoField", (-2**31, 2**31 - 1)), ("BigAutoField", (-2**63, 2**63 - 1)),
])
def test_each_integer_column_type_holds_postgresqls_range(internal_type, expected) -> None:
    from django.db import models
    field = getattr(models, internal_type)()
    assert column_range(field) == expected


def test_a_relation_holds_what_its_target_id_holds() -> None:
    assert column_range(Enrollment._meta.get_field("course")) == (-2**63, 2**63 - 1)
    assert column_range(CourseInvite._meta.get_field("max_uses")) == (0, 2**31 - 1)


def test_a_form_integer_is_narrowed_to_its_column() -> None:
    field = form_integer(CourseInvite._meta.get_field("max_uses"), min_value=1, max_value=10**12)
    assert (field.min_value, field.max_value) == (1, 2**31 - 1)
    assert form_integer(Part._meta.get_field("id")).max_value == BIGINT_MAX


def test_the_walk_finds_the_projects_forms_and_serializers() -> None:
    names = {cls.__qualname__ for cls in _project_classes(forms.BaseForm)}
    assert {"OverrideForm", "OpenForm", "InviteForm", "DeadlinePolicyForm"} <= names
    assert len(_project_classes(serializers.BaseSerializer)) > 30


def test_every_integer_of_every_web_form_refuses_a_number_no_column_holds() -> None:
    wrong = []
    for form_class in _project_classes(forms.BaseForm):
        if issubclass(form_class, forms.ModelForm) or not _integer_fields(form_class):
            continue
        for name in _integer_fields(form_class):
            field = form_class.base_fields[name]
            whole = not isinstance(field, forms.FloatField | forms.DecimalField)
            if whole and (field.max_value is None or field.max_value > BIGINT_MAX):
                wrong.append(f"{form_class.__qualname__}.{name}: no maximum a column holds")
                continue
            form = form_class(data={name: _too_large(field)})
            if form.is_valid() or name not in form.errors:
                wrong.append(f"{form_class.__qualname__}.{name}: {_too_large(field)} accepted")
    assert not wrong, "\n".join(wrong)


def _writable_integers(serializer: "serializers.BaseSerializer[Any]", prefix: str = ""
                       ) -> Iterator[tuple[str, "serializers.Field[Any, Any, Any, Any]"]]:
    for name, field in serializer.fields.items():  # type: ignore[attr-defined]
        if field.read_only:
            continue
        child = getattr(field, "child", None)
        if isinstance(field, serializers.BaseSerializer):
            inner = child if isinstance(child, serializers.BaseSerializer) else field
            if inner is not field or hasattr(field, "fields"):
                yield from _writable_integers(inner, f"{prefix}{name}.")
        elif isinstance(field, serializers.IntegerField):
            yield f"{prefix}{name}", field
        elif isinstance(child, serializers.IntegerField) and not child.read_only:
            yield f"{prefix}{name}[]", child


def test_every_writable_integer_of_every_api_serializer_refuses_a_number_no_column_holds(
        ) -> None:
    wrong, checked = [], 0
    for serializer_class in _project_classes(serializers.BaseSerializer):
        if serializer_class.__name__.startswith("ListSerializer"):
            continue
        try:
            serializer = serializer_class()
        except TypeError:  # needs arguments: not a serializer the API builds bare
            continue
        for name, field in _writable_integers(serializer):
            checked += 1
            try:
                field.run_validation(str(TOO_LARGE))
            except serializers.ValidationError:
                continue
            wrong.append(f"{serializer_class.__module__}.{serializer_class.__qualname__}.{name}")
    assert checked >= 8, checked
    assert not wrong, "writable integers without a bound:\n" + "\n".join(wrong)
