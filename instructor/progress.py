"""Class progress: the students x parts matrix, filtered, searched, sorted and paginated."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.paginator import Paginator

from courses.models import Course
from courses.selectors import course_students
from grading.gradebook import CellState, Gradebook, GradebookRow, PartCell, PartColumn, gradebook

PER_PAGE = 50
MAX_PER_PAGE = 200
#: Sort keys besides "part-<id>".
SORTS = ("name", "group", "total", "attempts", "last")


#: A part the student can no longer answer (every attempt used, or a locked prediction) and
#: did not get right: finished, not "in progress".
CLOSED = "closed"
STATE_LABELS = {**CellState.LABELS, CLOSED: "closed (no attempts left)"}


@dataclass(frozen=True)
class MatrixCell:
    state: str
    best_score: float | None  # fraction of the part's points
    points: float | None  # best score in points
    attempts: int
    overridden: bool

    @property
    def state_label(self) -> str:
        return STATE_LABELS[self.state]

    @property
    def text(self) -> str:
        return points_text(self.points) + ("*" if self.overridden else "")


@dataclass(frozen=True)
class MatrixRow:
    student_id: int
    username: str
    name: str
    group: str
    total: float
    attempts: int
    last_activity: datetime | None
    cells: list[MatrixCell]

    @property
    def total_text(self) -> str:
        return points_text(self.total)


@dataclass(frozen=True)
class PartTotal:
    column: PartColumn
    attempted: int
    correct: int
    awaiting_review: int
    mean_points: float | None  # mean best score in points over students who attempted


@dataclass(frozen=True)
class ProgressPage:
    course: Course
    columns: list[PartColumn]
    rows: list[MatrixRow]
    part_totals: list[PartTotal]
    total_points: float
    students: int  # after filter and search, over all pages
    page: int
    pages: int
    per_page: int
    sort: str
    descending: bool
    group: str
    search: str
    groups: list[str]

    @property
    def headers(self) -> list[tuple[str, str]]:
        """The matrix's sortable columns in order, as (sort key, label): SORTS and the parts."""
        return [("name", "Student"), ("group", "Group"),
                *[(f"part-{c.id}", c.label) for c in self.columns],
                ("total", "Total"), ("attempts", "Attempts"), ("last", "Last activity")]


_EMPTY = PartCell()
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def points_text(value: float | None) -> str:
    """Points as shown in the matrix: at most two decimals, no trailing zeros, "\u2013" for none.
    (Cheaper than the floatformat filter, which localises, for hundreds of cells a page.)"""
    if value is None:
        return "\u2013"
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _sort_key(sort: str, columns: list[PartColumn]) -> Callable[[GradebookRow], Any]:
    if sort == "group":
        return lambda r: (r.group.lower(), r.name.lower())
    if sort == "total":
        return lambda r: r.earned(columns)
    if sort == "attempts":
        return lambda r: r.attempts
    if sort == "last":
        return lambda r: (r.last_activity is not None, r.last_activity or _EPOCH)
    if sort.startswith("part-"):
        part_id = int(sort.removeprefix("part-"))

        def by_part(row: GradebookRow) -> tuple[float, int]:
            cell = row.cells.get(part_id, _EMPTY)
            return (-1.0 if cell.best_score is None else cell.best_score, cell.attempts)

        return by_part
    return lambda r: (r.name.lower(), r.username)


def valid_sort(sort: str, columns: list[PartColumn]) -> str:
    """`sort` if it names a column of the matrix, else "name"."""
    if sort in SORTS or sort in {f"part-{c.id}" for c in columns}:
        return sort
    return "name"


def _part_totals(book: Gradebook) -> list[PartTotal]:
    totals = []
    for column in book.columns:
        cells = [row.cells[column.id] for row in book.rows if column.id in row.cells]
        attempted = [c for c in cells if c.attempts or c.overridden]
        # A student whose answer awaits a reviewer (or a lab) has no grade yet: left out of
        # the mean rather than counted as 0.
        graded = [c for c in attempted if c.overridden or not c.pending]
        scored = [c.best_score * column.points for c in graded if c.best_score is not None]
        totals.append(PartTotal(
            column=column, attempted=len(attempted), correct=sum(1 for c in cells if c.correct),
            awaiting_review=sum(1 for c in cells if c.awaiting_review),
            mean_points=sum(scored) / len(graded) if graded else None,
        ))
    return totals


def matrix_cell(row: GradebookRow, column: PartColumn) -> MatrixCell:
    """How the row's cell in `column` is shown: the gradebook's state, except that a part
    in progress with every attempt used (a locked prediction, say) is closed."""
    cell = row.cells.get(column.id, _EMPTY)
    state = cell.state
    if (state == CellState.IN_PROGRESS and column.max_attempts
            and cell.attempts >= column.max_attempts and not cell.overridden):
        state = CLOSED
    return MatrixCell(
        state=state, best_score=cell.best_score,
        points=None if cell.best_score is None else cell.best_score * column.points,
        attempts=cell.attempts, overridden=cell.overridden,
    )


def _matrix_row(row: GradebookRow, columns: list[PartColumn]) -> MatrixRow:
    cells = [matrix_cell(row, column) for column in columns]
    return MatrixRow(student_id=row.student_id, username=row.username, name=row.name,
                     group=row.group, total=row.earned(columns), attempts=row.attempts,
                     last_activity=row.last_activity, cells=cells)


def class_progress(
    *, course: Course, group: str = "", search: str = "", sort: str = "name",
    descending: bool = False, page: int = 1, per_page: int = PER_PAGE,
) -> ProgressPage:
    """One page of the progress matrix, with totals per part over every matching student.

    Students are filtered by `group` and `search` (a substring of the username or name) and
    sorted by `sort` ("name", "group", "total", "attempts", "last" or "part-<id>"; an unknown
    key sorts by name). `page` is clamped to the pages there are. Five queries whatever the
    size of the class (the gradebook's four and the list of groups).
    """
    book = gradebook(course=course, group=group or None, search=search or None)
    sort = valid_sort(sort, book.columns)
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    ordered = sorted(book.rows, key=_sort_key(sort, book.columns), reverse=descending)
    shown = Paginator(ordered, per_page).get_page(page)
    page, pages, chosen = shown.number, shown.paginator.num_pages, list(shown)
    groups = list(
        course_students(course=course).exclude(group="").order_by("group")
        .values_list("group", flat=True).distinct()
    )
    return ProgressPage(
        course=course, columns=book.columns,
        rows=[_matrix_row(row, book.columns) for row in chosen],
        part_totals=_part_totals(book), total_points=book.total_points, students=len(ordered),
        page=page, pages=pages, per_page=per_page, sort=sort, descending=descending,
        group=group, search=search, groups=groups,
    )
