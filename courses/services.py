"""Writes for courses: syncing content from files, course runs and enrolments."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone

from courses.content_files import ContentError, ContentFiles, SourceFile, read_module_folder
from courses.content_validation import REGISTERED, Validators, validate_content
from courses.models import Course, Enrollment, Exercise, Figure, Lab, Module, Part, Section


class ContentInvalid(Exception):
    """Raised when any content file is invalid; nothing has been applied."""

    def __init__(self, errors: list[ContentError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


@dataclass
class SyncReport:
    """What a sync changed: one line per created, updated, archived or restored item."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    unchanged: int = 0

    @property
    def change_count(self) -> int:
        return len(self.created) + len(self.updated) + len(self.archived) + len(self.restored)

    def lines(self) -> list[str]:
        out = [f"created {item}" for item in self.created]
        out += [f"updated {item}" for item in self.updated]
        out += [f"archived {item}" for item in self.archived]
        out += [f"restored {item}" for item in self.restored]
        return out


@dataclass(frozen=True)
class ContentExtension:
    """Content an app above courses keeps in a module folder beside the module's own files
    (e.g. `assessments/`): `problems(files)` validates it after the module's own files are
    valid (file:line errors, nothing applied while any remains); `apply(files, module,
    report)` upserts it inside the sync's transaction, after the module itself."""

    problems: Callable[[ContentFiles], list[ContentError]]
    apply: Callable[[ContentFiles, Module, SyncReport], None]


#: Filled by the apps' ready() (courses never imports the apps above it).
EXTENSIONS: list[ContentExtension] = []


def content_extension_register(extension: ContentExtension) -> None:
    """Have every sync validate and apply `extension`'s content too (once per extension)."""
    if extension not in EXTENSIONS:
        EXTENSIONS.append(extension)


def module_folders(root: Path) -> list[Path]:
    """The module folders under `root` (or `root` itself when it holds a module.toml)."""
    if (root / "module.toml").exists():
        return [root]
    return sorted(p.parent for p in root.glob("*/module.toml"))


def content_sync(
    *, root: Path, validators: Validators | None = None, dry_run: bool = False,
    folders: list[Path] | None = None,
    checks: Callable[[list[ContentFiles]], list[ContentError]] | None = None,
    on_applied: Callable[[list[Module]], None] | None = None,
) -> SyncReport:
    """Validate every module folder under `root`, then upsert all of it by uuid in one transaction.

    Raises ContentInvalid (applying nothing) if any file is invalid. Items whose files were
    removed are archived, never deleted; an archived item that comes back is restored.
    With `dry_run`, the report is computed and the transaction rolled back.
    `folders` replaces the search for module folders under `root` (a course file's list);
    `checks` adds problems after validation (e.g. who may change which module); `on_applied`
    runs inside the transaction with the synced modules in order (e.g. to attach them to a
    course).
    """
    validators = validators if validators is not None else REGISTERED
    folders = module_folders(root) if folders is None else folders
    if not folders:
        raise ContentInvalid([ContentError(str(root), 1, "no module.toml found here or below")])
    bundles = [read_module_folder(folder) for folder in folders]
    errors = [error for files in bundles for error in validate_content(files, validators)]
    if errors:  # the conflict check below relies on valid files
        raise ContentInvalid(errors)
    errors = [error for files in bundles for extension in EXTENSIONS
              for error in extension.problems(files)]
    errors += _database_conflicts(bundles) + (checks(bundles) if checks else [])
    if errors:
        raise ContentInvalid(errors)
    report = SyncReport()
    with transaction.atomic(durable=True):
        modules = []
        for files in bundles:
            module = _ContentApplier(files, report, validators).apply()
            for extension in EXTENSIONS:
                extension.apply(files, module, report)
            modules.append(module)
        if on_applied is not None:
            on_applied(modules)
        if dry_run:
            transaction.set_rollback(True)
    return report


def _database_conflicts(bundles: list[ContentFiles]) -> list[ContentError]:
    """Slugs the files use that an item with another uuid (perhaps archived) already holds."""
    errors: list[ContentError] = []
    for files in bundles:
        for model, sources in (
            (Module, [files.module] if files.module else []),
            (Figure, files.figures),
            (Lab, files.labs),
            (Exercise, files.exercises),
        ):
            by_slug = {s.data["slug"]: s for s in sources}
            holders = model.objects.filter(slug__in=list(by_slug)).values_list("slug", "uuid")
            for slug, holder_uuid in holders:
                source = by_slug[slug]
                if str(holder_uuid) != str(source.data["uuid"]).lower():
                    errors.append(ContentError(
                        source.display_path, source.line_of("slug"),
                        f"slug '{slug}' belongs to another {model._meta.verbose_name} "
                        f"(uuid {holder_uuid}); choose another slug or reuse that uuid",
                    ))
    return errors


