"""Who is asking, and what they may do in a course: the one place API permissions are decided."""

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone
from rest_framework.request import Request

from api.errors import ApiError
from api.models import ApiKey
from courses.access import is_staff_role
from courses.models import Course, CourseModule, Enrollment


class Level(IntEnum):
    """What an endpoint requires, from least to most."""

    MEMBER = 1  # any active member of the course or a key of it
    STAFF = 2  # sees everyone's work and full specs: instructor, TA, any key of the course
    MANAGER = 3  # roster and webhooks: instructor, or a key (a read-only key only reads)
    INSTRUCTOR = 4  # API keys: an instructor in person, never a key


@dataclass(frozen=True)
class Principal:
    """The authenticated party: a user (session) or a course API key."""

    user: User | None
    api_key: ApiKey | None

    @property
    def ident(self) -> str:
        """A stable name for idempotency records and throttles: 'user:<id>' or 'key:<id>'."""
        if self.api_key is not None:
            return f"key:{self.api_key.pk}"
        assert self.user is not None  # noqa: S101 (an authenticated request has one or the other)
        return f"user:{self.user.pk}"


@dataclass(frozen=True)
class CourseAccess:
    course: Course
    principal: Principal
    role: str  # an Enrollment.Role value, or an ApiKey.Role value for keys

    @property
    def user(self) -> User | None:
        return self.principal.user

    @property
    def level(self) -> Level:
        if self.principal.api_key is not None:
            return Level.MANAGER
        if not is_staff_role(self.role):
            return Level.MEMBER
        return Level.INSTRUCTOR if self.role == Enrollment.Role.INSTRUCTOR else Level.STAFF

    @property
    def is_staff(self) -> bool:
        return self.level >= Level.STAFF

    def may_act_for_others(self) -> bool:
        """Whether it may submit or run labs on a student's behalf (instructor or LMS key)."""
        return self.level >= Level.MANAGER


def principal_of(request: Request) -> Principal:
    """The request's principal; the permission classes guarantee there is one."""
    if isinstance(request.auth, ApiKey):
        return Principal(user=None, api_key=request.auth)
    user = request.user
    return Principal(user=user if isinstance(user, User) else None, api_key=None)


def course_access(request: Request, course_slug: str, *, need: Level = Level.MEMBER) -> CourseAccess:
    """The caller's access to the course, or an error in the API's shape.

    A course the caller does not belong to (or a key of another course) is a 404, never a
    403, so course slugs cannot be probed; a member without the level needed gets a 403.
    """
    principal = principal_of(request)
    if principal.api_key is not None:
        if principal.api_key.course.slug != course_slug:
            raise ApiError(404, "not_found", "No such course.")
        access = CourseAccess(course=principal.api_key.course, principal=principal,
                              role=principal.api_key.role)
    else:
        enrollment = (
            Enrollment.objects.select_related("course__module")
            .filter(user=principal.user, course__slug=course_slug, is_active=True).first()
            if principal.user is not None else None
        )
        if enrollment is None:
            raise ApiError(404, "not_found", "No such course.")
        access = CourseAccess(course=enrollment.course, principal=principal, role=enrollment.role)
    if access.level < need:
        raise ApiError(403, "permission_denied", _REFUSALS[need])
    return access


# What `student` means for each kind of caller, for the schema (OpenAPI cannot say "required
# for some callers"): its descriptions are these.
STUDENT_ACTING = (
    "Whose work this is. Required for staff and the LMS key: without it the answer is a 400 "
    "`invalid` naming `student`; an id not enrolled in the course is a 404; a TA may give only "
    "their own id (403). A student may leave it out (their own work) or give their own id; "
    "another id is a 403.")
STUDENT_FILTER = (
    "Staff and API keys: only this student's (every student's without it; an id not enrolled "
    "is a 404). A student sees only their own: leave it out or give their own id (another id "
    "is a 403).")
STUDENT_VARIANT = (
    "Staff and API keys: show this student's variant (prompt and parameter values); without "
    "it, the default numbers. An id not enrolled is a 404. A student always sees their own "
    "variant: leave it out or give their own id (another id is a 403).")


def _student_of_course(access: CourseAccess, student_id: int) -> User:
    """A student enrolled (actively or not) in the course, or 404."""
    enrollment = (Enrollment.objects.select_related("user")
                  .filter(course=access.course, user_id=student_id).first())
    if enrollment is None:
        raise ApiError(404, "not_found", "No such student in this course.")
    return enrollment.user


def acting_for(access: CourseAccess, student_id: int | None, *, doing: str) -> User:
    """`acting_student` for a request that changes a student's work: a TA acts only for
    themself; instructors and LMS keys for any student. `doing` names it in the refusal."""
    student = acting_student(access, student_id)
    if access.user is not None and student.pk != access.user.pk and not access.may_act_for_others():
        raise ApiError(403, "permission_denied", f"Only instructors or an LMS key may {doing} "
                                                 "for others.")
    return student


def acting_student(access: CourseAccess, student_id: int | None) -> User:
    """Whose work a request is about: the caller (a student), or `student_id` for staff."""
    if access.user is not None and not access.is_staff:
        if student_id is not None and student_id != access.user.pk:
            raise ApiError(403, "permission_denied", "You can only act on your own work.")
        return access.user
    if student_id is None:
        raise ApiError(400, "invalid", "Say which student: `student` is required for staff and keys.",
                       {"student": ["This field is required."]})
    return _student_of_course(access, student_id)


_REFUSALS = {
    Level.MEMBER: "You may not do this.",
    Level.STAFF: "Only the course's staff may see this.",
    Level.MANAGER: "Only the course's instructors or its LMS key may do this.",
    Level.INSTRUCTOR: "Only an instructor of the course, logged in, may do this.",
}


def visible_module_ids(access: CourseAccess) -> QuerySet[CourseModule, Any]:
    """The modules of the course the caller may read, as a subquery: every module for staff
    and keys, the released ones (CourseModule.release_at passed) for a student."""
    if access.is_staff:
        return access.course.module_ids()
    return access.course.released_module_ids(timezone.now())
