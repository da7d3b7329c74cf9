"""Every writer of the cached content bumps the content version.

The content cache (core/content_cache.py) is keyed by a version that a save or deletion of
a watched model bumps through its signals. `QuerySet.update`, `bulk_create` and
`bulk_update` send no signal: a watched model's own QuerySet (`VersionedQuerySet`) bumps
on them, and for a watched model whose QuerySet is a library's, every function that calls
one of them on it (by its class, `LtiContext.objects...`, or through a relation to it,
`deployment.contexts...`) must call `content_version_bump` itself. The watched models,
their QuerySets and their relations' names are read from the installed apps
(`core.content_cache.WATCHED`), so a model added to the cache is covered at once. The
scanner itself is tested on snippets, so the test can fail.
"""

import ast
import re
from pathlib import Path

import pytest

from core.content_cache import WATCHED, VersionedQuerySet

ROOT = Path(__file__).resolve().parents[2]
APPS = sorted(p.name for p in ROOT.iterdir()
              if (p / "__init__.py").exists() and p.name not in ("tests",))
BULK = {"update", "bulk_create", "bulk_update"}
#: Functions whose bulk write changes no cached value, and why.
EXEMPT = {
    ("lti/ags/lineitems.py", "line_item_ensure"): "a row lock: writes the value it reads",
}


def _versioned(model: type) -> bool:
    return issubclass(model._default_manager._queryset_class, VersionedQuerySet)  # type: ignore[attr-defined]


UNVERSIONED = [model for model in WATCHED if not _versioned(model)]


def _names() -> tuple[set[str], set[str]]:
    """The class names of the watched models whose bulk writes do not bump, and the
    accessors of relations that lead to them."""
    classes = {model.__name__ for model in UNVERSIONED}
    accessors = set()
    for model in UNVERSIONED:
        for field in model._meta.fields:  # a foreign key of a watched model: the reverse
            if field.is_relation and field.remote_field:
                accessor = field.remote_field.get_accessor_name()
                if accessor and not accessor.endswith("+"):  # "+": no reverse relation
                    accessors.add(accessor)
    return classes, accessors


CLASSES, ACCESSORS = _names()


def _writes_watched(call: ast.Call) -> bool:
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in BULK):
        return False
    receiver = ast.unparse(call.func.value)
    return any(re.search(rf"\b{name}\.objects\b", receiver) for name in CLASSES) or any(
        re.search(rf"\.{accessor}\b", receiver) for accessor in ACCESSORS)


def violations(source: str) -> list[str]:
    """Functions of `source` that bulk-write a watched model without bumping (line: name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
        writes = [c for c in calls if _writes_watched(c)]
        bumps = any(ast.unparse(c.func).endswith("content_version_bump") for c in calls)
        if writes and not bumps:
            found.append(f"{writes[0].lineno}: {node.name}")
    return found


def test_every_bulk_writer_of_cached_content_bumps_the_version() -> None:
    offenders = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            relative = path.relative_to(ROOT).as_posix()
            found = [f for f in violations(path.read_text())
                     if (relative, f.split(": ")[1]) not in EXEMPT]
            if found:
                offenders[relative] = found
    assert offenders == {}, f"call core.content_cache.content_version_bump: {offenders}"


def test_the_watched_models_are_the_cached_content_and_bump_on_bulk_writes() -> None:
    watched = {model.__name__ for model in WATCHED}
    assert {"Course", "CourseModule", "Module", "Section", "Exercise", "Part", "Lab",
            "Deadline", "DeadlinePolicy", "WebhookSubscription", "CourseLink", "LtiContext",
            "LtiDeployment", "Assessment"} <= watched
    # only the LTI library's models are left to the scan
    assert {"LtiContext", "LtiDeployment"} == CLASSES and "contexts" in ACCESSORS


@pytest.mark.django_db
def test_a_bulk_write_of_a_watched_model_bumps_the_version(course) -> None:
    from core.content_cache import content_version
    from courses.models import CourseModule

    before = content_version()
    CourseModule.objects.filter(course=course).update(weight=2.0)
    assert content_version() != before


@pytest.mark.parametrize("snippet", [
    "def f():\n    LtiContext.objects.filter(pk=1).update(title='x')",
    "def f(deployment):\n    deployment.contexts.update(title='x')",
    "def f(rows):\n    LtiDeployment.objects.bulk_create(rows)",
    "def f(rows):\n    LtiContext.objects.bulk_update(rows, ['title'])",
])
def test_the_scan_flags_a_bulk_write_without_a_bump(snippet: str) -> None:
    assert violations(snippet)


@pytest.mark.parametrize("snippet", [
    "def f():\n    LtiContext.objects.filter(pk=1).update(title='x')\n    content_version_bump()",
    "def f():\n    Submission.objects.filter(pk=1).update(score=1)",
    "def f(part):\n    part.save(update_fields=['order'])",
])
def test_the_scan_leaves_bumped_and_other_writes_alone(snippet: str) -> None:
    assert not violations(snippet)
