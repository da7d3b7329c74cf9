"""LTI roles -> the course roles of this service."""

from collections.abc import Iterable

from courses.models import Enrollment

_MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
_INSTRUCTOR_ROLES = {"Instructor", "ContentDeveloper", "Administrator"}


def _context_role(role: str) -> tuple[str, str] | None:
    """(principal, sub-role) of a context role URI or short name, None for system and
    institution roles (they say nothing about this course)."""
    if "/" not in role and "#" not in role:
        return role, ""
    if not role.startswith(_MEMBERSHIP):
        return None
    rest = role[len(_MEMBERSHIP):]
    if rest.startswith("#"):
        return rest[1:], ""
    principal, _, sub = rest.lstrip("/").partition("#")
    return principal, sub


def course_role(roles: Iterable[str]) -> str:
    """The Enrollment role for a launch's roles claim: TeachingAssistant -> ta (it wins over
    the Instructor principal role it comes with); Instructor, ContentDeveloper, Administrator
    -> instructor; Learner and anything unknown -> student."""
    parsed = [p for p in (_context_role(str(role)) for role in roles) if p is not None]
    if any("TeachingAssistant" in (principal, sub) for principal, sub in parsed):
        return Enrollment.Role.TA
    if any(principal in _INSTRUCTOR_ROLES and not sub for principal, sub in parsed):
        return Enrollment.Role.INSTRUCTOR
    return Enrollment.Role.STUDENT
