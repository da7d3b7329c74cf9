"""REST API: the course's LMS-managed roster (read, and sync by one PUT)."""


from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Level
from api.base import ApiView
from api.errors import ApiError
from api.fields import BodySerializer, StrictBooleanField
from courses.models import Enrollment
from courses.roster import (
    ROSTER_ROLES,
    RosterEntry,
    RosterInvalid,
    RosterMassDeactivation,
    roster_list,
    roster_sync,
)


class RosterEntryInput(BodySerializer):
    external_id = serializers.CharField(max_length=200)
    name = serializers.CharField(max_length=300, allow_blank=True, default="")
    email = serializers.EmailField(allow_blank=True, default="")
    role = serializers.ChoiceField(
        choices=[(r.value, r.label) for r in ROSTER_ROLES], default=Enrollment.Role.STUDENT,
        help_text="student or ta (instructors are added in the service)")
    group = serializers.CharField(max_length=50, allow_blank=True, default="")


class RosterSyncInput(BodySerializer):
    roster = RosterEntryInput(many=True, allow_empty=True,
                              help_text="every enrolment the LMS manages")
    allow_mass_deactivation = StrictBooleanField(
        default=False,
        help_text="confirm a sync that deactivates more than the allowed share of the active "
                  "LMS-managed roster (ROSTER_MAX_DEACTIVATION_SHARE, 20% by default)")


class RosterApi(ApiView):
    class OutputSerializer(serializers.Serializer):
        user_id = serializers.IntegerField(read_only=True, source="user.id")
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
