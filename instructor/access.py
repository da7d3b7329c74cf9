"""Who may open a course's dashboard: its instructors and TAs; only instructors set deadlines."""

from dataclasses import dataclass
from typing import cast

from django.contrib.auth.models import AnonymousUser, User

from courses.access import staff_enrollment_get
from courses.models import Course, Enrollment


@dataclass(frozen=True)
class StaffAccess:
    """A staff member's access to one course's dashboard."""

    course: Course
    role: str
    user: User

    @property
    def can_manage_deadlines(self) -> bool:
        """Deadlines and extensions are the instructor's; TAs only see them."""
        return self.role == Enrollment.Role.INSTRUCTOR


def dashboard_access(*, user: User | AnonymousUser, course_slug: str) -> StaffAccess:
    """The user's staff access to the course, in one query.

    Raises Http404 when the user is not an active member of the course (a course that is not
    yours is not shown to exist) and PermissionDenied (403) for the course's own students.
    """
    enrollment = staff_enrollment_get(
        user=user, course_slug=course_slug,
        refusal="The dashboard is for the course's instructors and TAs.")
    return StaffAccess(course=enrollment.course, role=enrollment.role, user=cast(User, user))
