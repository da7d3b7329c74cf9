"""REST API: the course's API keys (issued and revoked by an instructor in person)."""


from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Level
from api.base import ApiView
from api.errors import ApiError
from api.fields import BodySerializer
from api.keys import api_key_create, api_key_revoke
from api.models import ApiKey


class ApiKeyOutput(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField()
    role = serializers.CharField()
    prefix = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)


class ApiKeyListApi(ApiView):
    class InputSerializer(BodySerializer):
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
