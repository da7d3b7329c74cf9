"""People of a course without the admin: creating a course, invite links with a role, and
changing a member's role or ending their enrolment (a class from a CSV file:
courses.people_import).

Only a course's instructors manage its people (TAs see the list). The LMS roster (courses.roster)
and LTI launches keep their own rules; this module never touches an enrolment's
`external_id`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from courses.models import Course, CourseInvite, CourseModule, Enrollment, Module

_USERNAME = UnicodeUsernameValidator()
#: Short names that are page addresses of their own (/courses/new/).
RESERVED_SLUGS = frozenset({"new"})
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{1,98}[a-z0-9]$")


class PeopleRefused(Exception):
    """A change of a course's people is refused; the message says why, for the page."""


def _require_instructor(course: Course, user: User) -> None:
    if not Enrollment.objects.filter(course=course, user=user, is_active=True,
                                     role=Enrollment.Role.INSTRUCTOR).exists():
        raise PermissionDenied("Only the course's instructors manage its people.")


# --- creating a course ---------------------------------------------------------------------

def may_create_courses(user: User) -> bool:
    """Who may create a course: holders of the `courses.add_course` permission (operators give
    it) and the instructors of any course."""
    return user.is_authenticated and (
        user.has_perm("courses.add_course")
        or Enrollment.objects.filter(user=user, is_active=True,
                                     role=Enrollment.Role.INSTRUCTOR).exists())


@transaction.atomic
def course_create_for(*, by: User, title: str, slug: str, modules: Sequence[Module]) -> Course:
    """A new course `slug` running `modules` in the order given (none: an empty course, whose
    first repository sync brings its modules), with `by` as its first instructor.
    PermissionDenied unless `may_create_courses(by)`; PeopleRefused for a taken or malformed
    slug or an empty title."""
    if not may_create_courses(by):
        raise PermissionDenied("You may not create courses.")
    title, slug = title.strip(), slug.strip().lower()
    if not title or len(title) > 200:
        raise PeopleRefused("Give the course a title (at most 200 characters).")
    if slug in RESERVED_SLUGS:
        raise PeopleRefused(f"'{slug}' is a page of the service; choose another short name.")
    if not _SLUG.match(slug):
        raise PeopleRefused("The short name must be 3 to 100 lower-case letters, digits and "
                            "hyphens, starting and ending with a letter or digit.")
    if Course.objects.filter(slug=slug).exists():
        raise PeopleRefused(f"A course named '{slug}' exists already; choose another short name.")
    course = Course.objects.create(slug=slug, title=title, module=modules[0] if modules else None)
    CourseModule.objects.bulk_create(
        [CourseModule(course=course, module=m, order=i) for i, m in enumerate(modules) if i])
    Enrollment.objects.create(course=course, user=by, role=Enrollment.Role.INSTRUCTOR)
    return course


# --- one member ----------------------------------------------------------------------------

def _member(course: Course, enrollment_id: int) -> Enrollment:
    enrollment = (Enrollment.objects.select_for_update().select_related("user")
                  .filter(course=course, pk=enrollment_id).first())
    if enrollment is None:
        raise PeopleRefused("No such member of this course.")
    return enrollment


def _keeps_an_instructor(course: Course, leaving: Enrollment) -> None:
    others = Enrollment.objects.filter(course=course, role=Enrollment.Role.INSTRUCTOR,
                                       is_active=True).exclude(pk=leaving.pk)
    if leaving.role == Enrollment.Role.INSTRUCTOR and not others.exists():
        raise PeopleRefused("A course keeps at least one instructor: make someone else "
                            "instructor first.")


@transaction.atomic
def enrollment_role_change(*, course: Course, by: User, enrollment_id: int,
                           role: str) -> Enrollment:
    """Give a member of `course` another role (student, ta, instructor). PeopleRefused for an
    unknown role or member, or when it would leave the course without an instructor."""
    _require_instructor(course, by)
    if role not in Enrollment.Role.values:
        raise PeopleRefused(f"Unknown role '{role[:30]}'.")
    enrollment = _member(course, enrollment_id)
    if role != Enrollment.Role.INSTRUCTOR:
        _keeps_an_instructor(course, enrollment)
    enrollment.role = role
    enrollment.save(update_fields=["role"])
    return enrollment


@transaction.atomic
def enrollment_active_change(*, course: Course, by: User, enrollment_id: int,
                             active: bool) -> Enrollment:
    """End (`active` False) or restore a member's enrolment; their work is kept either way.
    PeopleRefused when it would leave the course without an instructor."""
    _require_instructor(course, by)
    enrollment = _member(course, enrollment_id)
    if not active:
        _keeps_an_instructor(course, enrollment)
    enrollment.is_active = active
    enrollment.save(update_fields=["is_active"])
    return enrollment


# --- invite links --------------------------------------------------------------------------

