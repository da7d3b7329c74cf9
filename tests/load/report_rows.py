"""Rows of Locust's `*_stats.csv` files and the runs they make (tests/load/report.py)."""

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from tests.load.endpoints import ENDPOINTS, SUBMIT_ENDPOINTS

SUBMIT_NAMES = {ENDPOINTS[key] for key in SUBMIT_ENDPOINTS}


@dataclass(frozen=True)
class Row:
    kind: str
    name: str
    requests: int
    failures: int
    rate: float
    p50: float
    p95: float
    p99: float


@dataclass(frozen=True)
class Step:
    users: int
    rows: list[Row]
    errors: dict[str, list[str]]

    @property
    def rate(self) -> float:
        """Requests per second served (HTTP requests only, not the lab-run pseudo-requests)."""
        return sum(row.rate for row in self.rows if row.kind != "LAB")

    @property
    def submit_p99(self) -> float:
        """The worst p99 of the submit endpoints, in ms (0 when none was made)."""
        return max((row.p99 for row in self.rows if row.name in SUBMIT_NAMES), default=0.0)

    @property
    def failures(self) -> int:
        return sum(len(messages) for messages in self.errors.values()) or \
            sum(row.failures for row in self.rows)


def _number(text: str) -> float:
    return float(text) if text not in ("", "N/A") else 0.0


def rows_read(path: Path) -> list[Row]:
    """The per-endpoint rows of a Locust `*_stats.csv` (without the aggregate)."""
    with path.open(newline="") as handle:
        return [Row(kind=r["Type"], name=r["Name"], requests=int(r["Request Count"]),
                    failures=int(r["Failure Count"]), rate=_number(r["Requests/s"]),
                    p50=_number(r["50%"]), p95=_number(r["95%"]), p99=_number(r["99%"]))
                for r in csv.DictReader(handle) if r["Name"] != "Aggregated"]


def step_read(folder: Path, prefix: str, users: int) -> Step:
    """One run's rows and the failures its locustfile wrote."""
    errors_file = folder / f"{prefix}-errors.json"
    errors = json.loads(errors_file.read_text()) if errors_file.exists() else {}
    return Step(users=users, rows=rows_read(folder / f"{prefix}_stats.csv"), errors=errors)


def step_print(title: str, step: Step) -> None:
    """The table of one run."""
    print(f"\n{title}: {step.rate:.1f} requests/s, {step.failures} failed")
    print(f"  {'endpoint':<52} {'requests':>8} {'failed':>6} {'req/s':>7} {'p50':>7} {'p95':>7} "
          f"{'p99':>7}  (ms)")
    for row in sorted(step.rows, key=lambda r: r.name):
        print(f"  {row.name[:52]:<52} {row.requests:>8} {row.failures:>6} {row.rate:>7.2f} "
              f"{row.p50:>7.0f} {row.p95:>7.0f} {row.p99:>7.0f}")
    for name, messages in step.errors.items():
        print(f"  FAILED {name}: {len(messages)} x, e.g. {messages[0]}")