class _ContentApplier:
    """Upserts one validated module folder; records every change in the report."""

    def __init__(self, files: ContentFiles, report: SyncReport, validators: Validators) -> None:
        self.files = files
        self.validators = validators
        self.report = report
        self.now = timezone.now()

    def apply(self) -> Module:
        if self.files.module is None:  # validation reports a missing module.toml first
            raise ContentInvalid([ContentError(str(self.files.root), 1, "module.toml is missing")])
        module = self._upsert(Module, self.files.module, self._module_fields(self.files.module))
        sections = {
            s.data["number"]: self._upsert(Section, s, self._section_fields(s, module))
            for s in self.files.sections
        }
        self._archive_missing(Section.objects.filter(module=module), self.files.sections)
        for source in self.files.figures:
            self._upsert(Figure, source, self._figure_fields(source, sections))
        self._archive_missing(Figure.objects.filter(section__module=module), self.files.figures)
        for source in self.files.labs:
            self._upsert(Lab, source, self._lab_fields(source, module, sections))
        self._archive_missing(Lab.objects.filter(module=module), self.files.labs)
        for source in self.files.exercises:
            exercise = self._upsert(Exercise, source, self._exercise_fields(source, module, sections))
            self._sync_parts(exercise, source)
        archived = self._archive_missing(
            Exercise.objects.filter(module=module), self.files.exercises
        )
        Part.objects.filter(exercise__in=archived, archived_at__isnull=True).update(
            archived_at=self.now
        )
        return module

    # Field mapping from file data to model fields ------------------------------------------

    @staticmethod
    def _common(source: SourceFile) -> dict[str, Any]:
        return {"source_path": source.display_path}

    def _module_fields(self, s: SourceFile) -> dict[str, Any]:
        d = s.data
        return {**self._common(s), "slug": d["slug"], "number": d["number"], "title": d["title"],
                "intro": d.get("intro", "").strip(), "references": d.get("references", [])}

    def _section_fields(self, s: SourceFile, module: Module) -> dict[str, Any]:
        d = s.data
        return {**self._common(s), "module": module, "number": d["number"], "slug": d["slug"],
                "title": d["title"], "order": d["order"], "body": s.body}

    def _figure_fields(self, s: SourceFile, sections: dict[str, Section]) -> dict[str, Any]:
        d = s.data
        return {**self._common(s), "section": sections[d["section"]], "slug": d["slug"],
                "number": d["number"], "title": d["title"], "kind": d["kind"],
                "instructions": d.get("instructions", "").strip(),
                "caption": d.get("caption", "").strip(),
                "in_words": d.get("in_words", "").strip(), "data": d.get("data", {})}

    def _lab_fields(
        self, s: SourceFile, module: Module, sections: dict[str, Section]
    ) -> dict[str, Any]:
        d = s.data
        overrides = d.get("params", {})
        schema = (self.validators.lab_schema(d["simulation"], overrides)
                  if self.validators.lab_schema is not None else overrides)
        return {**self._common(s), "module": module, "section": sections[d["section"]],
                "slug": d["slug"], "title": d["title"], "simulation": d["simulation"],
                "description": d.get("description", "").strip(), "order": d.get("order", 0),
                "param_schema": schema}

    def _exercise_fields(
        self, s: SourceFile, module: Module, sections: dict[str, Section]
    ) -> dict[str, Any]:
        d = s.data
        return {**self._common(s), "module": module, "section": sections[d["section"]],
                "slug": d["slug"], "kind": d["kind"], "title": d["title"],
                "prompt": d["prompt"].strip(), "order": d.get("order", 0),
                "parameters": d.get("parameters", {}), "derived": d.get("derived", {}),
                "max_attempts": d.get("max_attempts", 0), "penalty": float(d.get("penalty", 0.0))}

    # Upsert, archive, restore -----------------------------------------------------------------

    def _upsert(self, model: type[models.Model], source: SourceFile, values: dict[str, Any]) -> Any:
        uuid_value = str(source.data["uuid"]).lower()
        label = f"{model._meta.model_name} {values.get('slug') or values.get('number')}"
        obj = model.objects.filter(uuid=uuid_value).first()  # type: ignore[attr-defined]
        if obj is None:
            obj = model.objects.create(uuid=uuid_value, **values)  # type: ignore[attr-defined]
            self.report.created.append(label)
            return obj
        changed = [name for name, value in values.items() if _field_value(obj, name) != value]
        restored = obj.archived_at is not None
        if not changed and not restored:
            self.report.unchanged += 1
            return obj
        for name in changed:
            setattr(obj, name, values[name])
        obj.archived_at = None
        obj.save()
        if restored:
            self.report.restored.append(label)
        content_fields = [name for name in changed if name != "source_path"]
        if content_fields:
            self.report.updated.append(f"{label} ({', '.join(content_fields)})")
        elif changed and not restored:
            self.report.updated.append(f"{label} (moved to {values['source_path']})")
        return obj

    def _archive_missing(self, queryset: models.QuerySet, sources: Iterable[SourceFile]) -> list[Any]:
        keep = [str(s.data["uuid"]).lower() for s in sources]
        stale = list(queryset.filter(archived_at__isnull=True).exclude(uuid__in=keep))
        for obj in stale:
            obj.archived_at = self.now
            obj.save(update_fields=["archived_at", "updated_at"])
            self.report.archived.append(
                f"{obj._meta.model_name} {getattr(obj, 'slug', '') or obj.number}"
            )
        return stale

    def _sync_parts(self, exercise: Exercise, source: SourceFile) -> None:
        existing = {part.key: part for part in exercise.parts.all()}
        for order, spec in enumerate(source.data["parts"]):
            values = {"answer_type": spec["type"], "prompt": spec.get("prompt", "").strip(),
                      "spec": spec, "points": float(spec.get("points", 1)), "order": order,
                      "archived_at": None}
            label = f"part {exercise.slug}/{spec['key']}"
            part = existing.pop(spec["key"], None)
            if part is None:
                Part.objects.create(exercise=exercise, key=spec["key"], **values)
                self.report.created.append(label)
                continue
            changed = [n for n, v in values.items() if getattr(part, n) != v]
            if not changed:
                self.report.unchanged += 1
                continue
            for name in changed:
                setattr(part, name, values[name])
            part.save()
            if changed == ["archived_at"]:
                self.report.restored.append(label)
            else:
                self.report.updated.append(f"{label} ({', '.join(changed)})")
        for part in existing.values():
            if part.archived_at is None:
                part.archived_at = self.now
                part.save(update_fields=["archived_at"])
                self.report.archived.append(f"part {exercise.slug}/{part.key}")


