"""Graded items beside the parts in the gradebook: a course's quizzes and exams.

Grading knows nothing of exams (it sits below them): an app above it registers a source of
item columns and cells in its `AppConfig.ready()` (exams/gradebook.py), and the gradebook,
its CSV, the progress matrix and the REST API read them through here. An item's cell holds
the student's score as a fraction (0..1) of their paper and whether the item's release rule
lets the student see it; an item counts in the course total with its weight, beside the
modules (grading/course_total.py):

- a released score counts as it is;
- no score, once the item's window has closed (`closes_at`), counts 0 (nothing was taken);
- an unreleased score, or no score while the window is open, is left out of the total.

So the course total staff see is the one the student sees, and the one the LMS is sent.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from courses.models import Course


@dataclass(frozen=True)
class ItemColumn:
    """One graded item (an assessment) of the course, in its gradebook."""

    id: int
    slug: str
    title: str
    kind: str  # "quiz" or "exam"
    weight: float  # in the course total, beside the modules' weights
    closes_at: datetime | None = None  # after it, no score counts 0


@dataclass(frozen=True, slots=True)
class ItemCell:
    """A student's kept score on an item."""

    score: float | None  # 0..1 of the paper; None: no closed attempt
    released: bool  # the release rule lets the student see it
    attempts: int = 0  # closed attempts
    in_progress: bool = False  # an attempt is open

    @property
    def percent_text(self) -> str:
        """The score as pages show it ("85.0%", "\u2013" for none)."""
        return "\u2013" if self.score is None else f"{100.0 * self.score:.1f}%"


#: A student's cells by item id.
ItemCells = dict[int, ItemCell]


class ItemSource(Protocol):
    def columns(self, *, course: Course, released_at: datetime | None) -> list[ItemColumn]:
        """The course's items (`released_at`: only those a student may see by then)."""
        ...

    def cells(self, *, course: Course, student_ids: list[int] | None,
              columns: list[ItemColumn]) -> dict[int, ItemCells]:
        """The cells of `columns` by student id (`student_ids` None: every student)."""
        ...


_SOURCES: list[ItemSource] = []


def gradebook_items_register(source: ItemSource) -> None:
    """Add `source`'s items to every gradebook (once; an app's ready() may run twice)."""
    if all(type(known) is not type(source) for known in _SOURCES):
        _SOURCES.append(source)


def item_columns(*, course: Course, released_at: datetime | None = None) -> list[ItemColumn]:
    """Every registered source's items of the course, in the sources' order."""
    return [column for source in _SOURCES
            for column in source.columns(course=course, released_at=released_at)]


def item_cells(*, course: Course, student_ids: list[int] | None,
               columns: list[ItemColumn], released_only: bool = False
               ) -> dict[int, ItemCells]:
    """The students' cells of `columns` (no query when there are none); `released_only`
    leaves out the scores a student may not see yet (what a student's own row shows)."""
    if not columns:
        return {}
    found: dict[int, ItemCells] = {}
    for source in _SOURCES:
        for student_id, cells in source.cells(course=course, student_ids=student_ids,
                                              columns=columns).items():
            mine = found.setdefault(student_id, {})
            mine.update({item: cell for item, cell in cells.items()
                         if cell.released or not released_only})
    return found


def item_fraction(column: ItemColumn, cell: ItemCell | None, now: datetime) -> float | None:
    """What the item counts in the course total for a student (the module docstring's rule):
    the released score, 0 for no score after the close, None (left out) otherwise."""
    if cell is not None and cell.score is not None:
        return cell.score if cell.released else None
    if column.closes_at is not None and now >= column.closes_at:
        return 0.0
    return None


def item_weights(columns: Sequence[ItemColumn], cells: ItemCells,
                 now: datetime) -> list[tuple[float, float | None]]:
    """(weight, fraction or None) of each item for one student, for course_percent."""
    return [(c.weight, item_fraction(c, cells.get(c.id), now)) for c in columns]
