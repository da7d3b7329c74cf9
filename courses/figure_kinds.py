"""The one registry of figure kinds: a content file's `kind` names an entry here.

Each entry says how sync checks the figure's `[data]` (`check`, reporting `Problem`s) and how
the module page draws it (`template`, filled by `context(figure, choice)`). The four generic
kinds draw what the content file holds, so an author adds such a figure without Python.
Kinds drawn by code (Module 5's figures, which take their numbers from a lab's simulation)
are registered by the app that draws them (`figure_kind_register`, from StudentConfig.ready),
since courses never imports the apps above it. Adding a kind is adding one entry.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from courses.figures import arrows, bars, heatmap, line
from courses.figures.checks import Problem

DataCheck = Callable[[dict[str, Any]], list[Problem]]
ContextBuilder = Callable[[Any, Any], dict[str, Any]]


@dataclass(frozen=True)
class FigureKind:
    """How one kind of figure is checked at sync and drawn on the module page.

    `choice` names the module page's query value the drawing depends on ("pair": the two
    words of `?a=&b=`, "row": `?row=`), or is empty for a figure that is always the same.
    """

    label: str
    template: str
    context: ContextBuilder
    check: DataCheck | None = None
    choice: str = ""


FIGURE_KINDS: dict[str, FigureKind] = {
    "heatmap": FigureKind("Heat map of a matrix", "courses/figures/heatmap.html",
                          heatmap.context, heatmap.problems),
    "arrows": FigureKind("Arrows in a plane", "courses/figures/arrows.html",
                         arrows.context, arrows.problems),
    "bars": FigureKind("Bars of a vector", "courses/figures/bars.html",
                       bars.context, bars.problems),
    "line": FigureKind("Line plot of series", "courses/figures/line.html",
                       line.context, line.problems),
}


def figure_kind_register(key: str, kind: FigureKind) -> None:
    """Add (or replace) the kind `key`: for kinds drawn by an app above courses."""
    FIGURE_KINDS[key] = kind


def figure_data_problems(kind: str, data: Any) -> list[Problem]:
    """What is wrong with `data` as the `[data]` of a figure of `kind` (a known kind)."""
    entry = FIGURE_KINDS[kind]
    if entry.check is None:
        return []
    if not isinstance(data, dict):
        return [Problem((), f"a {kind} figure needs a [data] table")]
    return entry.check(data)
