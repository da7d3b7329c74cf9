"""`kind = "bars"`: a vector drawn as one bar per entry, each with its label and value.

[data]: `values` (1..MAX_BARS numbers), optional `labels` (one per value), `decimals`
(places shown, default 2), `x_label` and `y_label` (what the bars and their heights are).
"""

from typing import Any

from courses.figures.axes import nice_ticks, tick_text
from courses.figures.checks import (
    Problem,
    decimals_problems,
    labels_problems,
    numbers_problems,
    optional_label,
    required_problems,
    shown,
    unknown_problems,
)

MAX_BARS = 50
FIELDS = ("values", "labels", "decimals", "x_label", "y_label")

_BAR, _GAP, _PLOT_H, _LEFT, _TOP, _CHAR_W = 40, 16, 200, 64, 24, 8


def problems(data: dict[str, Any]) -> list[Problem]:
    """Everything wrong with a bar chart's `[data]`."""
    found = [*unknown_problems(data, FIELDS), *required_problems(data, ["values"])]
    values = data.get("values")
    if "values" in data:
        found += numbers_problems(values, ("values",), "'values'", low=1, high=MAX_BARS)
    if "labels" in data:
        found += labels_problems(data["labels"], ("labels",), "labels",
                                 len(values) if isinstance(values, list) else None)
    return [*found, *decimals_problems(data), *optional_label(data, "x_label"),
            *optional_label(data, "y_label")]


def context(figure: Any, _choice: object = None) -> dict[str, Any]:
    """Bars from the zero line (up for positive values, down for negative), y ticks, and
    the rows of the data table."""
    data = figure.data
    values = [float(v) for v in data["values"]]
    labels = list(data.get("labels", [])) or [str(i + 1) for i in range(len(values))]
    decimals = data.get("decimals", 2)
    ticks = nice_ticks(min(0.0, *values), max(0.0, *values))
    low, high = ticks[0], ticks[-1]

    def y(value: float) -> float:
        return round(_TOP + (high - value) / (high - low) * _PLOT_H, 1)

    tilt = max(len(label) for label in labels) * _CHAR_W > _BAR + _GAP
    bottom = _TOP + _PLOT_H
    label_room = round(min(max(len(label) for label in labels), 20) * _CHAR_W * 0.75) + 16 if tilt else 22
    bars = []
    for index, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = _LEFT + _GAP + index * (_BAR + _GAP)
        top, base = sorted((y(value), y(0.0)))
        bars.append({"x": x, "y": top, "w": _BAR, "h": max(round(base - top, 1), 1),
                     "cx": x + _BAR // 2, "label": label, "shown": shown(value, decimals),
                     "value_y": top - 5 if value >= 0 else base + 15,
                     "label_y": bottom + 18})
    width = _LEFT + _GAP + len(values) * (_BAR + _GAP) + (30 if tilt else 0)
    return {
        "figure": figure, "bars": bars, "tilt": tilt, "zero_y": y(0.0),
        "ticks": [{"y": y(t), "text": tick_text(t)} for t in ticks],
        "left": _LEFT, "right": width - (30 if tilt else 0), "top": _TOP, "bottom": bottom,
        "x_label": data.get("x_label", ""), "y_label": data.get("y_label", ""),
        "y_label_y": _TOP + _PLOT_H // 2, "x_label_y": bottom + label_room + 22,
        "x_label_x": (_LEFT + width) // 2,
        "width": width, "height": bottom + label_room + (34 if data.get("x_label") else 8),
    }
