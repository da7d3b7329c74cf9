"""Axis ticks of the drawn plots: a few round numbers spanning a range, or powers of ten."""

import math


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About `count` round values (steps of 1, 2 or 5 times a power of ten) from at most
    `low` to at least `high`."""
    if high <= low:
        high = low + 1.0
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.5:
        ticks.append(round(value, 12))
        value += step
    return ticks if ticks[-1] >= high else [*ticks, round(value, 12)]


def log_ticks(low: float, high: float) -> list[float]:
    """The powers of ten from at most `low` to at least `high` (both positive)."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    if last == first:
        last += 1
    return [10.0 ** p for p in range(first, last + 1)]


def tick_text(value: float) -> str:
    """A tick's label: short, without trailing zeros (1e-05 style for tiny or huge values)."""
    if value == 0:
        return "0"
    if abs(value) >= 1e5 or abs(value) < 1e-3:
        return f"{value:.0e}"
    return f"{value:.6g}"
