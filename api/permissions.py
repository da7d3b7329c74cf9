"""Request-level permissions; per-course checks live in config/api/access.py."""

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from api.models import ApiKey


class IsPrincipal(permissions.BasePermission):
    """A logged-in user or a valid course API key."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, ApiKey) or bool(request.user and request.user.is_authenticated)


class ReadOnlyKeyReadsOnly(permissions.BasePermission):
    """A read-only API key may only use safe methods."""

    message = "This API key is read-only."

    def has_permission(self, request: Request, view: Any) -> bool:
        if isinstance(request.auth, ApiKey) and not request.auth.can_write:
            return request.method in permissions.SAFE_METHODS
        return True
