"""The base class of every API view: authentication, permissions, pagination helpers."""

from typing import Any

from django.db.models import QuerySet
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from api.access import CourseAccess, Level, course_access
from api.negotiation import FormatNegotiation
from api.pagination import Pagination
from api.permissions import IsPrincipal, ReadOnlyKeyReadsOnly


def require_json_body(request: Request) -> None:
    """Raise UnsupportedMediaType (415) for a write whose Content-Type is not JSON, or that
    has a body but no Content-Type. A write without a body and without a type is fine."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    media_type = (request.content_type or "").split(";", 1)[0].strip().lower()
    has_body = int(request.META.get("CONTENT_LENGTH") or 0) > 0
    if media_type:
        if media_type != "application/json" and not media_type.endswith("+json"):
            raise exceptions.UnsupportedMediaType(media_type)
    elif has_body:
        raise exceptions.UnsupportedMediaType("(none)")


class ApiView(APIView):
    permission_classes = [IsPrincipal, ReadOnlyKeyReadsOnly]
    pagination_class = Pagination  # read by the schema generator for list responses
    content_negotiation_class = FormatNegotiation

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """DRF's checks, then: a body that is not JSON is 415 even when it is empty (DRF
        reads an empty form body as empty data, which must never mean "an empty list")."""
        super().initial(request, *args, **kwargs)
        require_json_body(request)

    def access(self, course_slug: str, need: Level = Level.MEMBER) -> CourseAccess:
        """The caller's access to the course (404 if not theirs, 403 if not enough)."""
        return course_access(self.request, course_slug, need=need)

    def query(self, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
        """The request's query parameters validated by `serializer_class` (ValidationError,
        a 400 naming the parameter, for a bad value). Unlike DRF's form handling, an empty
        value (`?since=`) is a value to validate, not an absent one; a parameter the
        serializer does not declare (`limit`, `format`, ...) is left to whoever reads it."""
        params = self.request.query_params
        data = {name: params.get(name) for name in list(serializer_class().fields) if name in params}
        filters = serializer_class(data=data)
        filters.is_valid(raise_exception=True)
        return dict(filters.validated_data)

    def paginated(self, request: Request, queryset: QuerySet[Any] | list[Any],
                  serializer_class: type[serializers.BaseSerializer],
                  context: dict[str, Any] | None = None) -> Response:
        """One page of `queryset` serialized, with count, next and previous links."""
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(queryset, request, view=self)  # type: ignore[arg-type]
        data = serializer_class(page, many=True, context=context or {}).data
        return paginator.get_paginated_response(data)

    def keyset_page(self, request: Request, queryset: QuerySet[Any],
                    serializer_class: type[serializers.BaseSerializer],
                    context: dict[str, Any] | None = None) -> Response:
        """The first `limit` rows of `queryset` (filtered above the cursor and ordered by
        primary key by the caller), with a `next` link carrying the last key as `after`.
        Stable under concurrent writes (new rows only ever come after the cursor) and
        cheap at any depth: no OFFSET, no COUNT (`count` is null)."""
        limit = self.pagination_class().get_limit(request)
        rows = list(queryset[:limit])
        data = serializer_class(rows, many=True, context=context or {}).data
        next_url = None
        if len(rows) == limit:
            next_url = replace_query_param(request.build_absolute_uri(), "after", rows[-1].pk)
        return Response({"count": None, "next": next_url, "previous": None, "results": data})
