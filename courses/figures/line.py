"""`kind = "line"`: one or more series of numbers plotted against shared x values.

[data]: `x` (2..MAX_POINTS numbers, increasing), one `[[data.series]]` table per line
(1..MAX_SERIES) with `y` (one number per x) and `label`; optional `x_label`, `y_label`,
`log_y = true` (a logarithmic y axis: every y must then be positive) and `decimals` (places
in the data table, default 3).
"""

import math
from itertools import pairwise
from typing import Any

from courses.figures.axes import log_ticks, nice_ticks, tick_text
from courses.figures.checks import (
    Problem,
    decimals_problems,
    flag_problems,
    label_problem,
    numbers_problems,
    optional_label,
    plural,
    required_problems,
    shown,
    tables_problems,
    unknown_problems,
)
from courses.figures.colours import DASHES, MARKERS, SERIES

MAX_POINTS = 500
MAX_SERIES = len(SERIES)
FIELDS = ("x", "series", "x_label", "y_label", "log_y", "decimals")
SERIES_FIELDS = ("y", "label")
#: Series with at most this many points get a marker at each point.
MARKED_POINTS = 40

_W, _H, _LEFT, _TOP, _RIGHT = 440, 240, 64, 16, 16


def problems(data: dict[str, Any]) -> list[Problem]:
    """Everything wrong with a line plot's `[data]`."""
    found = [*unknown_problems(data, FIELDS), *required_problems(data, ["x", "series"]),
             *decimals_problems(data), *flag_problems(data, "log_y"),
             *optional_label(data, "x_label"), *optional_label(data, "y_label")]
    xs = data.get("x")
    count = None
    if "x" in data:
        x_problems = numbers_problems(xs, ("x",), "'x'", low=2, high=MAX_POINTS)
        found += x_problems
        if not x_problems and isinstance(xs, list):
            count = len(xs)
            if any(b <= a for a, b in pairwise(xs)):
                found.append(Problem(("x",), "'x' must increase from each value to the next"))
    if "series" in data:
        shape = tables_problems(data, "series", MAX_SERIES, "a line plot")
        if shape is not None:
            found += shape
        else:
            for index, line in enumerate(data["series"]):
                found += _series_problems(line, index, count, data.get("log_y") is True)
    return found


def _series_problems(line: dict[str, Any], index: int, count: int | None,
                     log_y: bool) -> list[Problem]:
    keys: tuple[str | int, ...] = ("series", index)
    where = f"series {index + 1}"
    found = [*unknown_problems(line, SERIES_FIELDS, keys),
             *required_problems(line, ["y", "label"], keys, where)]
    if "label" in line and (problem := label_problem(line["label"], f"{where}'s label")):
        found.append(Problem((*keys, "label"), problem))
    ys = line.get("y")
    if "y" in line:
        y_problems = numbers_problems(ys, (*keys, "y"), f"{where}'s 'y'", low=1, high=MAX_POINTS)
        found += y_problems
        if y_problems or not isinstance(ys, list):
            return found
        if count is not None and len(ys) != count:
            found.append(Problem((*keys, "y"), f"{where} has {plural(len(ys), 'y value')} "
                                               f"for {plural(count, 'x value')}"))
        if log_y and any(y <= 0 for y in ys):
            found.append(Problem((*keys, "y"), f"{where} has a y value of 0 or below, which "
                                               f"a logarithmic axis (log_y) cannot show"))
    return found


def _marker_path(kind: str, x: float, y: float) -> str:
    if kind == "square":
        return f"M{x - 3.5},{y - 3.5}h7v7h-7z"
    if kind == "diamond":
        return f"M{x},{y - 4.5}l4.5,4.5l-4.5,4.5l-4.5,-4.5z"
    if kind == "triangle":
        return f"M{x},{y - 4.5}l4.5,8h-9z"
    return f"M{x - 3.5},{y}a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0"


def context(figure: Any, _choice: object = None) -> dict[str, Any]:
    """Each series as a polyline with its own colour, dash and markers, the axes with
    ticks (powers of ten on a log y axis), a legend, and the data table's rows."""
    data = figure.data
    xs = [float(x) for x in data["x"]]
    log_y = data.get("log_y", False)
    decimals = data.get("decimals", 3)
    all_y = [float(y) for s in data["series"] for y in s["y"]]
    x_ticks = nice_ticks(xs[0], xs[-1])
    x0, x1 = xs[0], xs[-1]
    if log_y:
        y_ticks = log_ticks(min(all_y), max(all_y))
        y0, y1 = math.log10(y_ticks[0]), math.log10(y_ticks[-1])
    else:
        y_ticks = nice_ticks(min(all_y), max(all_y))
        y0, y1 = y_ticks[0], y_ticks[-1]

    def sx(x: float) -> float:
        return round(_LEFT + (x - x0) / (x1 - x0) * _W, 1)

    def sy(y: float) -> float:
        value = math.log10(y) if log_y else y
        return round(_TOP + (y1 - value) / (y1 - y0) * _H, 1)

    lines = []
    for index, s in enumerate(data["series"]):
        points = [(sx(x), sy(float(y))) for x, y in zip(xs, s["y"], strict=True)]
        marker = MARKERS[index]
        lines.append({
            "label": s["label"], "colour": SERIES[index], "dash": DASHES[index],
            "points": " ".join(f"{x},{y}" for x, y in points),
            "markers": ([_marker_path(marker, x, y) for x, y in points]
                        if len(points) <= MARKED_POINTS else []),
            "key_y": _TOP + _H + 58 + index * 20,
            "key_marker": _marker_path(marker, _LEFT + 16, _TOP + _H + 54 + index * 20),
        })
    bottom = _TOP + _H
    return {
        "figure": figure, "lines": lines, "log_y": log_y,
        "x_ticks": [{"x": sx(t), "text": tick_text(t)} for t in x_ticks if x0 <= t <= x1],
        "y_ticks": [{"y": sy(t), "text": tick_text(t)} for t in y_ticks],
        "left": _LEFT, "right": _LEFT + _W, "top": _TOP, "bottom": bottom,
        "x_label": data.get("x_label", ""), "y_label": data.get("y_label", ""),
        "x_label_x": _LEFT + _W // 2, "x_label_y": bottom + 36, "y_label_y": _TOP + _H // 2,
        "key_x1": _LEFT, "key_x2": _LEFT + 32, "key_text_x": _LEFT + 40,
        "table": [{"x": shown(x, decimals), "ys": [shown(float(s["y"][i]), decimals)
                                                   for s in data["series"]]}
                  for i, x in enumerate(xs)],
        "width": _LEFT + _W + _RIGHT, "height": bottom + 50 + len(lines) * 20,
    }
