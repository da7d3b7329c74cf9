"""The API's JSON parser: DRF's, with a bound on nesting depth and no NUL characters, so a
body nested 100,000 deep (which makes Python's JSON reader raise RecursionError) or a string
PostgreSQL cannot store is a 400 with a message, never a 500."""

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: Deeper than any request body of this API needs (the deepest, a roster, is 3).
MAX_DEPTH = 32


def json_problem(data: object, *, max_depth: int = MAX_DEPTH) -> str | None:
    """Why `data` (parsed JSON) is refused (too deep, or a NUL character in a key or string),
    or None. Walks the value without recursion."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return "The JSON body contains a NUL character (\\u0000); no field accepts one."
        elif isinstance(value, Mapping | list):
            if depth > max_depth:
                return f"The JSON body is nested more than {max_depth} levels deep."
            items = list(value.items()) if isinstance(value, Mapping) else [(None, v) for v in value]
            for key, item in items:
                if isinstance(key, str) and "\x00" in key:
                    return "The JSON body contains a NUL character (\\u0000); no field accepts one."
                stack.append((item, depth + 1))
    return None


class BoundedJSONParser(JSONParser):
    """JSONParser whose result is checked by json_problem() (ParseError, a 400, if refused)."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise ParseError(f"The JSON body is nested more than {MAX_DEPTH} levels deep.") from error
        problem = json_problem(data)
        if problem is not None:
            raise ParseError(problem)
        return data
