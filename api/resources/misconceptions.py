"""REST API: misconceptions shown and cleared, per tag for the class (staff and keys) and the
open ones of one student (staff, keys, or the student themselves)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Level, acting_student
from api.base import ApiView
from grading.misconception_clearing import (
    CLEAR_AFTER,
    misconception_clearing,
    open_misconceptions,
)


class ClearingQuery(serializers.Serializer):
    group = serializers.CharField(required=False, max_length=50,
                                  help_text="only the active students of this group")


class TagClearingOutput(serializers.Serializer):
    tag = serializers.CharField()
    description = serializers.CharField(allow_blank=True, help_text="the tag's label")
    showed = serializers.IntegerField(read_only=True, help_text="students who showed it")
    cleared = serializers.IntegerField(read_only=True, help_text="of them, cleared since")
    open = serializers.IntegerField(read_only=True, help_text="of them, not cleared")


class ClearingOutput(serializers.Serializer):
    course = serializers.CharField()
    clear_after = serializers.IntegerField(
        read_only=True, help_text="parts carrying the tag, right at the first attempt, that clear it")
    tags = TagClearingOutput(many=True, help_text="most shown first")


class OpenMisconceptionOutput(serializers.Serializer):
    tag = serializers.CharField()
    description = serializers.CharField(allow_blank=True, help_text="the tag's label")
    shown_at = serializers.DateTimeField(help_text="the latest answer showing it")
    since = serializers.ListField(child=serializers.BooleanField(), help_text=(
        "the parts carrying the tag first tried since, in order: right at the first attempt?"))


class StudentOpenOutput(serializers.Serializer):
    student_id = serializers.IntegerField(read_only=True)
    clear_after = serializers.IntegerField(read_only=True)
    open = OpenMisconceptionOutput(many=True, help_text="latest shown first")


class MisconceptionClearingApi(ApiView):
    @extend_schema(parameters=[ClearingQuery], responses=ClearingOutput)
    def get(self, request: Request, course_slug: str) -> Response:
        """Per misconception tag: students who showed it, cleared it, and still have it open
        (staff and keys)."""
        access = self.access(course_slug, Level.STAFF)
        filters = self.query(ClearingQuery)
        rows = misconception_clearing(course=access.course, group=filters.get("group") or "")
        return Response(ClearingOutput({
            "course": access.course.slug, "clear_after": CLEAR_AFTER,
            "tags": [{"tag": r.tag, "description": r.label, "showed": r.showed, "cleared": r.cleared,
                      "open": r.open} for r in rows]}).data)


class StudentOpenMisconceptionsApi(ApiView):
    @extend_schema(responses=StudentOpenOutput)
    def get(self, request: Request, course_slug: str, student_id: int) -> Response:
        """The misconceptions one student showed and has not cleared (a student may read
        their own)."""
        access = self.access(course_slug)
        student = acting_student(access, student_id)
        states = open_misconceptions(course=access.course, student_id=student.pk)
        return Response(StudentOpenOutput({
            "student_id": student.pk, "clear_after": CLEAR_AFTER,
            "open": [{"tag": s.tag, "description": s.label, "shown_at": s.shown_at,
                      "since": list(s.since)} for s in states]}).data)
