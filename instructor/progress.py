"""Class progress: the students x parts matrix, filtered, searched, sorted and paginated."""

import html
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from django.db.models import (
    Count,
    F,
    FilteredRelation,
    Func,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce, Concat, Length, Lower, NullIf, Trim
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from core.pagination import KnownCountPaginator
from courses.models import Course, Enrollment
from courses.selectors import course_students
from grading.course_total import ModuleColumn, explanation
from grading.gradebook import (
    ROW_COLUMNS,
    CellState,
    GradebookRow,
    PartCell,
    PartColumn,
    gradebook_columns,
    gradebook_items_fill,
    gradebook_rows,
    gradebook_students,
    module_columns,
)
from grading.gradebook_items import ItemCell, ItemColumn, item_columns
from grading.models import PartProgress

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
    module_points: list[float]  # points earned per module, in ProgressPage.modules' order
    course_percent: float | None  # the weighted course total (grading/course_total.py)
    assessments: list[ItemCell | None] = field(default_factory=list)  # ProgressPage.items'

    @property
    def total_text(self) -> str:
        return points_text(self.total)

    @property
    def module_texts(self) -> list[str]:
        return [points_text(p) for p in self.module_points]

    @property
    def cells_html(self) -> SafeString:
        """The row's part cells as the matrix shows them (state, best points, attempts),
        every value escaped. Built here rather than by a template loop: a page has hundreds
        of cells, and the loop was most of the page's CPU."""
        return mark_safe("".join(  # noqa: S308 - every interpolated value is escaped
            f"{_cell_start(c.state)}{html.escape(c.text)} <small>\u00d7{int(c.attempts)}</small></td>"
            for c in self.cells))


@cache
def _cell_start(state: str) -> str:
    """A matrix cell's opening tag for `state` (a few states, for hundreds of cells)."""
    return f'<td class="st-{html.escape(state)}" title="{html.escape(STATE_LABELS[state])}">'


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
    modules: list[ModuleColumn]
    items: list[ItemColumn] = field(default_factory=list)  # the course's assessments

    @property
    def headers(self) -> list[tuple[str, str]]:
        """The matrix's sortable columns in order, as (sort key, label): SORTS and the parts."""
        return [("name", "Student"), ("group", "Group"),
                *[(f"part-{c.id}", c.label) for c in self.columns],
                ("total", "Total"), ("attempts", "Attempts"), ("last", "Last activity")]

    @property
    def item_headers(self) -> list[ItemColumn]:
        """The assessments' columns (after the parts; not sortable)."""
        return self.items

    @property
    def split_modules(self) -> bool:
        """Whether the matrix shows points per module (more than one module shown)."""
        return len(self.modules) > 1

    @property
    def width(self) -> int:
        """How many columns the matrix has."""
        return (len(self.headers) + 1 + len(self.items)
                + (len(self.modules) if self.split_modules else 0))

    @property
    def module_groups(self) -> list[tuple[ModuleColumn, int]]:
        """The modules over the part columns, with how many columns each spans."""
        spans: dict[int, int] = {}
        for c in self.columns:
            spans[c.module_id] = spans.get(c.module_id, 0) + 1
        return [(m, spans[m.module_id]) for m in self.modules]

    @property
    def explanation(self) -> str:
        return explanation(self.modules, [(i.title, i.weight) for i in self.items])


_EMPTY = PartCell()


def points_text(value: float | None) -> str:
    """Points as shown in the matrix: at most two decimals, no trailing zeros, "\u2013" for none.
    (Cheaper than the floatformat filter, which localises, for hundreds of cells a page.)"""
    if value is None:
        return "\u2013"
    return f"{value:.2f}".rstrip("0").rstrip(".")


class _WithoutTrailingDigits(Func):
    """RTRIM(text, '0123456789'): the text without the number it ends with (SQLite and
    PostgreSQL both have the two-argument form)."""

    function = "RTRIM"
    arity = 2

    def __init__(self, expression: Any) -> None:
        super().__init__(expression, Value("0123456789"))


def _natural(name: str) -> list[Any]:
    """Sort terms that put names ending in a number in numeric order ("Student2" before
    "Student10"): the name without its trailing digits, then the length (a shorter number is
    smaller), then the name itself."""
    return [_WithoutTrailingDigits(F(name)), Length(name), F(name)]


def _order(sort: str, descending: bool) -> list[Any]:
    """ORDER BY terms for `sort` over the course's enrolments (annotated by `_annotated`),
    ties in gradebook order (last name, first name, username) whichever the direction; names
    in natural order (`_natural`)."""
    def way(expression: Any, *, nulls_first: bool = False) -> Any:
        if isinstance(expression, str):
            expression = F(expression)
        if descending:
            return expression.desc(nulls_last=nulls_first or None)
        return expression.asc(nulls_first=nulls_first or None)

    ties = ["user__last_name", "user__first_name", "user__username", "user_id"]
    if sort == "group":
        keys = [way(Lower("group")), *map(way, _natural("sort_name"))]
    elif sort == "total":
        keys = [way("sort_total")]
    elif sort == "attempts":
        keys = [way("sort_attempts")]
    elif sort == "last":
        keys = [way("sort_last", nulls_first=True)]
    elif sort.startswith("part-"):
        keys = [way("sort_part_best"), way("sort_part_attempts")]
    else:
        keys = [*map(way, _natural("sort_name")), *map(way, _natural("user__username"))]
    return [*keys, *ties]


def _annotated(enrollments: QuerySet[Enrollment], course: Course, sort: str,
               part_ids: list[int] | None = None) -> QuerySet[Enrollment]:
    """The enrolments with the sort keys: joined (LEFT) to the student's course totals, and
    for a part sort to their progress on that part; the name as the matrix shows it. With
    `part_ids` (one module shown), "total" sorts by the points earned on those parts."""
    name = Lower(Coalesce(NullIf(Trim(Concat("user__first_name", Value(" "), "user__last_name")),
                                 Value("")), "user__username"))
    total: Any = F("totals__total")
    if part_ids == []:
        total = Value(0.0)
    elif part_ids is not None:
        total = Subquery(
            PartProgress.objects
            .filter(course=course, student_id=OuterRef("user_id"), part_id__in=part_ids)
            .values("student_id")
            .annotate(points=Sum(Coalesce(F("best_score"), Value(0.0)) * F("part__points")))
            .values("points"))
    rows = enrollments.annotate(
        totals=FilteredRelation("user__course_progress",
                                condition=Q(user__course_progress__course=course)),
        sort_name=name,
        sort_total=Coalesce(total, Value(0.0)),
        sort_attempts=Coalesce(F("totals__attempts"), Value(0)),
        sort_last=F("totals__last_activity"),
    )
    if sort.startswith("part-"):
        part_id = int(sort.removeprefix("part-"))
        rows = rows.annotate(
            on_part=FilteredRelation("user__part_progress", condition=Q(
                user__part_progress__course=course, user__part_progress__part_id=part_id)),
            sort_part_best=Coalesce(F("on_part__best_score"), Value(-1.0)),
            sort_part_attempts=Coalesce(F("on_part__attempts"), Value(0)),
        )
    return rows


def valid_sort(sort: str, columns: list[PartColumn]) -> str:
    """`sort` if it names a column of the matrix, else "name"."""
    if sort in SORTS or sort in {f"part-{c.id}" for c in columns}:
        return sort
    return "name"


def _part_totals(course: Course, columns: list[PartColumn],
                 enrollments: QuerySet[Enrollment]) -> list[PartTotal]:
    """Per part over the matching students, one aggregate over their progress rows: how many
    attempted (or were overridden), solved, await review, and the mean best points of those
    graded (a student whose answer awaits a reviewer or a lab has no grade yet: left out of
    the mean rather than counted as 0)."""
    tried = Q(attempts__gt=0) | Q(overridden=True)
    graded = tried & (Q(overridden=True) | Q(pending=0))
    sums = {
        row["part_id"]: row for row in
        PartProgress.objects.filter(course=course, student_id__in=enrollments.values("user_id"),
                                    part_id__in=[c.id for c in columns])
        .values("part_id").annotate(
            attempted=Count("id", filter=tried),
            correct=Count("id", filter=Q(correct=True) & (Q(submissions__gt=0)
                                                         | Q(overridden=True))),
            awaiting=Count("id", filter=Q(awaiting_review__gt=0)),
            graded=Count("id", filter=graded),
            scored=Sum("best_score", filter=graded),
        ).order_by()
    }
    totals = []
    for column in columns:
        row = sums.get(column.id, {})
        graded_count = row.get("graded", 0)
        totals.append(PartTotal(
            column=column, attempted=row.get("attempted", 0), correct=row.get("correct", 0),
            awaiting_review=row.get("awaiting", 0),
            mean_points=(row.get("scored") or 0.0) * column.points / graded_count
            if graded_count else None,
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


def _matrix_row(row: GradebookRow, columns: list[PartColumn], modules: list[ModuleColumn],
                items: list[ItemColumn], now: datetime) -> MatrixRow:
    cells = [matrix_cell(row, column) for column in columns]
    earned = row.module_earned(columns)
    return MatrixRow(student_id=row.student_id, username=row.username, name=row.name,
                     group=row.group, total=row.earned(columns), attempts=row.attempts,
                     last_activity=row.last_activity, cells=cells,
                     module_points=[earned.get(m.module_id, 0.0) for m in modules],
                     course_percent=row.course_percent(columns, items, now),
                     assessments=[row.items.get(i.id) for i in items])


def class_progress(
    *, course: Course, group: str = "", search: str = "", sort: str = "name",
    descending: bool = False, page: int = 1, per_page: int = PER_PAGE,
    module_id: int | None = None,
) -> ProgressPage:
    """One page of the progress matrix, with totals per part over every matching student.

    Students are filtered by `group` and `search` (a substring of the username or name) and
    sorted by `sort` ("name", "group", "total", "attempts", "last" or "part-<id>"; an unknown
    key sorts by name). `page` is clamped to the pages there are. Sorting, paging and the
    totals run in the database over the kept progress rows: six queries, and work that
    grows with the page, not the class (the count and the totals are aggregates).

    `module_id` shows one module's parts (its points are then the totals and the "total"
    sort; attempts and last activity are of that module). Rows carry the points per module
    and the weighted course total over the parts shown.
    """
    columns = gradebook_columns(course=course, module_id=module_id)
    part_ids = None if module_id is None else [c.id for c in columns]
    modules = module_columns(columns)
    sort = valid_sort(sort, columns)
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    enrollments = gradebook_students(course=course, group=group or None, search=search or None)
    ordered = _annotated(enrollments, course, sort, part_ids).order_by(*_order(sort, descending))
    # Counted without the sort's joins.
    shown = KnownCountPaginator(ordered.values_list(*ROW_COLUMNS), per_page,
                                count=enrollments.count()).get_page(page)
    rows = gradebook_rows(course=course, students=list(shown), part_ids=part_ids)
    items = [] if module_id is not None else item_columns(course=course)
    gradebook_items_fill(course=course, rows=rows, items=items)
    now = timezone.now()
    groups = list(
        course_students(course=course).exclude(group="").order_by("group")
        .values_list("group", flat=True).distinct()
    )
    return ProgressPage(
        course=course, columns=columns,
        rows=[_matrix_row(row, columns, modules, items, now) for row in rows],
        part_totals=_part_totals(course, columns, enrollments),
        total_points=sum(c.points for c in columns), students=shown.paginator.count,
        page=shown.number, pages=shown.paginator.num_pages, per_page=per_page, sort=sort,
        descending=descending, group=group, search=search, groups=groups, modules=modules,
        items=items,
    )
