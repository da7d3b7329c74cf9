"""Colours of the drawn figures: a heat map's cell shades and the series' colours.

Every colour is an SVG presentation attribute (`fill="#..."`), not a style attribute, so the
Content-Security-Policy needs no 'unsafe-inline'. A cell's number is written on it in dark or
white text; shades on which neither reaches a contrast of 4.5 are moved to the nearer shade
on which one does (so a shade never decides alone what a reader can read).
"""

from collections.abc import Callable
from functools import cache

WHITE = (255, 255, 255)
#: site.css's --accent (positive values) and the orange of Module 5's figures (negative ones).
BLUE = (11, 92, 173)
ORANGE = (188, 76, 0)
DARK_TEXT = "#1b1f24"
LIGHT_TEXT = "#ffffff"
#: Series of a line plot and highlighted arrows: colours that stay apart for most colour
#: vision; every series also has its own dash and marker, so colour is never the only cue.
SERIES = ("#0b5cad", "#bc4c00", "#1a7f37", "#8250df", "#57606a", "#9a6700", "#cf222e", "#0a7a8a")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "12 4", "1 2", "4 4", "10 2 2 2")
MARKERS = ("circle", "square", "diamond", "triangle", "circle", "square", "diamond", "triangle")

_DARK_LUMINANCE = 0.0137  # of DARK_TEXT
_MIN_CONTRAST = 4.5


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance(rgb: tuple[float, float, float]) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _mix(end: tuple[int, int, int], t: float) -> tuple[float, float, float]:
    r, g, b = (w + (e - w) * t for w, e in zip(WHITE, end, strict=True))
    return (r, g, b)


def _dark_contrast(luminance: float) -> float:
    return (luminance + 0.05) / (_DARK_LUMINANCE + 0.05)


def _light_contrast(luminance: float) -> float:
    return 1.05 / (luminance + 0.05)


def _boundary(end: tuple[int, int, int], holds_below: bool,
              contrast: Callable[[float], float]) -> float:
    """The shade t where `contrast` crosses 4.5 (bisection: luminance falls as t grows)."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if (contrast(_luminance(_mix(end, mid))) >= _MIN_CONTRAST) == holds_below:
            lo = mid
        else:
            hi = mid
    return lo if holds_below else hi


@cache
def _gap(end: tuple[int, int, int]) -> tuple[float, float]:
    """The shades t in (low, high) between white and `end` on which neither dark nor white
    text is readable: low is the last shade for dark text, high the first for white."""
    # A margin of 0.01 on each side: the hex colour is rounded.
    return (_boundary(end, True, _dark_contrast) - 0.01,
            _boundary(end, False, _light_contrast) + 0.01)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in rgb)


def shade(t: float) -> tuple[str, str]:
    """The fill and text colour of a cell at `t` in [-1, 1]: 0 is white, 1 the accent blue,
    -1 orange (a diverging scale uses both signs, a sequential one 0..1)."""
    t = max(-1.0, min(1.0, t))
    end = BLUE if t >= 0 else ORANGE
    size = abs(t)
    low, high = _gap(end)
    if low < size < high:  # (size on `low` or `high` themselves is readable)
        size = low if size - low < high - size else high
    rgb = _mix(end, size)
    dark = _dark_contrast(_luminance(rgb)) >= _MIN_CONTRAST
    return _hex(rgb), DARK_TEXT if dark else LIGHT_TEXT
