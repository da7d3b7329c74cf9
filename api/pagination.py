"""Pagination of API lists: ?limit=&offset= with a bounded page size; bad values are 400."""

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from api.fields import MAX_ID


def _whole_number(request: Request, name: str, *, default: int, minimum: int,
                  maximum: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ValidationError({name: [f"A whole number is required, not {raw[:40]!r}."]}) from None
    if value < minimum:
        raise ValidationError({name: [f"Must be {minimum} or more."]})
    if value > maximum:
        raise ValidationError({name: [f"Must be {maximum} or less."]})
    return value


class Pagination(LimitOffsetPagination):
    """Limit/offset pages. Unlike DRF's default, `?offset=null`, `?limit=-1` or a value past
    the documented maximum (`?limit=501`: DRF would serve 500) is a 400 naming the parameter,
    never silently another page."""

    default_limit = 50
    max_limit = 500

    def get_limit(self, request: Request) -> int:
        return _whole_number(request, self.limit_query_param, default=self.default_limit,
                             minimum=1, maximum=self.max_limit)

    def get_offset(self, request: Request) -> int:
        return _whole_number(request, self.offset_query_param, default=0, minimum=0,
                             maximum=MAX_ID)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """DRF's `limit` and `offset` parameters with the bounds this class enforces (the
        schema said any integer, so `limit=0` was documented and then refused)."""
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_limit,
                                       "default": self.default_limit}
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 0, "maximum": MAX_ID,
                                       "default": 0}
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's page schema, with `count` null on keyset pages (`?after=`: not counted)."""
        page: dict[str, Any] = super().get_paginated_response_schema(schema)
        page["properties"]["count"]["nullable"] = True
        return page
