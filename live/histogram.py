"""Bins for a histogram of the room's numeric answers: linear, or logarithmic where the
answers span decades (0.001 and 1000 side by side would otherwise be one bar)."""

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Positive answers whose largest is at least this many times the smallest get log bins.
LOG_SPAN = 100.0
BINS = 10


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int


@dataclass(frozen=True)
class Histogram:
    bins: list[Bin]
    log: bool


def histogram(values: Sequence[float], *, bins: int = BINS) -> Histogram:
    """`values` (finite numbers) counted in `bins` equal bins, equal in log10 when every
    value is positive and they span at least LOG_SPAN; the last bin includes its top."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return Histogram(bins=[], log=False)
    low, high = min(finite), max(finite)
    log = low > 0 and high / low >= LOG_SPAN
    if log:
        low_e, high_e = math.floor(math.log10(low)), math.ceil(math.log10(high))
        high_e = max(high_e, low_e + 1)
        count = min(bins, high_e - low_e) if high_e - low_e <= bins else bins
        step = (high_e - low_e) / count
        edges = [10 ** (low_e + i * step) for i in range(count + 1)]
        positions = [(math.log10(v) - low_e) / step for v in finite]
    else:
        if math.isclose(low, high, rel_tol=1e-12, abs_tol=1e-300):
            return Histogram(bins=[Bin(low, high, len(finite))], log=False)
        count = bins
        step = (high - low) / count
        edges = [low + i * step for i in range(count + 1)]
        positions = [(v - low) / step for v in finite]
    counts = [0] * count
    for position in positions:
        counts[min(count - 1, max(0, int(position)))] += 1
    return Histogram(bins=[Bin(edges[i], edges[i + 1], counts[i]) for i in range(count)], log=log)
