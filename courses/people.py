"""People of a course without the admin: creating a course, enrolling a class from a CSV file,
invite links with a role, and changing a member's role or ending their enrolment.

Only a course's instructors manage its people (TAs see the list). Every change of a whole
file is validated first and applied in one transaction, or not at all; problems are
reported as ``file:line: reason`` as content problems are. The LMS roster (courses.roster)
and LTI launches keep their own rules; this module never touches an enrolment's
`external_id`.
"""

from __future__ import annotations

import csv
import io
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count, F, Q
from django.db.models.functions import Lower
from django.utils import timezone

from courses.models import Course, CourseInvite, CourseModule, Enrollment, Module

#: Bounds on one CSV upload (the view refuses a larger file before reading it).
PEOPLE_CSV_MAX_BYTES = 2_000_000
PEOPLE_CSV_MAX_ROWS = 20_000

_ROLES = {"": "", "student": Enrollment.Role.STUDENT, "learner": Enrollment.Role.STUDENT,
          "ta": Enrollment.Role.TA, "teaching assistant": Enrollment.Role.TA,
          "instructor": Enrollment.Role.INSTRUCTOR, "teacher": Enrollment.Role.INSTRUCTOR}
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
    """A new course `slug` running `modules` in the order given, with `by` as its first
    instructor. PermissionDenied unless `may_create_courses(by)`; PeopleRefused for a taken or
    malformed slug, an empty title or no module."""
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
    if not modules:
        raise PeopleRefused("Choose at least one module (the course's repository can change "
                            "them later).")
    if Course.objects.filter(slug=slug).exists():
        raise PeopleRefused(f"A course named '{slug}' exists already; choose another short name.")
    course = Course.objects.create(slug=slug, title=title, module=modules[0])
    CourseModule.objects.bulk_create(
        [CourseModule(course=course, module=m, order=i) for i, m in enumerate(modules) if i])
    Enrollment.objects.create(course=course, user=by, role=Enrollment.Role.INSTRUCTOR)
    return course


# --- a class from a CSV file ---------------------------------------------------------------

@dataclass
class PeopleImport:
    """What a CSV upload did (or, before `applied`, would do)."""

    created: list[str] = field(default_factory=list)    # usernames of new accounts
    enrolled: list[str] = field(default_factory=list)   # new members of the course
    updated: list[str] = field(default_factory=list)    # role, group or reactivation
    unchanged: int = 0
    problems: list[str] = field(default_factory=list)   # "people.csv:3: reason"
    applied: bool = False


@dataclass
class _Row:
    line: int
    username: str
    email: str
    first_name: str
    last_name: str
    role: str
    group: str | None  # None: the column is absent or the cell empty (keep the group)


def _rows(text: str, filename: str, report: PeopleImport) -> list[_Row]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
    if "username" not in columns and "email" not in columns:
        report.problems.append(f"{filename}:1: the header needs a 'username' or an 'email' "
                               "column (and may have first_name, last_name, role, group)")
        return []
    rows: list[_Row] = []
    seen: dict[str, int] = {}
    for record in reader:
        line = reader.line_num
        if len(rows) >= PEOPLE_CSV_MAX_ROWS:
            report.problems.append(f"{filename}:{line}: more than {PEOPLE_CSV_MAX_ROWS} people "
                                   "in one file; split it")
            break

        def cell(name: str, record: dict[str, str | None] = record) -> str:
            key = columns.get(name)
            return (record.get(key) or "").strip() if key else ""

        row = _Row(line, cell("username"), cell("email").lower(), cell("first_name"),
                   cell("last_name"), cell("role").lower(), cell("group") or None)
        problem = _row_problem(row)
        identity = row.username or row.email
        if problem is None and identity in seen:
            problem = f"'{identity}' is also on line {seen[identity]}"
        if problem is not None:
            report.problems.append(f"{filename}:{line}: {problem}")
            continue
        seen[identity] = line
        row.role = _ROLES[row.role]
        rows.append(row)
    return rows


def _row_problem(row: _Row) -> str | None:
    if not row.username and not row.email:
        return "give a username or an e-mail address"
    if row.username:
        try:
            _USERNAME(row.username)
        except ValidationError:
            return f"'{row.username[:40]}' is not a valid username (letters, digits, @.+-_)"
        if len(row.username) > 150:
            return "the username is longer than 150 characters"
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            return f"'{row.email[:60]}' is not an e-mail address"
    if row.role not in _ROLES:
        return f"unknown role '{row.role[:30]}' (student, ta or instructor)"
    if len(row.first_name) > 150 or len(row.last_name) > 150:
        return "a name is longer than 150 characters"
    if row.group is not None and len(row.group) > 50:
        return "the group is longer than 50 characters"
    return None


def _username_base(email: str) -> str:
    """The start of a username made from an e-mail address: its local part, cleaned."""
    return re.sub(r"[^\w.@+-]", "", email.split("@")[0])[:140] or "user"


