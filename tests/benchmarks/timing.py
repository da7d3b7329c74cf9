"""Latency sampling shared by the grading benchmarks: milliseconds per call, p50 and p99."""

import statistics
import time
from collections.abc import Callable


def timings(call: Callable[[], object], repeats: int) -> list[float]:
    """Milliseconds of `repeats` calls, after one warm-up call (caches warm, as in a worker)."""
    call()
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def p50_p99(samples: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile of `samples`."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
