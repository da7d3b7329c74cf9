"""The base class of every API view: authentication, permissions, pagination helpers."""

from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.access import CourseAccess, Level, course_access
from config.api.pagination import Pagination
from config.api.permissions import IsPrincipal, ReadOnlyKeyReadsOnly


class ApiView(APIView):
    permission_classes = [IsPrincipal, ReadOnlyKeyReadsOnly]
    pagination_class = Pagination  # read by the schema generator for list responses

    def access(self, course_slug: str, need: Level = Level.MEMBER) -> CourseAccess:
        """The caller's access to the course (404 if not theirs, 403 if not enough)."""
        return course_access(self.request, course_slug, need=need)

    def paginated(self, request: Request, queryset: QuerySet[Any] | list[Any],
                  serializer_class: type[serializers.BaseSerializer],
                  context: dict[str, Any] | None = None) -> Response:
        """One page of `queryset` serialized, with count, next and previous links."""
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(queryset, request, view=self)  # type: ignore[arg-type]
        data = serializer_class(page, many=True, context=context or {}).data
        return paginator.get_paginated_response(data)