def _usernames_like(bases: list[str]) -> set[str]:
    """The existing usernames (lower case) that start with one of `bases`, case ignored: the
    names `_free_username` must not give again (500 bases a query)."""
    taken: set[str] = set()
    unique = sorted({b.lower() for b in bases})
    for start in range(0, len(unique), 500):
        match = Q()
        for base in unique[start:start + 500]:
            match |= Q(username__istartswith=base)
        taken |= {u.lower() for u in User.objects.filter(match).values_list("username",
                                                                             flat=True)}
    return taken


def _free_username(base: str, taken: set[str]) -> str:
    name, n = base, 1
    while name.lower() in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name.lower())
    return name


def people_import(*, course: Course, by: User, text: str, apply: bool,
                  filename: str = "people.csv") -> PeopleImport:
    """Enrol the people of a CSV file (header: `username` and/or `email`, optional
    `first_name`, `last_name`, `role` (student, ta, instructor; empty: student for new
    members, unchanged for others) and `group` (empty: unchanged)).

    A person is found by username, else by e-mail; one found nowhere gets a new account with
    no password (they sign in through the LMS, or set one up through an invite link). A
    member's role and group are set as the file says and an ended enrolment is reactivated.
    With `apply` False nothing is stored. Any problem in the file applies nothing.
    PermissionDenied unless `by` is an instructor of `course`.
    """
    _require_instructor(course, by)
    report = PeopleImport()
    rows = _rows(text, filename, report)
    if report.problems:
        return report
    by_name = {u.username: u for u in User.objects.filter(
        username__in=[r.username for r in rows if r.username])}
    emails = [r.email for r in rows if r.email]
    by_email: dict[str, list[User]] = {}
    for owner in (User.objects.annotate(lower_email=Lower("email"))
                  .filter(lower_email__in=emails) if emails else []):
        by_email.setdefault(owner.email.lower(), []).append(owner)
    found: dict[int, User] = {}
    for row in rows:
        user = by_name.get(row.username) if row.username else None
        if user is None and not row.username:
            matches = by_email.get(row.email, [])
            if len(matches) > 1:
                report.problems.append(f"{filename}:{row.line}: several accounts have the "
                                       f"e-mail '{row.email}'; give a username")
                continue
            user = matches[0] if matches else None
        if user is None and row.username and row.email and by_email.get(row.email):
            holder = by_email[row.email][0].username
            report.problems.append(f"{filename}:{row.line}: the e-mail '{row.email}' belongs "
                                   f"to the account '{holder}'; use that username")
            continue
        if user is not None:
            if user.pk == by.pk and row.role not in ("", Enrollment.Role.INSTRUCTOR):
                report.problems.append(f"{filename}:{row.line}: you cannot change your own "
                                       "role")
                continue
            found[row.line] = user
    if report.problems:
        return report
    with transaction.atomic():
        _apply_rows(course, rows, found, report)
        report.applied = apply
        if not apply:
            transaction.set_rollback(True)
    return report


def _apply_rows(course: Course, rows: list[_Row], found: dict[int, User],
                report: PeopleImport) -> None:
    taken = _usernames_like([_username_base(r.email) for r in rows
                             if r.line not in found and not r.username])
    taken |= {u.username.lower() for u in found.values()}
    taken |= {r.username.lower() for r in rows if r.username}
    new_users = []
    for row in rows:
        if row.line in found:
            continue
        username = row.username or _free_username(_username_base(row.email), taken)
        user = User(username=username, email=row.email, first_name=row.first_name,
                    last_name=row.last_name)
        user.set_unusable_password()
        new_users.append(user)
        found[row.line] = user
        report.created.append(username)
    User.objects.bulk_create(new_users)  # sets their ids (RETURNING) on PostgreSQL and SQLite
    members = {e.user_id: e for e in Enrollment.objects.filter(
        course=course, user_id__in=[u.pk for u in found.values()])}
    creating, changing = [], []
    for row in rows:
        user = found[row.line]
        enrollment = members.get(user.pk)
        if enrollment is None:
            creating.append(Enrollment(course=course, user=user,
                                       role=row.role or Enrollment.Role.STUDENT,
                                       group=row.group or ""))
            report.enrolled.append(user.username)
            continue
        before = (enrollment.role, enrollment.group, enrollment.is_active)
        enrollment.role = row.role or enrollment.role
        enrollment.group = enrollment.group if row.group is None else row.group
        enrollment.is_active = True
        if (enrollment.role, enrollment.group, enrollment.is_active) != before:
            changing.append(enrollment)
            report.updated.append(user.username)
        else:
            report.unchanged += 1
    Enrollment.objects.bulk_create(creating)
    Enrollment.objects.bulk_update(changing, ["role", "group", "is_active"])


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
                            "with it, then open the link again.")
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
