"""REST API: the gradebook, as JSON or streamed CSV, whole or for one student."""

from typing import Any

from django.http import StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import renderers, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Level, acting_student
from api.base import ApiView
from api.renderers import CsvRenderer
from courses.models import Module
from grading.course_total import explanation
from grading.gradebook import Gradebook, csv_text, gradebook, gradebook_csv_lines


class GradebookCellOutput(serializers.Serializer):
    part_id = serializers.IntegerField()
    best_score = serializers.FloatField(allow_null=True, help_text="fraction of the part's points")
    attempts = serializers.IntegerField()
    pending = serializers.IntegerField()
    correct = serializers.BooleanField()
    last_activity = serializers.DateTimeField(allow_null=True)


class GradebookRowOutput(serializers.Serializer):
    student_id = serializers.IntegerField()
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


class GradebookColumnOutput(serializers.Serializer):
    id = serializers.IntegerField()
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


class GradebookOutput(serializers.Serializer):
    course = serializers.CharField()
    total_points = serializers.FloatField()
    modules = GradebookModuleOutput(many=True)
    total_formula = serializers.CharField(help_text="how course_percent is computed")
    generated_at = serializers.DateTimeField()
    next_updated_since = serializers.DateTimeField(
        help_text="pass as updated_since next time (overlaps a little: rows may repeat, none are missed)")
    next_after = serializers.IntegerField(
        allow_null=True, help_text="with limit: pass as after for the next page (null: last page)")
    columns = GradebookColumnOutput(many=True)
    rows = GradebookRowOutput(many=True)


CELL_FIELDS = ("best_score", "attempts", "pending", "correct", "last_activity")


def gradebook_representation(book: Gradebook, generated_at: Any,
                             limit: int | None = None) -> dict[str, Any]:
    from datetime import timedelta

    full_page = limit is not None and len(book.rows) == limit
    slugs = {m.module_id: m.slug for m in book.modules}
    return {
        "next_after": book.rows[-1].student_id if full_page else None,
        "course": book.course.slug,
        "total_points": book.total_points,
        "modules": book.modules,
        "total_formula": explanation(book.modules),
        "generated_at": generated_at,
        "next_updated_since": generated_at - timedelta(minutes=1),
        "columns": book.columns,
        "rows": [
            {"student_id": r.student_id, "username": r.username, "name": r.name, "email": r.email,
             "group": r.group, "external_id": r.external_id, "earned": r.earned(book.columns),
             "modules": {slugs[m]: points for m, points in r.module_earned(book.columns).items()},
             "course_percent": r.course_percent(book.columns),
             "last_activity": r.last_activity,
             "cells": [{"part_id": part_id, **{name: getattr(cell, name) for name in CELL_FIELDS}}
                       for part_id, cell in r.cells.items()]}
            for r in book.rows
        ],
    }


def gradebook_response(book: Gradebook, request: Request, filename: str,
                       limit: int | None = None) -> Any:
    """The gradebook as JSON, or streamed CSV when the client asked for text/csv."""
    from django.utils import timezone

    if request.accepted_renderer.format == "csv":
        response = StreamingHttpResponse(csv_text(gradebook_csv_lines(book)),
                                         content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
        return response
    return Response(GradebookOutput(gradebook_representation(book, timezone.now(), limit)).data)


class UpdatedSince(serializers.Serializer):
    updated_since = serializers.DateTimeField(
        required=False, help_text="only students with a submission graded at or after this time")
    group = serializers.CharField(required=False, max_length=50)
    module = serializers.SlugField(required=False, help_text="only this module's columns (slug)")


class GradebookQuery(UpdatedSince):
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=1000,
        help_text="page by student id (keyset, stable while answers come in): at most this many rows")
    after = serializers.IntegerField(required=False, min_value=0,
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
