"""REST API of grading: submissions (POST grades at once, idempotently) and the gradebook."""

import csv
import io
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from config.api.access import CourseAccess, Level
from config.api.errors import ApiError
from config.api.fields import id_field
from config.api.idempotency import Note, idempotent, resource_ident, resource_name
from config.api.views import ApiView
from courses.models import Enrollment, Part
from grading.forms import MAX_ANSWER
from grading.gradebook import Gradebook, csv_text, gradebook, gradebook_csv_lines
from grading.models import Submission
from grading.services import SubmissionRefused, submission_create


class CsvRenderer(renderers.BaseRenderer):
    """text/csv; the gradebook views stream their own CSV, this renders errors as CSV lines."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        if isinstance(data, dict):
            writer.writerow(["code", "message"])
            writer.writerow([data.get("code", ""), data.get("message", "")])
        return buffer.getvalue().encode()


def _student_of_course(access: CourseAccess, student_id: int) -> User:
    """A student enrolled (actively or not) in the course, or 404."""
    enrollment = (Enrollment.objects.select_related("user")
                  .filter(course=access.course, user_id=student_id).first())
    if enrollment is None:
        raise ApiError(404, "not_found", "No such student in this course.")
    return enrollment.user


def acting_for(access: CourseAccess, student_id: int | None, *, doing: str) -> User:
    """`acting_student` for a request that changes a student's work: a TA acts only for
    themself; instructors and LMS keys for any student. `doing` names it in the refusal."""
    student = acting_student(access, student_id)
    if access.user is not None and student.pk != access.user.pk and not access.may_act_for_others():
        raise ApiError(403, "permission_denied", f"Only instructors or an LMS key may {doing} "
                                                 "for others.")
    return student


def acting_student(access: CourseAccess, student_id: int | None) -> User:
    """Whose work a request is about: the caller (a student), or `student_id` for staff."""
    if access.user is not None and not access.is_staff:
        if student_id is not None and student_id != access.user.pk:
            raise ApiError(403, "permission_denied", "You can only act on your own work.")
        return access.user
    if student_id is None:
        raise ApiError(400, "invalid", "Say which student: `student` is required for staff and keys.",
                       {"student": ["This field is required."]})
    return _student_of_course(access, student_id)


class SubmissionOutput(serializers.ModelSerializer):
    """A submitted answer and its verdict. `misconception` (a tag from the answer key) is
    shown to staff and API keys only."""

    # Serialized with context {"staff": bool}; without staff the misconception is dropped.
    exercise = serializers.CharField(source="part.exercise.slug")
    part_key = serializers.CharField(source="part.key")
    answer = serializers.CharField(source="raw_answer")

    class Meta:
        model = Submission
        fields = ["id", "student", "part", "exercise", "part_key", "answer", "canonical", "outcome",
                  "score", "feedback", "misconception", "counts_as_attempt", "created_at",
                  "graded_at"]

    def to_representation(self, instance: Submission) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if not self.context.get("staff", False):
            data.pop("misconception", None)
        return data


def course_submissions(*, access: CourseAccess, student: User | None, part_id: int | None,
                       exercise: str | None, since: Any) -> QuerySet[Submission]:
    """Submissions of the course the caller may see (a student: their own), filtered."""
    rows = Submission.objects.filter(course=access.course).select_related("part__exercise")
    if student is not None:
        rows = rows.filter(student=student)
    if part_id is not None:
        rows = rows.filter(part_id=part_id)
    if exercise:
        rows = rows.filter(part__exercise__slug=exercise)
    if since is not None:
        rows = rows.filter(created_at__gte=since)
    return rows.order_by("created_at", "id")


class SubmissionListApi(ApiView):
    class InputSerializer(serializers.Serializer):
        part = id_field(help_text="the part's id (see the exercise)")
        answer = serializers.CharField(max_length=MAX_ANSWER, allow_blank=True,
                                       trim_whitespace=False)
        student = id_field(required=False, help_text="staff and keys: whose answer")

    class FilterSerializer(serializers.Serializer):
        student = id_field(required=False)
        part = id_field(required=False)
        exercise = serializers.SlugField(required=False)
        since = serializers.DateTimeField(required=False, help_text="submitted at or after")

    @extend_schema(parameters=[FilterSerializer],
                   responses=SubmissionOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """Submissions, oldest first; a student sees only their own."""
        access = self.access(course_slug)
        query = self.query(self.FilterSerializer)
        student: User | None = None
        if not access.is_staff or "student" in query:
            student = acting_student(access, query.get("student"))
        rows = course_submissions(access=access, student=student, part_id=query.get("part"),
                                  exercise=query.get("exercise"), since=query.get("since"))
        return self.paginated(request, rows, SubmissionOutput, {"staff": access.is_staff})

    @extend_schema(
        request=InputSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                                     description="a retried POST with the same key returns the "
                                                 "first response and never submits twice")],
        responses={201: SubmissionOutput},
    )
    def post(self, request: Request, course_slug: str) -> Response:
        """Submit an answer; it is stored, graded at once and the verdict returned (201).

        Refused answers are a 409 `submission_refused` and store nothing: not enrolled, the
        question withdrawn, past the deadline, the part already solved (the web page hides
        its form then; the API applies the same rule), or no attempts left. An invalid answer
        (unreadable) is stored with outcome "invalid" and uses no attempt.
        """
        access = self.access(course_slug)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        student = acting_for(access, data.get("student"), doing="submit")
        part = (Part.objects.select_related("exercise")
                .filter(pk=data["part"], exercise__module_id=access.course.module_id).first())
        if part is None:
            raise ApiError(400, "invalid", "No such part in this course.", {"part": ["Unknown part."]})

        def respond(submission: Submission) -> Response:
            return Response(SubmissionOutput(submission, context={"staff": access.is_staff}).data,
                            status=status.HTTP_201_CREATED)

        def perform(note: Note) -> Response:
            try:
                submission = submission_create(
                    student=student, course=access.course, part=part, raw_answer=data["answer"],
                    on_stored=lambda stored: note(resource_name("submission", stored.pk)))
            except SubmissionRefused as exc:
                raise ApiError(409, "submission_refused", str(exc)) from exc
            return respond(submission)

        def replay(resource: str) -> Response | None:
            ident = resource_ident(resource, "submission")
            if ident is None or not ident.isdigit():
                return None
            stored = course_submissions(access=access, student=student, part_id=None,
                                        exercise=None, since=None).filter(pk=ident).first()
            return respond(stored) if stored is not None else None

        return idempotent(request, access.principal, perform, replay=replay)


class SubmissionDetailApi(ApiView):
    @extend_schema(responses=SubmissionOutput)
    def get(self, request: Request, course_slug: str, submission_id: int) -> Response:
        """One submission (a student's own, or any for staff)."""
        access = self.access(course_slug)
        student = None if access.is_staff else access.user
        submission = course_submissions(access=access, student=student, part_id=None,
                                        exercise=None, since=None).filter(pk=submission_id).first()
        if submission is None:
            raise ApiError(404, "not_found", "No such submission.")
        return Response(SubmissionOutput(submission, context={"staff": access.is_staff}).data)


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
    earned = serializers.FloatField()
    last_activity = serializers.DateTimeField(allow_null=True)
    cells = GradebookCellOutput(many=True)


class GradebookColumnOutput(serializers.Serializer):
    id = serializers.IntegerField()
    exercise = serializers.CharField(source="exercise_slug")
    exercise_title = serializers.CharField()
    key = serializers.CharField()
    points = serializers.FloatField()


class GradebookOutput(serializers.Serializer):
    course = serializers.CharField()
    total_points = serializers.FloatField()
    generated_at = serializers.DateTimeField()
    next_updated_since = serializers.DateTimeField(
        help_text="pass as updated_since next time (overlaps a little: rows may repeat, none are missed)")
    columns = GradebookColumnOutput(many=True)
    rows = GradebookRowOutput(many=True)


CELL_FIELDS = ("best_score", "attempts", "pending", "correct", "last_activity")


def gradebook_representation(book: Gradebook, generated_at: Any) -> dict[str, Any]:
    from datetime import timedelta

    return {
        "course": book.course.slug,
        "total_points": book.total_points,
        "generated_at": generated_at,
        "next_updated_since": generated_at - timedelta(minutes=1),
        "columns": book.columns,
        "rows": [
            {"student_id": r.student_id, "username": r.username, "name": r.name, "email": r.email,
             "group": r.group, "external_id": r.external_id, "earned": r.earned(book.columns),
             "last_activity": r.last_activity,
             "cells": [{"part_id": part_id, **{name: getattr(cell, name) for name in CELL_FIELDS}}
                       for part_id, cell in r.cells.items()]}
            for r in book.rows
        ],
    }


def gradebook_response(book: Gradebook, request: Request, filename: str) -> Any:
    """The gradebook as JSON, or streamed CSV when the client asked for text/csv."""
    from django.utils import timezone

    if request.accepted_renderer.format == "csv":
        response = StreamingHttpResponse(csv_text(gradebook_csv_lines(book)),
                                         content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
        return response
    return Response(GradebookOutput(gradebook_representation(book, timezone.now())).data)


class UpdatedSince(serializers.Serializer):
    updated_since = serializers.DateTimeField(
        required=False, help_text="only students with a submission graded at or after this time")
    group = serializers.CharField(required=False, max_length=50)


GRADEBOOK_RESPONSES = {
    200: OpenApiResponse(GradebookOutput, description="JSON, or CSV with Accept: text/csv or ?format=csv"),
    (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR),
}


class GradebookApi(ApiView):
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]

    @extend_schema(parameters=[UpdatedSince], responses=GRADEBOOK_RESPONSES)
    def get(self, request: Request, course_slug: str) -> Any:
        """The course's gradebook: each active student's best score per part (staff and keys)."""
        access = self.access(course_slug, Level.STAFF)
        filters = self.query(UpdatedSince)
        book = gradebook(course=access.course, updated_since=filters.get("updated_since"),
                         group=filters.get("group") or None)
        return gradebook_response(book, request, f"gradebook-{access.course.slug}")


class StudentGradebookApi(ApiView):
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]

    @extend_schema(parameters=[UpdatedSince], responses=GRADEBOOK_RESPONSES)
    def get(self, request: Request, course_slug: str, student_id: int) -> Any:
        """One student's gradebook row (a student may read their own)."""
        access = self.access(course_slug)
        filters = self.query(UpdatedSince)
        student = acting_student(access, student_id)
        book = gradebook(course=access.course, student=student,
                         updated_since=filters.get("updated_since"))
        return gradebook_response(book, request, f"gradebook-{access.course.slug}-{student.pk}")
