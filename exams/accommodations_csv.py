"""Accommodations from the People page's CSV file: the optional columns `time_factor` and
`extra_attempts` beside the people columns (`username` and/or `email`). The whole file's
accommodation cells are checked before anything is applied (`file:line: reason`, as the
people import reports); they are applied after the people import has enrolled everyone,
each through `exams.staff.accommodation_set` (instructors only, students only)."""

import csv
import io
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from courses.models import Course, Enrollment
from exams.services import AttemptRefused
from exams.staff import MAX_EXTRA_ATTEMPTS, MAX_TIME_FACTOR, accommodation_set

COLUMNS = ("time_factor", "extra_attempts")


@dataclass(frozen=True)
class AccommodationRow:
    line: int
    username: str
    email: str
    time_factor: float
    extra_attempts: int


@dataclass
class AccommodationImport:
    """The file's accommodation rows, the problems found, and who got one when applied."""

    rows: list[AccommodationRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)  # "username: x1.5, +1 attempts"

    @property
    def present(self) -> bool:
        """Whether the file has accommodation columns at all."""
        return bool(self.rows or self.problems)


def _number(text: str, kind: type, low: float, high: float, name: str) -> tuple[float | None, str]:
    try:
        value = kind(text)
    except ValueError:
        return None, f"{name} '{text[:20]}' is not a {'whole ' if kind is int else ''}number"
    if not low <= value <= high:
        return None, f"{name} must be between {low:g} and {high:g}, not {text[:20]}"
    return value, ""


def accommodations_read(text: str, filename: str) -> AccommodationImport:
    """The accommodation cells of a people CSV (none when it has neither column): a row with
    both cells empty sets nothing; one with a cell set gets the other's default (1, 0)."""
    found = AccommodationImport()
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
    if not any(column in columns for column in COLUMNS):
        return found
    for record in reader:
        def cell(name: str, record: dict[str, str | None] = record) -> str:
            key = columns.get(name)
            return (record.get(key) or "").strip() if key else ""
        factor_text, extra_text = cell("time_factor"), cell("extra_attempts")
        if not factor_text and not extra_text:
            continue
        factor, problem = _number(factor_text or "1", float, 1.0, MAX_TIME_FACTOR, "time_factor")
        extra, other = _number(extra_text or "0", int, 0, MAX_EXTRA_ATTEMPTS, "extra_attempts")
        if problem or other:
            found.problems += [f"{filename}:{reader.line_num}: {p}" for p in (problem, other) if p]
            continue
        found.rows.append(AccommodationRow(reader.line_num, cell("username"),
                                           cell("email").lower(), float(factor or 1),
                                           int(extra or 0)))
    return found


def accommodations_apply(*, course: Course, by: User, found: AccommodationImport,
                         filename: str) -> AccommodationImport:
    """Set each row's accommodation (its person found in the course by username, else by
    e-mail), in one transaction; a row naming no student of the course is a problem and
    nothing is applied. Instructors only (AttemptRefused otherwise)."""
    done = AccommodationImport(rows=found.rows)
    members = {}
    for row in found.rows:
        match = Q(user__username=row.username) if row.username else Q(user__email__iexact=row.email)
        enrollment = Enrollment.objects.filter(match, course=course).select_related("user").first()
        if enrollment is None or enrollment.role != Enrollment.Role.STUDENT:
            done.problems.append(f"{filename}:{row.line}: '{row.username or row.email}' is not "
                                 "a student of this course, so has no accommodation")
        else:
            members[row.line] = enrollment.user
    if done.problems:
        return done
    with transaction.atomic():
        for row in found.rows:
            try:
                accommodation_set(course=course, student=members[row.line], by=by,
                                  time_factor=row.time_factor, extra_attempts=row.extra_attempts)
            except AttemptRefused as exc:
                done.problems.append(f"{filename}:{row.line}: {exc}")
                transaction.set_rollback(True)
                done.applied = []
                return done
            done.applied.append(f"{members[row.line].username}: time x{row.time_factor:g}, "
                                f"+{row.extra_attempts} attempts")
    return done