def invite_create(*, course: Course, by: User, role: str, expires_at: datetime | None = None,
                  max_uses: int | None = None) -> CourseInvite:
    """A new invite link for `course` with `role` (student or ta). PeopleRefused for another
    role, a date in the past or a use count below 1."""
    _require_instructor(course, by)
    if role not in CourseInvite.Role.values:
        raise PeopleRefused("An invite link makes students or TAs; add instructors by name.")
    if expires_at is not None and expires_at <= timezone.now():
        raise PeopleRefused("The link's end must be in the future.")
    if max_uses is not None and max_uses < 1:
        raise PeopleRefused("A link must allow at least one use.")
    return CourseInvite.objects.create(course=course, token=secrets.token_urlsafe(24),
                                       role=role, created_by=by, expires_at=expires_at,
                                       max_uses=max_uses)


def invite_revoke(*, course: Course, by: User, invite_id: int) -> None:
    """End an invite link of `course` now (people it enrolled stay)."""
    _require_instructor(course, by)
    CourseInvite.objects.filter(course=course, pk=invite_id, revoked_at__isnull=True).update(
        revoked_at=timezone.now())


def invite_find(*, token: str) -> CourseInvite | None:
    """The invite of `token` with its course, open or not; None for an unknown token."""
    if not token or len(token) > 64:
        return None
    return CourseInvite.objects.select_related("course").filter(token=token).first()


def _claim(token: str) -> CourseInvite:
    invite = (CourseInvite.objects.select_for_update().select_related("course")
              .filter(token=token).first())
    if invite is None or not invite.open_at(timezone.now()):
        raise PeopleRefused("This invite link has ended. Ask your instructor for a new one.")
    return invite


@transaction.atomic
def invite_accept(*, token: str, user: User) -> Enrollment:
    """Enrol `user` with the invite's role. A member keeps a higher role (an instructor who
    opens a student link stays instructor) and opening a link again uses nothing; a member
    whose enrolment was ended is not let back in by a link (PeopleRefused), as a launch from
    the LMS does not."""
    invite = _claim(token)
    enrollment = Enrollment.objects.filter(course=invite.course, user=user).first()
    if enrollment is not None:
        if not enrollment.is_active:
            raise PeopleRefused("Your enrolment in this course was ended; ask its instructor.")
        if enrollment.role == Enrollment.Role.STUDENT and invite.role == Enrollment.Role.TA:
            enrollment.role = Enrollment.Role.TA
            enrollment.save(update_fields=["role"])
        return enrollment
    CourseInvite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    return Enrollment.objects.create(course=invite.course, user=user, role=invite.role)


@transaction.atomic
def invite_sign_up(*, token: str, username: str, email: str, password: str,
                   first_name: str = "", last_name: str = "") -> Enrollment:
    """A new account made through an open invite link, enrolled with its role. PeopleRefused
    with the reason for a taken or invalid username or e-mail, or a weak password (Django's
    password validators)."""
    invite = _claim(token)
    username, email = username.strip(), email.strip().lower()
    try:
        _USERNAME(username)
        validate_email(email)
    except ValidationError:
        raise PeopleRefused("Give a username (letters, digits, @.+-_) and an e-mail "
                            "address.") from None
    if not 0 < len(username) <= 150:
        raise PeopleRefused("A username has 1 to 150 characters.")
    if User.objects.filter(Q(username__iexact=username) | Q(email__iexact=email)).exists():
        raise PeopleRefused("An account with this username or e-mail exists already: sign in "
                            "with it above to join. If your instructor added you and you "
                            "have no password yet, ask them for a password link.")
    user = User(username=username, email=email, first_name=first_name.strip()[:150],
                last_name=last_name.strip()[:150])
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise PeopleRefused(" ".join(exc.messages)) from None
    user.set_password(password)
    user.save()
    CourseInvite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    return Enrollment.objects.create(course=invite.course, user=user, role=invite.role)


# --- the people page -----------------------------------------------------------------------

PEOPLE_PER_PAGE = 100


@dataclass(frozen=True)
class PeoplePage:
    """One page of a course's members (search and role filter applied) and its invites."""

    members: list[Enrollment]
    total: int
    page: int
    pages: int
    invites: list[CourseInvite]
    counts: dict[str, int]  # active members by role


def people_page(*, course: Course, search: str = "", role: str = "",
                page: int = 1) -> PeoplePage:
    """Members of `course` ordered by role then name, PEOPLE_PER_PAGE a page, matching
    `search` (username, name or e-mail) and `role`; with the course's invite links and the
    active members by role. Four queries whatever the size of the class."""
    members = Enrollment.objects.filter(course=course).select_related("user")
    if role in Enrollment.Role.values:
        members = members.filter(role=role)
    if search:
        members = members.filter(Q(user__username__icontains=search)
                                 | Q(user__first_name__icontains=search)
                                 | Q(user__last_name__icontains=search)
                                 | Q(user__email__icontains=search))
    total = members.count()
    pages = max(1, -(-total // PEOPLE_PER_PAGE))
    page = min(max(page, 1), pages)
    start = (page - 1) * PEOPLE_PER_PAGE
    shown = list(members.order_by("-is_active", "role", "user__last_name", "user__username")
                 [start:start + PEOPLE_PER_PAGE])
    counts = dict(Enrollment.objects.filter(course=course, is_active=True)
                  .values_list("role").annotate(n=Count("id")).values_list("role", "n"))
    invites = list(CourseInvite.objects.filter(course=course).select_related("created_by")[:50])
    return PeoplePage(members=shown, total=total, page=page, pages=pages, invites=invites,
                      counts=counts)
