"""The gradebook: each student's best score per part of a course, aggregated in SQL.

One query for the students, one for the parts and one for their kept progress rows
(grading/progress.py): the number of queries does not grow with the class, and no
submission is read. Scores are fractions
(0..1) of a part's points; `earned` is in points. An instructor's override replaces the
computed best score of that student and part. Columns carry their module; per-module points
and the weighted course total are grading/course_total.py's.
"""

import csv
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import CharField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Cast
from django.utils import timezone

from core.sql import raw_rows
from courses.models import Course, CourseModule, Enrollment, Part
from courses.selectors import course_students
from grading.course_total import ModuleColumn, course_percent
from grading.gradebook_items import ItemCells, ItemColumn, item_cells, item_columns, item_weights
from grading.models import PartProgress, StudentProgress


class CellState:
    """Where a student stands on a part, as shown in the progress matrix."""

    NOT_STARTED = "not-started"
    IN_PROGRESS = "in-progress"
    CORRECT = "correct"
    REVIEW = "review"

    LABELS = {NOT_STARTED: "not started", IN_PROGRESS: "in progress", CORRECT: "correct",
              REVIEW: "awaiting review"}


@dataclass(frozen=True)
class PartColumn:
    id: int
    exercise_id: int
    exercise_slug: str
    exercise_title: str
    key: str
    points: float
    max_attempts: int = 0  # the exercise's attempts (0: unlimited)
    part_label: str = ""  # Part.label: the part's short label ("" shows the key)
    module_id: int = 0
    module_slug: str = ""
    module_number: str = ""
    module_title: str = ""
    module_weight: float = 1.0  # CourseModule.weight of the module in this course

    @property
    def label(self) -> str:
        """How pages name the column: the exercise's title and the part's label."""
        return f"{self.exercise_title} / {self.part_label or self.key}"

    @property
    def key_label(self) -> str:
        """The column's stable name in CSV headers: the exercise's title and the part's key."""
        return f"{self.exercise_title} / {self.key}"


@dataclass(slots=True)
class PartCell:
    best_score: float | None = None  # fraction of the part's points; None = nothing scored
    attempts: int = 0
    pending: int = 0  # answers awaiting a reviewer or a lab
    correct: bool = False
    last_submitted: str | None = None  # the latest answer's time, ISO text in UTC
    submissions: int = 0  # every answer stored, invalid ones included
    awaiting_review: int = 0  # answers only a person can grade
    overridden: bool = False
    computed_best: float | None = None  # the best score before any override

    @property
    def last_activity(self) -> datetime | None:
        """When the latest answer was stored (converted on use: a class has many cells)."""
        return db_datetime(self.last_submitted)

    @property
    def state(self) -> str:
        """One of CellState's values; an answer awaiting review wins over everything else."""
        if self.awaiting_review:
            return CellState.REVIEW
        if self.correct:
            return CellState.CORRECT
        if self.submissions or self.overridden:
            return CellState.IN_PROGRESS
        return CellState.NOT_STARTED


@dataclass
class GradebookRow:
    student_id: int
    username: str
    name: str
    email: str
    group: str
    external_id: str
    cells: dict[int, PartCell] = field(default_factory=dict)
    items: ItemCells = field(default_factory=dict)  # assessment scores by item id

    def earned(self, columns: list[PartColumn]) -> float:
        """Points earned over `columns` (best score per part times its points)."""
        return sum(
            (self.cells[c.id].best_score or 0.0) * c.points for c in columns if c.id in self.cells
        )

    def module_earned(self, columns: list[PartColumn]) -> dict[int, float]:
        """Points earned per module id over `columns` (every module of the columns present)."""
        earned = dict.fromkeys((c.module_id for c in columns), 0.0)
        for c in columns:
            cell = self.cells.get(c.id)
            if cell is not None:
                earned[c.module_id] += (cell.best_score or 0.0) * c.points
        return earned

    def course_percent(self, columns: list[PartColumn], items: list[ItemColumn] | None = None,
                       now: datetime | None = None) -> float | None:
        """The weighted course total in percent over `columns` and the assessments `items`
        (grading/course_total.py, grading/gradebook_items.py)."""
        return course_percent(self.module_earned(columns), module_columns(columns),
                              item_weights(items or [], self.items, now or timezone.now()))

    @property
    def attempts(self) -> int:
        return sum(c.attempts for c in self.cells.values())

    @property
    def last_activity(self) -> datetime | None:
        # One backend returns values of one type, which compare in time order (ISO text on
        # SQLite), so only the latest is converted.
        times = [c.last_submitted for c in self.cells.values() if c.last_submitted is not None]
        return db_datetime(max(times)) if times else None


