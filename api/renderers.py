"""CSV as a response format of the API (the gradebook)."""

import csv
import io
from collections.abc import Mapping
from typing import Any

from rest_framework import renderers


class CsvRenderer(renderers.BaseRenderer):
    """text/csv; the gradebook views stream their own CSV, this renders errors as CSV lines."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        if isinstance(data, dict):
            writer.writerow(["code", "message"])
            writer.writerow([data.get("code", ""), data.get("message", "")])
        return buffer.getvalue().encode()
