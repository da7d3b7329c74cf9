"""Choosing the response format: DRF's negotiation, with `?format=` checked as the schema says."""

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request


class FormatNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation, except that `?format=` given empty is refused like an
    unknown format (404 `not_found`); DRF read it as absent and answered JSON, while the
    schema documents `format` as one of the view's formats (json, csv)."""

    def select_renderer(self, request: Request, renderers: Any,
                        format_suffix: str | None = None) -> tuple[Any, str]:
        name = self.settings.URL_FORMAT_OVERRIDE
        if name and name in request.query_params and not request.query_params[name].strip():
            raise NotFound(f"`{name}` names no response format; leave it out, or give one of: "
                           + ", ".join(sorted({r.format for r in renderers})) + ".")
        chosen: tuple[Any, str] = super().select_renderer(request, renderers, format_suffix)
        return chosen
