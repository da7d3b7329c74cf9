"""`kind = "arrows"`: vectors of a plane drawn as arrows, from the origin or from a point.

[data]: one `[[data.vectors]]` table per arrow (1..MAX_ARROWS) with `to = [x, y]`, optional
`from = [x, y]` (default the origin), `label` and `highlight = true` (drawn thicker, in
orange); optional `x_label` and `y_label` (the axes' names) and `decimals` (places of the
coordinates in the data table, default 2).
"""

import math
from typing import Any

from courses.figures.checks import (
    Problem,
    decimals_problems,
    flag_problems,
    label_problem,
    numbers_problems,
    optional_label,
    required_problems,
    shown,
    tables_problems,
    unknown_problems,
)

MAX_ARROWS = 30
FIELDS = ("vectors", "x_label", "y_label", "decimals")
VECTOR_FIELDS = ("to", "from", "label", "highlight")

#: The plane's longer side in SVG user units, and the margin around it.
_SIDE, _MARGIN = 320, 36


def problems(data: dict[str, Any]) -> list[Problem]:
    """Everything wrong with an arrows figure's `[data]`."""
    found = [*unknown_problems(data, FIELDS), *required_problems(data, ["vectors"])]
    if "vectors" in data:
        shape = tables_problems(data, "vectors", MAX_ARROWS, "an arrows figure")
        if shape is not None:
            found += shape
        else:
            for index, vector in enumerate(data["vectors"]):
                found += _vector_problems(vector, ("vectors", index), index)
    return [*found, *decimals_problems(data), *optional_label(data, "x_label"),
            *optional_label(data, "y_label")]


def _vector_problems(vector: dict[str, Any], keys: tuple[str | int, ...],
                     index: int) -> list[Problem]:
    where = f"vector {index + 1}"
    found = [*unknown_problems(vector, VECTOR_FIELDS, keys),
             *required_problems(vector, ["to"], keys, where)]
    for name in ("to", "from"):
        if name in vector:
            found += numbers_problems(vector[name], (*keys, name), f"{where}'s '{name}'",
                                      low=2, high=2)
    if "label" in vector and (problem := label_problem(vector["label"], f"{where}'s label")):
        found.append(Problem((*keys, "label"), problem))
    return [*found, *[Problem((*keys, p.keys[0]), p.reason)
                      for p in flag_problems(vector, "highlight")]]


def _extent(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs = [0.0, *(p[0] for p in points)]
    ys = [0.0, *(p[1] for p in points)]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    pad = span * 0.12
    return min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad


def context(figure: Any, _choice: object = None) -> dict[str, Any]:
    """Arrows in a plane with equal scales on both axes (so angles and lengths are true),
    the axes through the origin, each arrow's label beyond its tip."""
    data = figure.data
    decimals = data.get("decimals", 2)
    vectors = []
    for index, v in enumerate(data["vectors"]):
        fx, fy = v.get("from", (0, 0))
        tx, ty = v["to"]
        start, end = (float(fx), float(fy)), (float(tx), float(ty))
        vectors.append((v.get("label", f"vector {index + 1}"), start, end,
                        bool(v.get("highlight", False))))
    x0, x1, y0, y1 = _extent([p for _, start, end, _ in vectors for p in (start, end)])
    scale = _SIDE / max(x1 - x0, y1 - y0)

    def point(x: float, y: float) -> tuple[float, float]:
        return round(_MARGIN + (x - x0) * scale, 1), round(_MARGIN + (y1 - y) * scale, 1)

    arrows = []
    for label, start, end, highlight in vectors:
        sx, sy = point(*start)
        ex, ey = point(*end)
        length = math.hypot(ex - sx, ey - sy) or 1.0
        ux, uy = (ex - sx) / length, (ey - sy) / length
        arrows.append({
            "label": label, "x1": sx, "y1": sy, "x2": ex, "y2": ey, "highlight": highlight,
            "lx": round(ex + ux * 14, 1), "ly": round(ey + uy * 14 + 4, 1),
            "anchor": "start" if ux > 0.3 else "end" if ux < -0.3 else "middle",
            "from": f"({shown(start[0], decimals)}, {shown(start[1], decimals)})",
            "to": f"({shown(end[0], decimals)}, {shown(end[1], decimals)})",
            "from_origin": start == (0.0, 0.0),
        })
    ox, oy = point(0.0, 0.0)
    width = round((x1 - x0) * scale + 2 * _MARGIN)
    height = round((y1 - y0) * scale + 2 * _MARGIN)
    return {
        "figure": figure, "arrows": arrows, "origin_x": ox, "origin_y": oy,
        "plane": {"left": _MARGIN, "right": width - _MARGIN, "top": _MARGIN,
                  "bottom": height - _MARGIN},
        "x_label": data.get("x_label", ""), "y_label": data.get("y_label", ""),
        "width": width, "height": height,
    }
