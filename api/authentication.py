"""API key authentication: `Authorization: Bearer grk_...` (or `X-Api-Key: grk_...`).

A key authenticates no person: `request.user` stays anonymous and `request.auth` is the
ApiKey, scoped to one course (see config/api/access.py).
"""

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from api.keys import api_key_authenticate
from api.models import ApiKey


def _token(request: Request) -> str | None:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    key = request.META.get("HTTP_X_API_KEY", "").strip()
    return key or None


class ApiKeyAuthentication(authentication.BaseAuthentication):
    """Authenticates a request carrying a course API key; a revoked or unknown key is a 401."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, ApiKey] | None:
        token = _token(request)
        if token is None:
            return None
        api_key = api_key_authenticate(token=token)
        if api_key is None:
            raise exceptions.AuthenticationFailed("This API key is not valid or has been revoked.")
        return AnonymousUser(), api_key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.ApiKeyAuthentication"
    name = "apiKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer", "description": "A course API key (grk_...)."}
