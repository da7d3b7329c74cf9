"""REST API of courses: courses, module, sections, exercises, roster, API keys, webhooks.

Students see exercise prompts rendered with their own variant and only `public_spec` of
each part; staff and keys see the full spec. Every view parses input and calls one
service or selector.
"""

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from config.api.access import CourseAccess, Level, principal_of
from config.api.errors import ApiError
from config.api.views import ApiView
from courses.api_keys import api_key_create, api_key_revoke
from courses.models import (
    ApiKey,
    Course,
    Enrollment,
    Exercise,
    Section,
    WebhookDelivery,
    WebhookSubscription,
)
from courses.roster import (
    ROSTER_ROLES,
    RosterEntry,
    RosterInvalid,
    RosterMassDeactivation,
    roster_list,
    roster_sync,
)
from courses.selectors import course_exercises, course_list_for_user
from courses.webhooks import (
    EVENTS,
    WebhookUrlInvalid,
    webhook_delivery_list,
    webhook_delivery_replay,
    webhook_list,
    webhook_subscribe,
    webhook_unsubscribe,
)
from grading.public_spec import public_spec
from grading.variant_assignment import Variant, default_variant, variant_for


def exercise_representation(exercise: Exercise, access: CourseAccess) -> dict[str, Any]:
    """An exercise as the caller may see it (student: own variant, public spec)."""
    student = access.user if not access.is_staff else None
    variant: Variant = (variant_for(student=student, course=access.course, exercise=exercise)
                        if student is not None else default_variant(exercise=exercise))
    data: dict[str, Any] = {
        "uuid": str(exercise.uuid), "slug": exercise.slug, "kind": exercise.kind,
        "title": exercise.title, "section": exercise.section.number, "order": exercise.order,
        "max_attempts": exercise.max_attempts, "penalty": exercise.penalty,
        "prompt": variant.prompt(exercise.prompt),
        "parts": [
            {"id": part.pk, "key": part.key, "answer_type": part.answer_type,
             "points": part.points, "prompt": variant.prompt(part.prompt),
             "spec": dict(part.spec) if student is None else public_spec(part.spec, variant.params)}
            for part in exercise.parts.all()
        ],
    }
    if student is None:
        data["parameters"] = exercise.parameters
        data["derived"] = exercise.derived
    return data


class ModuleSerializer(serializers.Serializer):
    slug = serializers.CharField()
    number = serializers.CharField()
    title = serializers.CharField()


class CourseOutput(serializers.Serializer):
    slug = serializers.SlugField()
    title = serializers.CharField()
    module = ModuleSerializer()
    created_at = serializers.DateTimeField()


class CourseListApi(ApiView):
    @extend_schema(responses=CourseOutput(many=True), operation_id="courses_list")
    def get(self, request: Request) -> Response:
        """Courses the caller belongs to (an API key: its one course)."""
        principal = principal_of(request)
        courses: QuerySet[Course]
        if principal.api_key is not None:
            courses = Course.objects.filter(pk=principal.api_key.course_id).select_related("module")
        else:
            courses = course_list_for_user(user=request.user)
        return self.paginated(request, courses.order_by("title", "id"), CourseOutput)


class CourseDetailApi(ApiView):
    class OutputSerializer(CourseOutput):
        role = serializers.CharField(help_text="the caller's role: student, ta, instructor, lms, read_only")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, course_slug: str) -> Response:
        """One course and the caller's role in it."""
        access = self.access(course_slug)
        data = {**CourseOutput(access.course).data, "role": access.role}
        return Response(self.OutputSerializer(data).data)


class ModuleDetailApi(ApiView):
    class OutputSerializer(serializers.Serializer):
        uuid = serializers.UUIDField()
        slug = serializers.CharField()
        number = serializers.CharField()
        title = serializers.CharField()
        intro = serializers.CharField()
        references = serializers.JSONField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's module (Markdown text)."""
        access = self.access(course_slug)
        return Response(self.OutputSerializer(access.course.module).data)


class SectionSummary(serializers.Serializer):
    uuid = serializers.UUIDField()
    number = serializers.CharField()
    slug = serializers.CharField()
    title = serializers.CharField()
    order = serializers.IntegerField()


