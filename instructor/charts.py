"""Small SVG charts written by hand (no plotting library: a chart renders in well under a
millisecond), accessible: role="img", a title and a description in words."""

from collections.abc import Sequence
from datetime import date
from html import escape

WIDTH, HEIGHT = 560, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 28, 44


def _frame(title: str, description: str, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>"
        f'<text x="{LEFT}" y="18" class="chart-title">{escape(title)}</text>'
        + "".join(body) + "</svg>"
    )


def whole_ticks(largest: int) -> list[int]:
    """Tick values for an axis of counts: whole numbers from 0, a step of 1, 2 or 5 times a
    power of ten, at most five intervals, the last tick at or above `largest` (at least 1)."""
    largest = max(largest, 1)
    step = 1
    while -(-largest // step) > 4:
        for factor in (2, 5 / 2, 2):  # 1 -> 2 -> 5 -> 10 -> 20 ...
            step = int(step * factor)
            if -(-largest // step) <= 4:
                break
    top = step * -(-largest // step)
    return list(range(0, top + 1, step))


def _axes(y_max: float, y_label: str, ticks: Sequence[float] | None = None) -> list[str]:
    plot_h = HEIGHT - TOP - BOTTOM
    parts = [f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
             f'y2="{HEIGHT - BOTTOM}" class="axis"/>',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" class="axis"/>']
    for value in ticks if ticks is not None else [y_max * k / 4 for k in range(5)]:
        y = HEIGHT - BOTTOM - plot_h * value / y_max
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                     f"{value:.3g}</text>")
    parts.append(f'<text x="12" y="{TOP + plot_h / 2:.1f}" transform="rotate(-90 12 '
                 f'{TOP + plot_h / 2:.1f})" text-anchor="middle" class="label">{escape(y_label)}</text>')
    return parts


def histogram_svg(*, counts: Sequence[int], labels: Sequence[str], title: str,
                  x_label: str, y_label: str = "students") -> str:
    """A bar chart of `counts` (one bar per label), the y axis in whole numbers (a count of
    students is never 0.5)."""
    ticks = whole_ticks(max(counts, default=0))
    y_max = ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bar_w = plot_w / max(len(counts), 1)
    body = _axes(y_max, y_label, ticks)
    for i, (count, label) in enumerate(zip(counts, labels, strict=True)):
        h = plot_h * count / y_max
        x = LEFT + i * bar_w
        body.append(f'<rect x="{x + 2:.1f}" y="{HEIGHT - BOTTOM - h:.1f}" width="{bar_w - 4:.1f}" '
                    f'height="{h:.1f}" class="bar"><title>{escape(label)}: {count}</title></rect>')
        body.append(f'<text x="{x + bar_w / 2:.1f}" y="{HEIGHT - BOTTOM + 14}" '
                    f'text-anchor="middle" class="tick">{escape(label)}</text>')
    body.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
                f'class="label">{escape(x_label)}</text>')
    words = ", ".join(f"{label}: {count}" for label, count in zip(labels, counts, strict=True))
    return _frame(title, f"{x_label} ({y_label}): {words}", body)


def line_svg(*, points: Sequence[tuple[date, float]], title: str, y_label: str,
             y_max: float = 100.0) -> str:
    """A step-free line through (day, value) points, days spaced evenly by date."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    body = _axes(y_max, y_label)
    if not points:
        body.append(f'<text x="{LEFT + plot_w / 2}" y="{TOP + plot_h / 2}" text-anchor="middle" '
                    f'class="label">No activity yet</text>')
        return _frame(title, "No activity yet.", body)
    first, last = points[0][0], points[-1][0]
    span = max((last - first).days, 1)

    def xy(day: date, value: float) -> tuple[float, float]:
        return (LEFT + plot_w * (day - first).days / span,
                HEIGHT - BOTTOM - plot_h * min(value, y_max) / y_max)

    coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(d, v) for d, v in points))
    body.append(f'<polyline points="{coords}" class="line" fill="none"/>')
    for day, value in (points[0], points[-1]):
        x, y = xy(day, value)
        body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" class="dot">'
                    f"<title>{day.isoformat()}: {value:.1f}</title></circle>")
    body.append(f'<text x="{LEFT}" y="{HEIGHT - BOTTOM + 14}" class="tick">{first.isoformat()}</text>')
    body.append(f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - BOTTOM + 14}" text-anchor="end" '
                f'class="tick">{last.isoformat()}</text>')
    description = (f"From {first.isoformat()} ({points[0][1]:.1f}) to {last.isoformat()} "
                   f"({points[-1][1]:.1f}).")
    return _frame(title, description, body)
