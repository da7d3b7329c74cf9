"""REST API: the gradebook, as JSON or streamed CSV, whole or for one student."""

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.http import StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import ISO_8601, renderers, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from api.access import Level, acting_student
from api.base import ApiView
from api.fields import MAX_ID
from api.renderers import CsvRenderer
from courses.models import Module
from grading.course_total import course_percent, explanation
from grading.gradebook import (
    Gradebook,
    csv_text,
    gradebook,
    gradebook_csv_lines,
    module_columns,
)
from grading.gradebook_items import item_weights


class GradebookCellOutput(serializers.Serializer):
    part_id = serializers.IntegerField(read_only=True)
    best_score = serializers.FloatField(allow_null=True, help_text="fraction of the part's points")
    attempts = serializers.IntegerField(read_only=True)
    pending = serializers.IntegerField(read_only=True)
    correct = serializers.BooleanField()
    last_activity = serializers.DateTimeField(allow_null=True)


class AssessmentCellOutput(serializers.Serializer):
    score = serializers.FloatField(allow_null=True,
                                   help_text="fraction (0..1) of the student's paper")
    released = serializers.BooleanField(
        help_text="the release rule lets the student see it (a student's own row has only "
                  "released scores)")
    attempts = serializers.IntegerField(read_only=True, help_text="closed attempts")
    in_progress = serializers.BooleanField(help_text="an attempt is open")


class GradebookRowOutput(serializers.Serializer):
    student_id = serializers.IntegerField(read_only=True)
    username = serializers.CharField()
    name = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    group = serializers.CharField(allow_blank=True)
    external_id = serializers.CharField(allow_blank=True)
    earned = serializers.FloatField(help_text="points earned over the columns")
    modules = serializers.DictField(child=serializers.FloatField(),
                                    help_text="points earned per module slug")
    course_percent = serializers.FloatField(
        allow_null=True, help_text="the weighted course total, 0..100 (see total_formula)")
    last_activity = serializers.DateTimeField(allow_null=True)
    cells = GradebookCellOutput(many=True)
    assessments = serializers.DictField(
        child=AssessmentCellOutput(),
        help_text="the student's score per assessment slug (only assessments with a score)")


