"""Who may do what in live mode: course staff run sessions, the course's students answer."""

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from courses.access import is_course_staff, staff_enrollment_get
from courses.models import Course
from live.models import LiveSession


@dataclass(frozen=True)
class LiveStaff:
    """A staff member (instructor or TA) of one course."""

    course: Course
    user: User
    role: str


def live_staff(*, user: User | AnonymousUser, course_slug: str) -> LiveStaff:
    """The user's staff access to the course (one query): Http404 for a course that is not
    theirs, PermissionDenied for its students."""
    enrollment = staff_enrollment_get(
        user=user, course_slug=course_slug,
        refusal="Live sessions are run by the course's instructors and TAs.")
    return LiveStaff(course=enrollment.course, user=enrollment.user, role=enrollment.role)


def live_session_for_staff(*, staff: LiveStaff, session_id: int) -> LiveSession | None:
    """One of the course's sessions with its part and exercise (None otherwise)."""
    return (LiveSession.objects.select_related("part__exercise", "course", "lab_run")
            .filter(pk=session_id, course=staff.course).first())


def staff_may_watch(*, user: User | AnonymousUser, session_id: int) -> bool:
    """Whether `user` is staff of the session's course (the projector's WebSocket)."""
    return is_course_staff(user=user, course__live_sessions__pk=session_id)
