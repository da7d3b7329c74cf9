"""The course total of a course of several modules: module scores weighted by module weight.

A module's score is the fraction of its points a student earned (best score per part times
its points, summed over the module's active parts, divided by the module's points). The
course total is the weighted mean of the module scores:

    course % = 100 x sum over modules m of (w_m x earned_m / points_m) / sum of w_m

over the modules that have points and a positive weight (CourseModule.weight). A course of
one module gets earned / points, as before; with equal weights every module counts the same
whatever its number of points (a 4-point module counts as much as a 40-point one).

Graded items beside the modules (a course's quizzes and exams, grading/gradebook_items.py)
join the weighted mean with their own weight and score (a fraction of their paper), when
they count for the student (a released score; 0 once the window closed with no attempt):

    course % = 100 x (sum of w_m x earned_m / points_m + sum of w_a x score_a)
                     / (sum of w_m + sum of w_a over the items that count)
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ModuleColumn:
    """One module of the course in a gradebook: its place, weight and points (of the parts
    shown)."""

    module_id: int
    slug: str
    number: str
    title: str
    weight: float
    points: float

    @property
    def label(self) -> str:
        return f"Module {self.number}" if self.number else self.slug


FORMULA = ("course % = sum over modules of (weight \u00d7 points earned / module points) "
           "\u00f7 sum of weights")


def counted(modules: list[ModuleColumn]) -> list[ModuleColumn]:
    """The modules that count in the course total: with points and a positive weight."""
    return [m for m in modules if m.points > 0 and m.weight > 0]


def course_percent(earned: Mapping[int, float], modules: list[ModuleColumn],
                   items: Sequence[tuple[float, float | None]] = ()) -> float | None:
    """The course total in percent from the points `earned` per module id (missing: 0) and
    the `items` beside the modules, each (weight, score 0..1 or None: not counted); None
    when nothing counts (no points, every weight 0, no item counted)."""
    shown = counted(modules)
    scored = [(w, f) for w, f in items if f is not None and w > 0]
    weights = sum(m.weight for m in shown) + sum(w for w, _ in scored)
    if not weights:
        return None
    return 100.0 * (sum(m.weight * earned.get(m.module_id, 0.0) / m.points for m in shown)
                    + sum(w * f for w, f in scored)) / weights


ITEMS_FORMULA = ("course % = sum over modules and released assessments of (weight \u00d7 "
                 "score) \u00f7 sum of their weights")


def explanation(modules: list[ModuleColumn],
                items: Sequence[tuple[str, float]] = ()) -> str:
    """The formula in words with this course's weights, as pages show it (`items`: the
    assessments beside the modules, as (title, weight))."""
    shown = counted(modules)
    weighted = [(title, w) for title, w in items if w > 0]
    if weighted:
        weights = ", ".join([*(f"{m.label} \u00d7{m.weight:g}" for m in shown),
                             *(f"{title} \u00d7{w:g}" for title, w in weighted)])
        return f"{ITEMS_FORMULA} ({weights}); an assessment counts once its score is " \
               "released, or as 0 after its close without an attempt"
    if len(shown) <= 1:
        return "course % = points earned / points of the course"
    weights = ", ".join(f"{m.label} \u00d7{m.weight:g}" for m in shown)
    return f"{FORMULA} ({weights})"
