"""Course roles: whether a user is staff of a course (an instructor or a TA), decided here
once for the pages, the API, LTI and live mode, which call it."""

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from courses.models import Enrollment
from courses.selectors import member_enrollment

#: The roles that see a course's class, review answers and override grades.
STAFF_ROLES: tuple[str, ...] = (Enrollment.Role.INSTRUCTOR, Enrollment.Role.TA)


def is_staff_role(role: str) -> bool:
    """Whether an enrolment's `role` is a staff role of its course."""
    return role in STAFF_ROLES


def staff_enrollment_get(*, user: User | AnonymousUser, course_slug: str,
                         refusal: str) -> Enrollment:
    """The user's active staff enrolment in the course, with the course (one query):
    Http404 when the user is not an active member (a course not yours is not shown to
    exist), PermissionDenied with `refusal` for the course's students."""
    enrollment = member_enrollment(user=user, course_slug=course_slug)
    if enrollment is None:
        raise Http404("No such course.")
    if not is_staff_role(enrollment.role):
        raise PermissionDenied(refusal)
    return enrollment


def is_course_staff(*, user: User | AnonymousUser, **course: object) -> bool:
    """Whether `user` is active staff of the course named by `course` (Enrollment lookups on
    the course, e.g. ``course=course`` or ``course__live_sessions__pk=id``); one query."""
    if not user.is_authenticated:
        return False
    return Enrollment.objects.filter(user_id=user.pk, is_active=True, role__in=STAFF_ROLES,
                                     **course).exists()


def course_role_among(*, user: User, roles: tuple[str, ...], **course: object) -> str | None:
    """`user`'s role in the course named by `course` if they are an active member in one of
    `roles`, else None; one query."""
    return (Enrollment.objects.filter(user_id=user.pk, is_active=True, role__in=roles, **course)
            .values_list("role", flat=True).first())