def _field_value(obj: models.Model, name: str) -> Any:
    """The current value of a field, comparing foreign keys by instance without a query."""
    field_obj = obj._meta.get_field(name)
    if isinstance(field_obj, models.ForeignKey):
        related: type[models.Model] = field_obj.related_model  # type: ignore[assignment]
        return related(pk=getattr(obj, field_obj.attname))
    return getattr(obj, name)


@transaction.atomic
def course_create(*, slug: str, title: str, module: Module) -> Course:
    """Create (or return the existing) course run of `module` named by `slug`."""
    course, _ = Course.objects.get_or_create(slug=slug, defaults={"title": title, "module": module})
    return course


@transaction.atomic
def enrollment_join(*, course: Course, user: User, role: str) -> Enrollment:
    """The enrolment of `user` in `course` when they arrive with `role` from outside (an LTI
    launch): a new one is active with no group; an existing one takes the role and keeps its
    group and whether it is active, which the roster or the staff set (a launch never
    reactivates anyone)."""
    enrollment, created = Enrollment.objects.get_or_create(
        user=user, course=course, defaults={"role": role})
    if not created and enrollment.role != role:
        enrollment.role = role
        enrollment.save(update_fields=["role"])
    return enrollment


def enrollment_set(
    *, course: Course, user: User, role: str, group: str = ""
) -> Enrollment:
    """Enrol `user` in `course` with `role` (updating role/group if already enrolled)."""
    enrollment, _ = Enrollment.objects.update_or_create(
        user=user, course=course, defaults={"role": role, "group": group, "is_active": True}
    )
    return enrollment
