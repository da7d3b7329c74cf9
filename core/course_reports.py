"""Read-only reports about a course that an interface app provides for another to serve.

Interface apps do not import each other (the layers contract): an app that knows something
about a course (lti: the LMS sync health) registers a provider under a name here, and the
REST API serves whatever is registered, scoped like its other course endpoints.
"""

from collections.abc import Callable
from typing import Any

#: (course, query parameters) -> JSON-ready data.
ReportProvider = Callable[..., dict[str, Any]]
_PROVIDERS: dict[str, ReportProvider] = {}


def course_report_register(name: str, provider: ReportProvider) -> None:
    """Serve `provider(course=..., params=...)` as the course report `name` (replaces)."""
    _PROVIDERS[name] = provider


def course_report_provider(name: str) -> ReportProvider | None:
    """The provider registered as `name`, or None."""
    return _PROVIDERS.get(name)