@dataclass
class Gradebook:
    course: Course
    columns: list[PartColumn]
    rows: list[GradebookRow]
    items: list[ItemColumn] = field(default_factory=list)  # the course's assessments

    @property
    def total_points(self) -> float:
        return sum(c.points for c in self.columns)

    @property
    def modules(self) -> list[ModuleColumn]:
        return module_columns(self.columns)


def module_columns(columns: list[PartColumn]) -> list[ModuleColumn]:
    """The modules of `columns` in their order, each with its weight and points."""
    points: dict[int, float] = {}
    first: dict[int, PartColumn] = {}
    for c in columns:
        first.setdefault(c.module_id, c)
        points[c.module_id] = points.get(c.module_id, 0.0) + c.points
    return [ModuleColumn(module_id=m, slug=c.module_slug, number=c.module_number,
                         title=c.module_title, weight=c.module_weight, points=points[m])
            for m, c in first.items()]


def gradebook_columns(*, course: Course, module_id: int | None = None,
                      released_at: datetime | None = None) -> list[PartColumn]:
    """The active parts of every module the course runs: the modules in the course's order
    (CourseModule.order), then each module's exercises and parts in their order. One query.

    `module_id` keeps one module of the course (another module's id gives no columns);
    `released_at` only the modules released by then (what a student may see)."""
    links = CourseModule.objects.filter(course_id=course.pk,
                                        module_id=OuterRef("exercise__module_id"))
    modules = (course.module_ids() if released_at is None
               else course.released_module_ids(released_at))
    parts = (
        Part.objects.active()
        .filter(exercise__module_id__in=modules, exercise__archived_at__isnull=True)
        .select_related("exercise__module")
        .annotate(module_place=Subquery(links.values("order")[:1]),
                  module_weight=Subquery(links.values("weight")[:1]))
        .order_by("module_place", "exercise__module_id", "exercise__order", "order")
    )
    if module_id is not None:
        parts = parts.filter(exercise__module_id=module_id)
    return [PartColumn(id=p.pk, exercise_id=p.exercise_id, exercise_slug=p.exercise.slug,
                       exercise_title=p.exercise.title, key=p.key, points=p.points,
                       max_attempts=p.exercise.max_attempts, part_label=p.label,
                       module_id=p.exercise.module_id, module_slug=p.exercise.module.slug,
                       module_number=p.exercise.module.number,
                       module_title=p.exercise.module.title,
                       module_weight=p.module_weight if p.module_weight is not None else 1.0)
            for p in parts]


def gradebook_students(
    *, course: Course, updated_since: datetime | None = None, student: User | None = None,
    group: str | None = None, search: str | None = None,
) -> QuerySet[Enrollment]:
    """The active student enrolments the gradebook shows, filtered as `gradebook` documents,
    ordered by last name, first name, username (no query until used)."""
    enrollments = course_students(course=course).order_by(
        "user__last_name", "user__first_name", "user__username", "user_id")
    if student is not None:
        enrollments = enrollments.filter(user=student)
    if group:
        enrollments = enrollments.filter(group=group)
    for term in (search or "").split()[:5]:  # every word must match a name or the username
        enrollments = enrollments.filter(
            Q(user__username__icontains=term) | Q(user__first_name__icontains=term)
            | Q(user__last_name__icontains=term)
        )
    if updated_since is not None:
        changed = StudentProgress.objects.filter(course=course, changed_at__gte=updated_since)
        enrollments = enrollments.filter(user_id__in=changed.values("student_id"))
    return enrollments


#: Above this many students, the cells are read for the whole course and the students not
#: asked for are dropped here: a long IN list cost more to build and send than the few
#: extra rows (a whole class is most of its course).
IN_LIST_LIMIT = 500

ROW_COLUMNS = ("user_id", "user__username", "user__first_name", "user__last_name",
               "user__email", "group", "external_id")