class SectionListApi(ApiView):
    @extend_schema(responses=SectionSummary(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The module's sections in order."""
        access = self.access(course_slug)
        sections = Section.objects.active().filter(module_id=access.course.module_id).order_by("order")
        return self.paginated(request, sections, SectionSummary)


class SectionDetailApi(ApiView):
    class OutputSerializer(SectionSummary):
        body = serializers.CharField(help_text="Markdown with LaTeX")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, course_slug: str, section_slug: str) -> Response:
        """One section with its body."""
        access = self.access(course_slug)
        section = (Section.objects.active()
                   .filter(module_id=access.course.module_id, slug=section_slug).first())
        if section is None:
            raise ApiError(404, "not_found", "No such section.")
        return Response(self.OutputSerializer(section).data)


class PartOutput(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    answer_type = serializers.CharField()
    points = serializers.FloatField()
    prompt = serializers.CharField(allow_blank=True)
    spec = serializers.DictField(help_text="students: the public part only; staff: the full spec")


class ExerciseOutput(serializers.Serializer):
    uuid = serializers.UUIDField()
    slug = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField()
    section = serializers.CharField()
    order = serializers.IntegerField()
    max_attempts = serializers.IntegerField()
    penalty = serializers.FloatField()
    prompt = serializers.CharField()
    parts = PartOutput(many=True)
    parameters = serializers.DictField(required=False, help_text="staff only")
    derived = serializers.DictField(required=False, help_text="staff only")


class ExerciseListApi(ApiView):
    @extend_schema(responses=ExerciseOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The module's exercises; a student sees their own variant of each prompt."""
        access = self.access(course_slug)
        exercises = [exercise_representation(e, access) for e in course_exercises(course=access.course)]
        return self.paginated(request, exercises, ExerciseOutput)


class ExerciseDetailApi(ApiView):
    @extend_schema(responses=ExerciseOutput)
    def get(self, request: Request, course_slug: str, exercise_slug: str) -> Response:
        """One exercise; a student sees their own variant and no answer key."""
        access = self.access(course_slug)
        exercise = course_exercises(course=access.course).filter(slug=exercise_slug).first()
        if exercise is None:
            raise ApiError(404, "not_found", "No such exercise.")
        return Response(ExerciseOutput(exercise_representation(exercise, access)).data)


class RosterEntryInput(serializers.Serializer):
    external_id = serializers.CharField(max_length=200)
    name = serializers.CharField(max_length=300, allow_blank=True, default="")
    email = serializers.EmailField(allow_blank=True, default="")
    role = serializers.ChoiceField(
        choices=[(r.value, r.label) for r in ROSTER_ROLES], default=Enrollment.Role.STUDENT,
        help_text="student or ta (instructors are added in the service)")
    group = serializers.CharField(max_length=50, allow_blank=True, default="")


class RosterSyncInput(serializers.Serializer):
    roster = RosterEntryInput(many=True, allow_empty=True,
                              help_text="every enrolment the LMS manages")
    allow_mass_deactivation = serializers.BooleanField(
        default=False,
        help_text="confirm a sync that deactivates more than the allowed share of the active "
                  "LMS-managed roster (ROSTER_MAX_DEACTIVATION_SHARE, 20% by default)")


class RosterApi(ApiView):
    class OutputSerializer(serializers.Serializer):
        user_id = serializers.IntegerField(source="user.id")
        username = serializers.CharField(source="user.username")
        name = serializers.CharField(source="user.get_full_name")
        email = serializers.CharField(source="user.email")
        external_id = serializers.CharField()
        role = serializers.CharField()
        group = serializers.CharField()
        is_active = serializers.BooleanField()

    class DiffSerializer(serializers.Serializer):
        created = serializers.ListField(child=serializers.CharField())
        updated = serializers.ListField(child=serializers.CharField())
        deactivated = serializers.ListField(child=serializers.CharField())
        unchanged = serializers.ListField(child=serializers.CharField())

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """Every enrolment of the course, active first (staff and keys)."""
        access = self.access(course_slug, Level.STAFF)
        return self.paginated(request, roster_list(course=access.course), self.OutputSerializer)

    @extend_schema(request=RosterSyncInput,
                   responses={200: DiffSerializer,
                              409: OpenApiResponse(description="mass deactivation refused")})
    def put(self, request: Request, course_slug: str) -> Response:
        """Replace the LMS-managed roster: create, update and deactivate; returns the diff.

        The body is a JSON object `{"roster": [...], "allow_mass_deactivation": false}` sent
        as `application/json` (any other media type is 415; a body without `roster` is 400).
        Students left out are deactivated (their work is kept); enrolments made by hand
        (without an external id) are left alone. A sync that would deactivate more than the
        allowed share of the active LMS-managed roster is refused with 409 unless
        `allow_mass_deactivation` is true.
        """
        access = self.access(course_slug, Level.MANAGER)
        if not isinstance(request.data, dict):
            raise ApiError(400, "invalid", 'Send a JSON object: {"roster": [...]}.',
                           {"roster": ["This field is required."]})
        body = RosterSyncInput(data=request.data)
        body.is_valid(raise_exception=True)
        entries = [RosterEntry(**item) for item in body.validated_data["roster"]]
        try:
            diff = roster_sync(course=access.course, entries=entries,
                               allow_mass_deactivation=body.validated_data["allow_mass_deactivation"])
        except RosterInvalid as exc:
            raise ApiError(400, "invalid", "The roster is not valid; see fields.",
                           {f"roster.{k}": v for k, v in exc.errors.items()}) from exc
        except RosterMassDeactivation as exc:
            raise ApiError(409, "mass_deactivation_refused", str(exc)) from exc
        return Response(self.DiffSerializer(diff).data)


class ApiKeyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.CharField()
    prefix = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)


class ApiKeyListApi(ApiView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)
        role = serializers.ChoiceField(choices=ApiKey.Role.choices)

    class CreatedSerializer(ApiKeyOutput):
        token = serializers.CharField(help_text="shown only in this response; store it now")

    @extend_schema(responses=ApiKeyOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's API keys (never their tokens); instructors only."""
        access = self.access(course_slug, Level.INSTRUCTOR)
        return self.paginated(request, ApiKey.objects.filter(course=access.course), ApiKeyOutput)

    @extend_schema(request=InputSerializer, responses={201: CreatedSerializer})
    def post(self, request: Request, course_slug: str) -> Response:
        """Issue a key; its token is in this response only."""
        access = self.access(course_slug, Level.INSTRUCTOR)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        assert access.user is not None  # noqa: S101 (Level.INSTRUCTOR is a person)
        issued = api_key_create(course=access.course, created_by=access.user, **serializer.validated_data)
        data = dict(ApiKeyOutput(issued.api_key).data)
        data["token"] = issued.token
        return Response(data, status=status.HTTP_201_CREATED)


class ApiKeyRevokeApi(ApiView):
    @extend_schema(request=None, responses=ApiKeyOutput)
    def delete(self, request: Request, course_slug: str, key_id: int) -> Response:
        """Revoke a key: requests with it are refused (401) from now on."""
        access = self.access(course_slug, Level.INSTRUCTOR)
        api_key = ApiKey.objects.filter(course=access.course, pk=key_id).first()
        if api_key is None:
            raise ApiError(404, "not_found", "No such API key.")
        return Response(ApiKeyOutput(api_key_revoke(api_key=api_key)).data)


class WebhookOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()


class WebhookListApi(ApiView):
    class InputSerializer(serializers.Serializer):
        url = serializers.URLField(max_length=500)
        events = serializers.ListField(child=serializers.ChoiceField(choices=EVENTS), min_length=1)

    class CreatedSerializer(WebhookOutput):
        secret = serializers.CharField(help_text="HMAC-SHA256 key of the signatures; shown once")

    @extend_schema(responses=WebhookOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's webhook subscriptions."""
        access = self.access(course_slug, Level.MANAGER)
        return self.paginated(request, webhook_list(course=access.course), WebhookOutput)

    @extend_schema(request=InputSerializer, responses={201: CreatedSerializer})
    def post(self, request: Request, course_slug: str) -> Response:
        """Subscribe a URL to events; the signing secret is in this response only."""
        access = self.access(course_slug, Level.MANAGER)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            subscription = webhook_subscribe(course=access.course, **serializer.validated_data)
        except WebhookUrlInvalid as exc:
            raise ApiError(400, "invalid", str(exc), {"url": [str(exc)]}) from exc
        data = dict(WebhookOutput(subscription).data)
        data["secret"] = subscription.secret
        return Response(data, status=status.HTTP_201_CREATED)


class WebhookDetailApi(ApiView):
    def _subscription(self, course_slug: str, webhook_id: int) -> WebhookSubscription:
        access = self.access(course_slug, Level.MANAGER)
        subscription = webhook_list(course=access.course).filter(pk=webhook_id).first()
        if subscription is None:
            raise ApiError(404, "not_found", "No such webhook.")
        return subscription

    @extend_schema(responses=WebhookOutput)
    def get(self, request: Request, course_slug: str, webhook_id: int) -> Response:
        """One subscription."""
        return Response(WebhookOutput(self._subscription(course_slug, webhook_id)).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, course_slug: str, webhook_id: int) -> Response:
        """Unsubscribe; pending deliveries give up, the history stays."""
        webhook_unsubscribe(subscription=self._subscription(course_slug, webhook_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    webhook_id = serializers.IntegerField(source="subscription_id")
    url = serializers.CharField(source="subscription.url")
    event = serializers.CharField()
    event_id = serializers.UUIDField()
    status = serializers.CharField()
    attempts = serializers.IntegerField()
    next_attempt_at = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    last_status_code = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField(allow_blank=True)
    delivered_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    payload = serializers.DictField()


class WebhookDeliveryListApi(ApiView):
    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices, required=False)

    @extend_schema(parameters=[FilterSerializer],
                   responses=DeliveryOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """Webhook deliveries, newest first; `?status=failed` lists the ones that gave up."""
        access = self.access(course_slug, Level.MANAGER)
        filters = self.query(self.FilterSerializer)
        rows = webhook_delivery_list(course=access.course, status=filters.get("status"))
        return self.paginated(request, rows, DeliveryOutput)


class WebhookDeliveryReplayApi(ApiView):
    @extend_schema(request=None, responses={202: DeliveryOutput})
    def post(self, request: Request, course_slug: str, delivery_id: int) -> Response:
        """Send a delivery again (typically a failed one); the event id is kept."""
        access = self.access(course_slug, Level.MANAGER)
        delivery = webhook_delivery_list(course=access.course).filter(pk=delivery_id).first()
        if delivery is None:
            raise ApiError(404, "not_found", "No such delivery.")
        return Response(DeliveryOutput(webhook_delivery_replay(delivery=delivery)).data,
                        status=status.HTTP_202_ACCEPTED)
