"""REST API: exam accommodations (a student's time multiplier and extra attempts, for every
timed assessment of the course), window extensions of one assessment for one student, and a
TA's reopening of a closed attempt with a reason. Each write goes through exams.staff, which
audits it; an API key acts as the instructor who created it (named in the audited reason)."""

from typing import cast

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import CourseAccess, Level, acting_student
from api.base import ApiView
from api.errors import ApiError
from api.fields import BodySerializer, id_field
from core.integer_bounds import column_range
from exams.models import Accommodation, Assessment
from exams.services import AttemptRefused
from exams.staff import (
    MAX_EXTRA_ATTEMPTS,
    MAX_REOPEN_MINUTES,
    MAX_TIME_FACTOR,
    accommodation_set,
    attempt_reopen,
    window_extend,
)
from exams.staff_selectors import (
    attempt_in,
    course_accommodations,
    course_assessment,
    course_extensions,
)


def _acting_user(access: CourseAccess) -> tuple[User, str]:
    """Who a write is done as (the key's creator for a key), and a note for the audit log."""
    if access.principal.api_key is not None:
        key = access.principal.api_key
        return key.created_by, f" (API key {key.prefix}…)"
    return cast(User, access.user), ""


def _refused(exc: AttemptRefused) -> ApiError:
    return ApiError(409, "refused", str(exc))


def _assessment(access: CourseAccess, slug: str) -> Assessment:
    assessment = course_assessment(course=access.course, slug=slug)
    if assessment is None:
        raise ApiError(404, "not_found", "No such assessment in this course.")
    return assessment


class AccommodationOutput(serializers.Serializer):
    student = serializers.IntegerField(source="student_id", read_only=True)
    username = serializers.CharField(source="student.username")
    time_factor = serializers.FloatField(help_text="the time limit of every timed assessment "
                                                   "is multiplied by this")
    extra_attempts = serializers.IntegerField(read_only=True,
                                              help_text="attempts beyond each assessment's own")


class AccommodationInput(BodySerializer):
    time_factor = serializers.FloatField(min_value=1.0, max_value=MAX_TIME_FACTOR,
                                         help_text=f"1 to {MAX_TIME_FACTOR:g}")
    extra_attempts = serializers.IntegerField(
        min_value=0, max_value=min(MAX_EXTRA_ATTEMPTS, column_range(
            Accommodation._meta.get_field("extra_attempts"))[1]),
        help_text=f"0 to {MAX_EXTRA_ATTEMPTS}")


class AccommodationListApi(ApiView):
    @extend_schema(responses=AccommodationOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's accommodations (staff and keys); a student without one has factor 1
        and no extra attempt."""
        access = self.access(course_slug, Level.STAFF)
        return self.paginated(request, course_accommodations(course=access.course),
                              AccommodationOutput)


class AccommodationApi(ApiView):
    @extend_schema(request=AccommodationInput, responses=AccommodationOutput)
    def put(self, request: Request, course_slug: str, student_id: int) -> Response:
        """Set one student's accommodation (instructors and LMS keys), applied to every
        attempt started from now; `{"time_factor": 1, "extra_attempts": 0}` removes it in
        effect. A student not in the course is a 404; someone who is not a student, 409."""
        access = self.access(course_slug, Level.MANAGER)
        body = AccommodationInput(data=request.data)
        body.is_valid(raise_exception=True)
        student = acting_student(access, student_id)
        by, _ = _acting_user(access)
        try:
            accommodation = accommodation_set(
                course=access.course, student=student, by=by,
                time_factor=body.validated_data["time_factor"],
                extra_attempts=body.validated_data["extra_attempts"])
        except AttemptRefused as exc:
            raise _refused(exc) from exc
        return Response(AccommodationOutput(accommodation).data)


class ExtensionOutput(serializers.Serializer):
    assessment = serializers.CharField(source="assessment.slug")
    student = serializers.IntegerField(source="student_id", read_only=True)
    username = serializers.CharField(source="student.username")
    closes_at = serializers.DateTimeField()
    reason = serializers.CharField()


class ExtensionInput(BodySerializer):
    assessment = serializers.SlugField(max_length=100, help_text="the assessment's slug")
    student = id_field(help_text="the student's user id")
    closes_at = serializers.DateTimeField(help_text="the student's new close (ISO 8601 with an "
                                                    "offset), after the assessment's and at "
                                                    "most 30 days after it")
    reason = serializers.CharField(max_length=250)


class ExtensionQuery(serializers.Serializer):
    assessment = serializers.SlugField(required=False, max_length=100,
                                       help_text="only this assessment's extensions")


class ExtensionListApi(ApiView):
    @extend_schema(parameters=[ExtensionQuery], responses=ExtensionOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's window extensions, of one assessment with `?assessment=` (staff and
        keys); an unknown assessment is a 404."""
        access = self.access(course_slug, Level.STAFF)
        slug = self.query(ExtensionQuery).get("assessment")
        assessment = _assessment(access, slug) if slug else None
        return self.paginated(request, course_extensions(course=access.course,
                                                         assessment=assessment), ExtensionOutput)

    @extend_schema(request=ExtensionInput, responses={201: ExtensionOutput})
    def post(self, request: Request, course_slug: str) -> Response:
        """Let one student start and work on one assessment until a later close, for a
        reason (audited); instructors and LMS keys. Posting again for the same student and
        assessment replaces the close."""
        access = self.access(course_slug, Level.MANAGER)
        body = ExtensionInput(data=request.data)
        body.is_valid(raise_exception=True)
        assessment = _assessment(access, body.validated_data["assessment"])
        student = acting_student(access, body.validated_data["student"])
        by, note = _acting_user(access)
        try:
            extension = window_extend(assessment=assessment, course=access.course,
                                      student=student, by=by,
                                      closes_at=body.validated_data["closes_at"],
                                      reason=body.validated_data["reason"] + note)
        except AttemptRefused as exc:
            raise _refused(exc) from exc
        return Response(ExtensionOutput(extension).data, status=201)


class ReopenInput(BodySerializer):
    minutes = serializers.IntegerField(min_value=1, max_value=MAX_REOPEN_MINUTES,
                                       help_text=f"1 to {MAX_REOPEN_MINUTES}")
    reason = serializers.CharField(max_length=200)


class ReopenOutput(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    student = serializers.IntegerField(source="student_id", read_only=True)
    number = serializers.IntegerField(read_only=True)
    deadline_at = serializers.DateTimeField()


class AttemptReopenApi(ApiView):
    @extend_schema(request=ReopenInput, responses=ReopenOutput)
    def post(self, request: Request, course_slug: str, assessment_slug: str,
             attempt_id: int) -> Response:
        """Reopen a closed attempt for some minutes more, with its drafts, for a reason
        (audited); TAs, instructors and LMS keys. An attempt still open, or a student with
        another attempt open, is a 409."""
        access = self.access(course_slug, Level.STAFF)
        body = ReopenInput(data=request.data)
        body.is_valid(raise_exception=True)
        assessment = _assessment(access, assessment_slug)
        if not attempt_in(course=access.course, assessment=assessment, attempt_id=attempt_id):
            raise ApiError(404, "not_found", "No such attempt.")
        by, note = _acting_user(access)
        try:
            attempt = attempt_reopen(attempt_id=attempt_id, by=by,
                                     minutes=body.validated_data["minutes"],
                                     reason=body.validated_data["reason"] + note)
        except AttemptRefused as exc:
            raise _refused(exc) from exc
        return Response(ReopenOutput(attempt).data)