def gradebook_rows(*, course: Course, students: Iterable[tuple[Any, ...]],
                   part_ids: list[int] | None = None) -> list[GradebookRow]:
    """Gradebook rows, in order, for `students` (tuples of ROW_COLUMNS), their cells read
    from the kept progress rows: one query for the lot. `part_ids` keeps only those parts'
    cells (a filtered gradebook's attempts and last activity are of its columns)."""
    rows = {
        user_id: GradebookRow(
            student_id=user_id, username=username,
            name=f"{first} {last}".strip() or username, email=email,
            group=group_label, external_id=external_id,
        )
        for user_id, username, first, last, email, group_label, external_id in students
    }
    if not rows or part_ids == []:
        return list(rows.values())
    cells = PartProgress.objects.filter(course=course)
    if len(rows) <= IN_LIST_LIMIT:
        cells = cells.filter(student_id__in=list(rows))
    if part_ids is not None:
        cells = cells.filter(part_id__in=part_ids)
    cells = (
        cells.filter(Q(submissions__gt=0) | Q(overridden=True))
        # As text: the cells are many and drivers convert timestamps slowly (about 10 us
        # each with psycopg); ISO text of one time zone sorts in time order.
        .values_list("student_id", "part_id", "best_score", "attempts", "pending",
                     "awaiting_review", "correct", "submissions", "overridden", "computed_best",
                     Cast("last_submitted_at", output_field=CharField()))
        .order_by()
    )
    for (student_id, part_id, best, attempts, pending, review, correct, total, overridden,
         computed, last) in raw_rows(cells):
        row = rows.get(student_id)
        if row is None:  # a student of the course the rows leave out (IN_LIST_LIMIT)
            continue
        row.cells[part_id] = PartCell(
            best_score=best, attempts=attempts, pending=pending, correct=bool(correct),
            last_submitted=last, submissions=total, awaiting_review=review,
            overridden=bool(overridden), computed_best=computed,
        )
    return list(rows.values())


def gradebook(
    *, course: Course, updated_since: datetime | None = None, student: User | None = None,
    group: str | None = None, search: str | None = None, after: int | None = None,
    limit: int | None = None, module_id: int | None = None, released_at: datetime | None = None,
) -> Gradebook:
    """The course's gradebook: active students, their best score and attempts per part.

    `updated_since` keeps only students with a submission graded, or a grade overridden, at
    or after it (for incremental sync); `student`, `group` and `search` (words, each a
    substring of the username, first or last name) narrow the rows. Rows are ordered by
    last name, first name, username. Three queries in all, whatever the size of the class:
    the cells are the kept progress rows (grading/progress.py), not the submissions. The
    course's assessments (grading/gradebook_items.py) come from the content cache (one
    query when it is cold), their kept scores with one query more when there are any; a
    `module_id` gradebook has none, a student's own (`released_at`) only released scores.

    With `limit`, one keyset page instead: at most `limit` students with an id above
    `after` (if given), ordered by id, so pages stay stable while answers come in.
    `module_id` and `released_at` narrow the columns as `gradebook_columns` documents.
    """
    enrollments = gradebook_students(course=course, updated_since=updated_since,
                                     student=student, group=group, search=search)
    if limit is not None:
        if after is not None:
            enrollments = enrollments.filter(user_id__gt=after)
        enrollments = enrollments.order_by("user_id")[:limit]
    columns = gradebook_columns(course=course, module_id=module_id, released_at=released_at)
    rows = gradebook_rows(course=course, students=enrollments.values_list(*ROW_COLUMNS),
                          part_ids=None if module_id is None and released_at is None
                          else [c.id for c in columns])
    items = [] if module_id is not None else item_columns(course=course, released_at=released_at)
    gradebook_items_fill(course=course, rows=rows, items=items,
                         released_only=released_at is not None)
    return Gradebook(course=course, columns=columns, rows=rows, items=items)


def gradebook_items_fill(*, course: Course, rows: list[GradebookRow], items: list[ItemColumn],
                         released_only: bool = False) -> None:
    """Put the students' assessment scores (`items`' cells) on `rows`: one query, none when
    there are no items. `released_only`: only the scores the students may see."""
    if not rows or not items:
        return
    ids = [r.student_id for r in rows] if len(rows) <= IN_LIST_LIMIT else None
    found = item_cells(course=course, student_ids=ids, columns=items,
                       released_only=released_only)
    for row in rows:
        row.items = found.get(row.student_id, {})


def gradebook_iter(*, course: Course, group: str | None = None, batch: int = 1000,
                   updated_since: datetime | None = None) -> Iterator[GradebookRow]:
    """The gradebook's rows one by one, in its order, in constant memory: the students are
    read through a server-side cursor (on PostgreSQL) `batch` at a time, and each batch's
    cells with one query."""
    students = gradebook_students(course=course, group=group, updated_since=updated_since)
    items = item_columns(course=course)
    chunk: list[tuple[Any, ...]] = []
    for student in students.values_list(*ROW_COLUMNS).iterator(chunk_size=batch):
        chunk.append(student)
        if len(chunk) >= batch:
            yield from _with_items(course, gradebook_rows(course=course, students=chunk), items)
            chunk = []
    yield from _with_items(course, gradebook_rows(course=course, students=chunk), items)


