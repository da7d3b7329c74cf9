"""Applying a module folder's assessments and questions, inside the content sync's
transaction (after the module itself): upserted by uuid; a question or assessment whose file
is gone is archived, never deleted, so attempts keep their papers."""

from typing import Any

from django.db import models
from django.utils import timezone

from courses.content_files import ContentFiles, SourceFile
from courses.models import Module
from courses.services import SyncReport
from exams.content import read_assessments
from exams.models import Assessment, Question


def assessments_apply(files: ContentFiles, module: Module, report: SyncReport) -> None:
    """Upsert the folder's questions and assessments (already validated) and archive those
    of `module` no longer in it, recording each change in `report`."""
    found = read_assessments(files.root)
    now = timezone.now()
    questions: dict[str, Question] = {}
    for source in found.questions:
        d = source.data
        questions[d["slug"]] = _upsert(Question, source, report, {
            "module": module, "slug": d["slug"], "title": d["title"],
            "prompt": d["prompt"].strip(), "parameters": d.get("parameters", {}),
            "derived": d.get("derived", {}), "parts": d["parts"],
            "source_path": source.display_path})
    _archive(Question.objects.filter(module=module), found.questions, report, now)
    for source in found.assessments:
        d = source.data
        zones = [{"title": z.get("title", f"Part {i + 1}"), "draw": z["draw"],
                  "questions": [str(questions[s].uuid) for s in z["questions"]]}
                 for i, z in enumerate(d["zones"])]
        _upsert(Assessment, source, report, {
            "module": module, "slug": d["slug"], "kind": d["kind"], "title": d["title"],
            "instructions": d.get("instructions", "").strip(), "opens_at": d["opens"],
            "closes_at": d["closes"], "time_limit_minutes": d.get("time_limit", 0),
            "attempts": d.get("attempts", 1), "counts": d.get("counts", "best"),
            "shuffle": d.get("shuffle", False), "feedback": d.get("feedback", "after_close"),
            "key": d.get("key", "after_close"), "zones": zones,
            "networks": d.get("networks", []),
            "seb_config_keys": [k.strip().lower() for k in d.get("seb_config_keys", [])],
            "weight": float(d.get("weight", 1.0)),
            "source_path": source.display_path})
    _archive(Assessment.objects.filter(module=module), found.assessments, report, now)


def _upsert(model: type[models.Model], source: SourceFile, report: SyncReport,
            values: dict[str, Any]) -> Any:
    label = f"{model._meta.model_name} {values['slug']}"
    key = str(source.data["uuid"]).lower()
    obj = model.objects.filter(uuid=key).first()  # type: ignore[attr-defined]
    if obj is None:
        report.created.append(label)
        return model.objects.create(uuid=key, **values)  # type: ignore[attr-defined]
    changed = [name for name, value in values.items()
               if name != "module" and getattr(obj, name) != value]
    if obj.archived_at is not None:
        report.restored.append(label)
    elif changed:
        report.updated.append(f"{label} ({', '.join(changed)})")
    else:
        report.unchanged += 1
        return obj
    for name, value in values.items():
        setattr(obj, name, value)
    obj.archived_at = None
    obj.save()
    return obj


def _archive(queryset: models.QuerySet, sources: list[SourceFile], report: SyncReport,
             now: Any) -> None:
    keep = [str(s.data["uuid"]).lower() for s in sources]
    for obj in queryset.filter(archived_at__isnull=True).exclude(uuid__in=keep):
        obj.archived_at = now
        obj.save(update_fields=["archived_at"])
        report.archived.append(f"{obj._meta.model_name} {obj.slug}")
