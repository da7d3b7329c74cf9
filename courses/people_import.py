"""A class from a CSV file: who the file names (found by username, else by e-mail, or given a
new account), their role and group in the course, previewed or applied.

Only a course's instructors enrol people this way. The whole file is validated first and
applied in one transaction, or not at all; problems are reported as ``file:line: reason``
as content problems are. The LMS roster (courses.roster) keeps its own rules; this module
never touches an enrolment's `external_id`.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower

from courses.models import Course, Enrollment
from courses.people import _require_instructor

#: Bounds on one CSV upload (the view refuses a larger file before reading it).
PEOPLE_CSV_MAX_BYTES = 2_000_000
PEOPLE_CSV_MAX_ROWS = 20_000

_ROLES = {"": "", "student": Enrollment.Role.STUDENT, "learner": Enrollment.Role.STUDENT,
          "ta": Enrollment.Role.TA, "teaching assistant": Enrollment.Role.TA,
          "instructor": Enrollment.Role.INSTRUCTOR, "teacher": Enrollment.Role.INSTRUCTOR}
_USERNAME = UnicodeUsernameValidator()


@dataclass(frozen=True)
class MemberChange:
    """One person a CSV upload enrols or changes: their role and group after it, and before
    it for a member (`before_role` "" for a newcomer; `restored`: an ended enrolment)."""

    username: str
    role: str
    group: str
    new_account: bool = False
    before_role: str = ""
    before_group: str = ""
    restored: bool = False

    @property
    def enrols(self) -> bool:
        return not self.before_role

    @property
    def role_label(self) -> str:
        return str(Enrollment.Role(self.role).label)

    @property
    def before_role_label(self) -> str:
        return str(Enrollment.Role(self.before_role).label) if self.before_role else ""


@dataclass
class PeopleImport:
    """What a CSV upload did (or, before `applied`, would do)."""

    created: list[str] = field(default_factory=list)    # usernames of new accounts
    enrolled: list[str] = field(default_factory=list)   # new members of the course
    updated: list[str] = field(default_factory=list)    # role, group or reactivation
    unchanged: int = 0
    problems: list[str] = field(default_factory=list)   # "people.csv:3: reason"
    applied: bool = False
    #: each enrolled or updated person with the role and group the file gives them
    changes: list[MemberChange] = field(default_factory=list)


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
    new_users: list[User] = []
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
    created = set(report.created)
    for row in rows:
        user = found[row.line]
        enrollment = members.get(user.pk)
        if enrollment is None:
            creating.append(Enrollment(course=course, user=user,
                                       role=row.role or Enrollment.Role.STUDENT,
                                       group=row.group or ""))
            report.enrolled.append(user.username)
            report.changes.append(MemberChange(
                username=user.username, role=creating[-1].role, group=creating[-1].group,
                new_account=user.username in created))
            continue
        before = (enrollment.role, enrollment.group, enrollment.is_active)
        enrollment.role = row.role or enrollment.role
        enrollment.group = enrollment.group if row.group is None else row.group
        enrollment.is_active = True
        if (enrollment.role, enrollment.group, enrollment.is_active) != before:
            changing.append(enrollment)
            report.updated.append(user.username)
            report.changes.append(MemberChange(
                username=user.username, role=enrollment.role, group=enrollment.group,
                before_role=before[0], before_group=before[1], restored=not before[2]))
        else:
            report.unchanged += 1
    Enrollment.objects.bulk_create(creating)
    Enrollment.objects.bulk_update(changing, ["role", "group", "is_active"])
