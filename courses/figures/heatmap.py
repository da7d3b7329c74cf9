"""`kind = "heatmap"`: a matrix drawn as shaded cells, each with its value written on it.

[data]: `values` (rows of numbers, all of one length, at most MAX_SIDE x MAX_SIDE), optional
`rows` and `columns` (one label per row / column), `row_title` and `column_title` (what the
rows and columns are), `decimals` (places shown, default 2), `scale` ("sequential": white
to blue from `min` to `max`; "diverging": orange below 0, blue above), `min` and `max` (the
ends of the scale; by default the smallest and largest value).
"""

from typing import Any

from courses.figures.checks import (
    Problem,
    decimals_problems,
    labels_problems,
    number_problem,
    numbers_problems,
    optional_label,
    plural,
    required_problems,
    shown,
    unknown_problems,
)
from courses.figures.colours import shade

#: The most rows and the most columns a heat map has.
MAX_SIDE = 50
SCALES = ("sequential", "diverging")
FIELDS = ("values", "rows", "columns", "row_title", "column_title", "decimals", "scale",
          "min", "max")

_CELL_W, _CELL_H, _CHAR_W, _PAD = 56, 34, 8, 8


def problems(data: dict[str, Any]) -> list[Problem]:
    """Everything wrong with a heat map's `[data]` (an empty list: it can be drawn)."""
    found = [*unknown_problems(data, FIELDS), *required_problems(data, ["values"])]
    values = data.get("values")
    width = None
    if "values" in data:
        if not isinstance(values, list) or not values:
            return [*found, Problem(("values",), "'values' must be a list of rows of numbers")]
        if len(values) > MAX_SIDE:
            found.append(Problem(("values",), f"'values' has {len(values)} rows; a heat map has "
                                              f"at most {MAX_SIDE}"))
        for index, row in enumerate(values):
            found += [Problem(("values",), p.reason) for p in numbers_problems(
                row, ("values",), f"'values' row {index + 1}", low=1, high=MAX_SIDE)]
            if isinstance(row, list):
                if width is None:
                    width = len(row)
                elif len(row) != width:
                    found.append(Problem(("values",), f"'values' row {index + 1} has "
                                                      f"{plural(len(row), 'number')}, row 1 has "
                                                      f"{width}: every row needs the same length"))
    if "rows" in data:
        found += labels_problems(data["rows"], ("rows",), "rows",
                                 len(values) if isinstance(values, list) else None)
    if "columns" in data:
        found += labels_problems(data["columns"], ("columns",), "columns", width)
    found += optional_label(data, "row_title") + optional_label(data, "column_title")
    found += decimals_problems(data)
    scale = data.get("scale", "sequential")
    if scale not in SCALES:
        found.append(Problem(("scale",), f"'scale' must be one of {', '.join(SCALES)}, "
                                         f"not {scale!r}"))
    for name in ("min", "max"):
        if name in data and (problem := number_problem(data[name], f"'{name}'")):
            found.append(Problem((name,), problem))
    low, high = data.get("min"), data.get("max")
    if isinstance(low, int | float) and isinstance(high, int | float) and not low < high:
        found.append(Problem(("max",), f"'max' ({high:g}) must be larger than 'min' ({low:g})"))
    return found


def _ends(data: dict[str, Any], cells: list[float]) -> tuple[float, float]:
    low = float(data.get("min", min(cells)))
    high = float(data.get("max", max(cells)))
    if data.get("scale") == "diverging":
        size = max(abs(low), abs(high)) or 1.0
        return -size, size
    return low, high if high > low else low + 1.0


def _label_width(labels: list[str]) -> int:
    return max((len(label) for label in labels), default=0) * _CHAR_W + 2 * _PAD


def context(figure: Any, _choice: object = None) -> dict[str, Any]:
    """The cells (position, fill, text colour, value shown), labels and a legend of the
    scale for `figure.data` as `problems` accepted it."""
    data = figure.data
    values = [[float(v) for v in row] for row in data["values"]]
    n_rows, n_cols = len(values), len(values[0])
    rows = list(data.get("rows", [])) or [str(i + 1) for i in range(n_rows)]
    columns = list(data.get("columns", [])) or [str(j + 1) for j in range(n_cols)]
    decimals = data.get("decimals", 2)
    low, high = _ends(data, [v for row in values for v in row])
    diverging = data.get("scale") == "diverging"

    def position(value: float) -> float:
        if diverging:
            return value / high
        return (value - low) / (high - low)

    left = _label_width(rows)
    tilt = max(len(c) for c in columns) * _CHAR_W > _CELL_W - 4  # long column labels slant
    top = (min(max(len(c) for c in columns), 20) * _CHAR_W * 0.75 + 2 * _PAD) if tilt else 30
    top = round(top + (22 if data.get("column_title") else 0))
    cells = []
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            fill, ink = shade(position(value))
            x, y = left + j * _CELL_W, top + i * _CELL_H
            cells.append({"x": x, "y": y, "cx": x + _CELL_W // 2, "cy": y + _CELL_H // 2 + 5,
                          "fill": fill, "ink": ink, "shown": shown(value, decimals),
                          "row": rows[i], "column": columns[j]})
    grid_w, grid_h = n_cols * _CELL_W, n_rows * _CELL_H
    legend_y = top + grid_h + 24
    stops = ([(0, shade(-1.0)[0]), (50, "#ffffff"), (100, shade(1.0)[0])] if diverging
             else [(0, "#ffffff"), (100, shade(1.0)[0])])
    return {
        "figure": figure, "cells": cells, "decimals": decimals,
        "rows": [{"label": r, "y": top + i * _CELL_H + _CELL_H // 2 + 5} for i, r in enumerate(rows)],
        "columns": [{"label": c, "x": left + j * _CELL_W + _CELL_W // 2} for j, c in enumerate(columns)],
        "table": [{"label": rows[i], "cells": [shown(v, decimals) for v in row]}
                  for i, row in enumerate(values)],
        "column_labels": columns, "tilt": tilt, "label_x": left - _PAD, "column_y": top - 10,
        "row_title": data.get("row_title", ""), "column_title": data.get("column_title", ""),
        "grid_x": left, "grid_y": top, "grid_w": grid_w, "grid_h": grid_h,
        "title_x": left + grid_w // 2, "title_y": 16,
        "legend": {"x": left, "y": legend_y, "w": min(grid_w, 220), "h": 12, "stops": stops,
                   "text_y": legend_y + 30, "low": shown(low, decimals),
                   "high": shown(high, decimals), "end_x": left + min(grid_w, 220)},
        "width": left + grid_w + _PAD + (40 if tilt else 0), "height": legend_y + 40,
        "n_rows": n_rows, "n_cols": n_cols, "cell_w": _CELL_W, "cell_h": _CELL_H,
        "scale": "diverging" if diverging else "sequential",
    }