def _with_items(course: Course, rows: list[GradebookRow],
                items: list[ItemColumn]) -> list[GradebookRow]:
    gradebook_items_fill(course=course, rows=rows, items=items)
    return rows


def db_datetime(value: datetime | str | None) -> datetime | None:
    """An aware datetime from a database value: a datetime, or ISO text in UTC (SQLite's
    storage, or a timestamp cast to text)."""
    if value is None:
        return None
    if isinstance(value, str):  # "YYYY-MM-DD HH:MM:SS[.ffffff][+00]", UTC
        value = datetime.fromisoformat(value)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def csv_safe(value: str) -> str:
    """A cell a spreadsheet will not run as a formula: `=`, `+`, `-`, `@` (and tab, CR) lead
    to a quote. Numbers we format ourselves are passed through by the callers."""
    if value and value[0] in "=+-@\t\r":
        return "'" + value
    return value


class _Echo:
    """A file-like object whose write returns the line, for csv.writer in a generator."""

    def write(self, value: str) -> str:
        return value


def csv_text(rows: Iterable[list[str]]) -> Iterator[str]:
    """Each row as a line of CSV text."""
    writer = csv.writer(_Echo())
    for row in rows:
        yield writer.writerow(row)


def gradebook_csv_lines(book: Gradebook) -> Iterator[list[str]]:
    """CSV rows of a gradebook (header first), one per student, for streaming.

    Text cells are made safe against spreadsheet formula injection (see `csv_safe`).
    """
    yield from gradebook_csv_rows(book.columns, book.rows, book.items)


def gradebook_csv_rows(columns: list[PartColumn], rows: Iterable[GradebookRow],
                       items: list[ItemColumn] | None = None) -> Iterator[list[str]]:
    """CSV rows (header first) of gradebook `rows` over `columns` and the assessments
    `items`, consumed lazily (so `gradebook_iter` streams in constant memory)."""
    total_points = f"{sum(c.points for c in columns):g}"
    modules = module_columns(columns)
    items = items or []
    now = timezone.now()
    yield [csv_safe(c) for c in csv_header(columns, modules, items)]
    for row in rows:
        scores = []
        for column in columns:
            cell = row.cells.get(column.id)
            scores.append("" if cell is None or cell.best_score is None
                          else f"{cell.best_score * column.points:g}")
        earned = row.module_earned(columns)
        yield [csv_safe(row.username), csv_safe(row.name), csv_safe(row.email),
               csv_safe(row.external_id), csv_safe(row.group), *scores,
               *csv_item_cells(items, row.items),
               *csv_course_total(earned, modules, item_weights(items, row.items, now)),
               f"{row.earned(columns):g}", total_points]


def csv_header(columns: list[PartColumn], modules: list[ModuleColumn],
               items: list[ItemColumn] | None = None) -> list[str]:
    """The gradebook CSV's header: the student, a column per part, two per assessment
    ("<slug> %": the score in percent of the paper, "<slug> released": yes or no), the
    points earned per module ("<module slug> points"), the weighted "course_percent", then
    "total" (points of the parts) and "out_of" (kept last, as before modules had weights).
    A course without assessments has no assessment column."""
    return ["username", "name", "email", "external_id", "group",
            *[c.key_label for c in columns],
            *[name for i in items or [] for name in (f"{i.slug} %", f"{i.slug} released")],
            *[f"{m.slug} points" for m in modules], "course_percent", "total", "out_of"]


def csv_item_cells(items: list[ItemColumn], cells: ItemCells) -> list[str]:
    """A row's two cells per assessment: the score in percent ("" for none), released."""
    out = []
    for item in items:
        cell = cells.get(item.id)
        out += ["" if cell is None or cell.score is None else f"{100.0 * cell.score:.2f}",
                "" if cell is None or cell.score is None else ("yes" if cell.released else "no")]
    return out


def csv_course_total(earned: dict[int, float], modules: list[ModuleColumn],
                     items: list[tuple[float, float | None]] | None = None) -> list[str]:
    """A row's per-module points and weighted course percent (with the assessments' (weight,
    score) `items`), as the CSV prints them."""
    percent = course_percent(earned, modules, items or [])
    return [*[f"{earned.get(m.module_id, 0.0):g}" for m in modules],
            "" if percent is None else f"{percent:.2f}"]
