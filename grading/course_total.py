"""The course total of a course of several modules: module scores weighted by module weight.

A module's score is the fraction of its points a student earned (best score per part times
its points, summed over the module's active parts, divided by the module's points). The
course total is the weighted mean of the module scores:

    course % = 100 x sum over modules m of (w_m x earned_m / points_m) / sum of w_m

over the modules that have points and a positive weight (CourseModule.weight). A course of
one module gets earned / points, as before; with equal weights every module counts the same
whatever its number of points (a 4-point module counts as much as a 40-point one).
"""

from collections.abc import Mapping
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


def course_percent(earned: Mapping[int, float], modules: list[ModuleColumn]) -> float | None:
    """The course total in percent from the points `earned` per module id (missing: 0);
    None when no module counts (no points, or every weight 0)."""
    shown = counted(modules)
    weights = sum(m.weight for m in shown)
    if not weights:
        return None
    return 100.0 * sum(m.weight * earned.get(m.module_id, 0.0) / m.points
                       for m in shown) / weights


def explanation(modules: list[ModuleColumn]) -> str:
    """The formula in words with this course's weights, as pages show it."""
    shown = counted(modules)
    if len(shown) <= 1:
        return "course % = points earned / points of the course"
    weights = ", ".join(f"{m.label} \u00d7{m.weight:g}" for m in shown)
    return f"{FORMULA} ({weights})"
