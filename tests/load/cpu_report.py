"""The CPU per request that `bin/load --cpu` recorded (tests/load/cpu_wsgi.py), by route.

Each step's folder (`cpu-step-<users>`, `cpu-baseline`) holds one file per gunicorn worker,
one line per request: `METHOD route<TAB>cpu ms`. This sums them per route: requests, mean
and median CPU, and the route's share of the step's CPU.
"""

import statistics
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RouteCpu:
    route: str
    requests: int
    mean_ms: float
    median_ms: float
    share: float  # of all the CPU the step's requests cost, 0..1


def route_cpu_read(folder: Path) -> list[RouteCpu]:
    """The routes of the requests recorded in `folder`, the costliest in total first (empty
    when nothing was recorded). Lines that are not `route<TAB>number` are skipped."""
    spent: dict[str, list[float]] = defaultdict(list)
    for path in sorted(folder.glob("cpu-*.tsv")):
        for line in path.read_text().splitlines():
            route, _, value = line.rpartition("\t")
            try:
                spent[route].append(float(value))
            except ValueError:
                continue
    total = sum(sum(values) for values in spent.values())
    rows = [RouteCpu(route=route, requests=len(values), mean_ms=statistics.fmean(values),
                     median_ms=statistics.median(values),
                     share=sum(values) / total if total else 0.0)
            for route, values in spent.items() if route]
    return sorted(rows, key=lambda row: -row.share)


def route_cpu_print(title: str, folder: Path) -> None:
    """Print `folder`'s table under `title`; nothing when it recorded nothing."""
    rows = route_cpu_read(folder) if folder.is_dir() else []
    if not rows:
        return
    requests = sum(row.requests for row in rows)
    mean = sum(row.mean_ms * row.requests for row in rows) / requests
    print(f"\n{title}: {requests} requests, {mean:.2f} ms of CPU each on average")
    print(f"  {'route':<70} {'requests':>8} {'mean':>7} {'p50':>7} {'share':>6}  (ms)")
    for row in rows:
        print(f"  {row.route[:70]:<70} {row.requests:>8} {row.mean_ms:>7.2f} "
              f"{row.median_ms:>7.2f} {100 * row.share:>5.1f}%")
