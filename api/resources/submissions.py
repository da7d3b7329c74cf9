"""REST API: submissions (stored first, graded at once, idempotent under retries)."""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import (
    STUDENT_ACTING,
    STUDENT_FILTER,
    CourseAccess,
    acting_for,
    acting_student,
    visible_module_ids,
)
from api.base import ApiView
from api.errors import ApiError
from api.fields import MAX_ID, BodySerializer, id_field
from api.idempotency import Note, idempotent, resource_ident, resource_name
from courses.models import Part
from grading.models import Submission
from grading.services import MAX_ANSWER, SubmissionRefused, submission_create


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
    class InputSerializer(BodySerializer):
        part = id_field(help_text="the part's id (see the exercise)")
        answer = serializers.CharField(max_length=MAX_ANSWER, allow_blank=True,
                                       trim_whitespace=False)
        student = id_field(required=False, help_text=STUDENT_ACTING)

    class FilterSerializer(serializers.Serializer):
        student = id_field(required=False, help_text=STUDENT_FILTER)
        part = id_field(required=False)
        exercise = serializers.SlugField(required=False)
        since = serializers.DateTimeField(required=False, help_text="submitted at or after")
        after = serializers.IntegerField(required=False, min_value=0, max_value=MAX_ID, help_text=(
            "keyset paging (start with 0): submissions with an id above this one, in id order; the "
            "response's next link carries the last id (count is null: not counted)"))

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
        if "after" in query:
            return self.keyset_page(request, rows.filter(pk__gt=query["after"]).order_by("pk"),
                                    SubmissionOutput, {"staff": access.is_staff})
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
                .filter(pk=data["part"], exercise__module_id__in=visible_module_ids(access))
                .first())  # a student answers only in released modules
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