class GradebookColumnOutput(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    exercise = serializers.CharField(source="exercise_slug")
    exercise_title = serializers.CharField()
    key = serializers.CharField()
    points = serializers.FloatField()
    module = serializers.CharField(source="module_slug", help_text="the part's module (slug)")
    module_number = serializers.CharField()


class GradebookModuleOutput(serializers.Serializer):
    slug = serializers.CharField()
    number = serializers.CharField()
    title = serializers.CharField()
    weight = serializers.FloatField(help_text="CourseModule.weight in the course total")
    points = serializers.FloatField(help_text="the points of the module's columns")


class GradebookAssessmentOutput(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    kind = serializers.CharField(help_text="quiz or exam")
    weight = serializers.FloatField(help_text="its weight in the course total (its file's "
                                              "`weight`, 1 by default)")
    closes_at = serializers.DateTimeField(allow_null=True)


class GradebookOutput(serializers.Serializer):
    course = serializers.CharField()
    total_points = serializers.FloatField()
    modules = GradebookModuleOutput(many=True)
    assessments = GradebookAssessmentOutput(many=True)
    total_formula = serializers.CharField(help_text="how course_percent is computed")
    generated_at = serializers.DateTimeField()
    next_updated_since = serializers.DateTimeField(
        help_text="pass as updated_since next time (overlaps a little: rows may repeat, none are missed)")
    next_after = serializers.IntegerField(
        read_only=True, allow_null=True,
        help_text="with limit: pass as after for the next page (null: last page)")
    columns = GradebookColumnOutput(many=True)
    rows = GradebookRowOutput(many=True)


#: Formats a time as every serializer of the API does (the current time zone, ISO 8601).
_TIME = serializers.DateTimeField()


def _time_formatter() -> Callable[[datetime | None], str | None]:
    """A time's text as DateTimeField renders it, for many times: an aware time is converted
    to the current zone here directly (DRF's own path re-reads its settings for each one)."""
    zone = timezone.get_current_timezone()
    if api_settings.DATETIME_FORMAT.lower() != ISO_8601:
        return lambda value: None if value is None else _TIME.to_representation(value)

    def formatted(value: datetime | None) -> str | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return _TIME.to_representation(value)
        text = value.astimezone(zone).isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return formatted


def _score(value: float | None) -> float | None:
    return None if value is None else float(value)


def gradebook_rows_output(book: Gradebook) -> list[dict[str, Any]]:
    """The rows of `book` exactly as GradebookRowOutput renders them, built directly: a class
    has thousands of rows and tens of thousands of cells, and the serializer's field-by-field
    walk cost most of a whole gradebook's CPU (tests compare the two outputs)."""
    columns = book.columns
    modules = module_columns(columns)
    slugs = {m.module_id: m.slug for m in modules}
    items = {i.id: i.slug for i in book.items}
    now = timezone.now()
    _time = _time_formatter()
    rows = []
    for r in book.rows:
        by_module = r.module_earned(columns)
        weights = item_weights(book.items, r.items, now)
        rows.append({
            "student_id": r.student_id, "username": r.username, "name": r.name,
            "email": r.email, "group": r.group, "external_id": r.external_id,
            "earned": float(r.earned(columns)),
            "modules": {slugs[m]: float(points) for m, points in by_module.items()},
            "course_percent": _score(course_percent(by_module, modules, weights)),
            "last_activity": _time(r.last_activity),
            "cells": [{"part_id": part_id, "best_score": _score(cell.best_score),
                       "attempts": cell.attempts, "pending": cell.pending,
                       "correct": bool(cell.correct), "last_activity": _time(cell.last_activity)}
                      for part_id, cell in r.cells.items()],
            "assessments": {items[item]: {"score": _score(cell.score),
                                          "released": bool(cell.released),
                                          "attempts": cell.attempts,
                                          "in_progress": bool(cell.in_progress)}
                            for item, cell in r.items.items() if item in items},
        })
    return rows


def gradebook_representation(book: Gradebook, generated_at: Any,
                             limit: int | None = None) -> dict[str, Any]:
    """The gradebook's header (course, modules, columns, paging) for GradebookOutput, its
    rows left empty: `gradebook_output` fills them with `gradebook_rows_output`."""
    full_page = limit is not None and len(book.rows) == limit
    return {
        "next_after": book.rows[-1].student_id if full_page else None,
        "course": book.course.slug,
        "total_points": book.total_points,
        "modules": book.modules,
        "assessments": book.items,
        "total_formula": explanation(book.modules, [(i.title, i.weight) for i in book.items]),
        "generated_at": generated_at,
        "next_updated_since": generated_at - timedelta(minutes=1),
        "columns": book.columns,
        "rows": [],
    }


def gradebook_output(book: Gradebook, generated_at: datetime,
                     limit: int | None = None) -> dict[str, Any]:
    """The gradebook as GradebookOutput documents it (the JSON of the API)."""
    data = GradebookOutput(gradebook_representation(book, generated_at, limit)).data
    data["rows"] = gradebook_rows_output(book)
    return data


def gradebook_response(book: Gradebook, request: Request, filename: str,
                       limit: int | None = None) -> Any:
    """The gradebook as JSON, or streamed CSV when the client asked for text/csv."""
    if request.accepted_renderer.format == "csv":
        response = StreamingHttpResponse(csv_text(gradebook_csv_lines(book)),
                                         content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
        return response
    return Response(gradebook_output(book, timezone.now(), limit))


class UpdatedSince(serializers.Serializer):
    updated_since = serializers.DateTimeField(
        required=False, help_text="only students with a submission graded at or after this time")
    group = serializers.CharField(required=False, max_length=50)
    module = serializers.SlugField(required=False, help_text="only this module's columns (slug)")


class GradebookQuery(UpdatedSince):
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=1000,
        help_text="page by student id (keyset, stable while answers come in): at most this many rows")
    after = serializers.IntegerField(required=False, min_value=0, max_value=MAX_ID,
                                     help_text="with limit: the next_after of the previous page")


GRADEBOOK_RESPONSES = {
    200: OpenApiResponse(GradebookOutput, description="JSON, or CSV with Accept: text/csv or ?format=csv"),
    (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR),
}


def _module_id(filters: dict[str, Any]) -> int | None:
    """The id of the module `?module=` names (-1, no columns, for an unknown slug)."""
    slug = filters.get("module")
    if not slug:
        return None
    return Module.objects.filter(slug=slug).values_list("pk", flat=True).first() or -1


class GradebookApi(ApiView):
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]

    @extend_schema(parameters=[GradebookQuery], responses=GRADEBOOK_RESPONSES)
    def get(self, request: Request, course_slug: str) -> Any:
        """The course's gradebook: each active student's best score per part (staff and keys).

        Whole, or a page at a time with `limit` (and `after`, the previous page's
        `next_after`): keyset pages by student id, stable while answers come in."""
        access = self.access(course_slug, Level.STAFF)
        filters = self.query(GradebookQuery)
        book = gradebook(course=access.course, updated_since=filters.get("updated_since"),
                         group=filters.get("group") or None, limit=filters.get("limit"),
                         after=filters.get("after"), module_id=_module_id(filters))
        return gradebook_response(book, request, f"gradebook-{access.course.slug}",
                                  filters.get("limit"))


class StudentGradebookApi(ApiView):
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]

    @extend_schema(parameters=[UpdatedSince], responses=GRADEBOOK_RESPONSES)
    def get(self, request: Request, course_slug: str, student_id: int) -> Any:
        """One student's gradebook row (a student may read their own)."""
        access = self.access(course_slug)
        filters = self.query(UpdatedSince)
        student = acting_student(access, student_id)
        # A student's own row leaves out the modules not released yet.
        book = gradebook(course=access.course, student=student,
                         updated_since=filters.get("updated_since"), module_id=_module_id(filters),
                         released_at=None if access.is_staff else timezone.now())
        return gradebook_response(book, request, f"gradebook-{access.course.slug}-{student.pk}")
