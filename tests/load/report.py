"""`python -m tests.load.report FOLDER`: the load test's figures from Locust's CSV files.

`bin/load` leaves in FOLDER one `step-<users>_stats.csv` (and `step-<users>-errors.json`)
per step of the rush and `baseline_stats.csv` for the bare view. This prints, per step, the
requests per second and the p50/p95/p99 per endpoint with the failures; then the highest rate
whose submit p99 (the worst of the right, wrong and invalid submits) is within the target,
the baseline's rate and the ratio of the two. With `bin/load --cpu`, also the CPU each route
cost the web workers per step (tests/load/cpu_report.py). Exits 1 if any request failed.
"""

import argparse
import csv
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.load.cpu_report import route_cpu_print
from tests.load.locustfile import ENDPOINTS, SUBMIT_ENDPOINTS

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


def main(argv: list[str] | None = None) -> int:
    """Print the report; 1 when a request failed, else 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--target-p99-ms", type=float, default=1000.0)
    args = parser.parse_args(argv)
    steps = sorted(
        (step_read(args.folder, path.name.removesuffix("_stats.csv"),
                   int(re.sub(r"\D", "", path.name)))
         for path in args.folder.glob("step-*_stats.csv")),
        key=lambda step: step.users)
    for step in steps:
        step_print(f"Rush with {step.users} users", step)
    baseline = None
    if (args.folder / "baseline_stats.csv").exists():
        baseline = step_read(args.folder, "baseline", 0)
        step_print("Baseline (bare view, one INSERT, no think time)", baseline)

    for step in steps:  # recorded with bin/load --cpu only
        route_cpu_print(f"CPU per request with {step.users} users, by route",
                        args.folder / f"cpu-step-{step.users}")
    route_cpu_print("CPU per request of the bare view", args.folder / "cpu-baseline")

    print("\nSummary")
    for step in steps:
        verdict = "ok" if step.submit_p99 <= args.target_p99_ms else "over target"
        print(f"  {step.users:>5} users: {step.rate:7.1f} requests/s, submit p99 "
              f"{step.submit_p99:6.0f} ms ({verdict}), {step.failures} failed")
    passing = [s for s in steps if s.submit_p99 <= args.target_p99_ms and s.failures == 0]
    best = max(passing, key=lambda s: s.rate, default=None)
    if best is None:
        print(f"  no step kept submit p99 <= {args.target_p99_ms:.0f} ms without failures")
    else:
        print(f"  highest rate with submit p99 <= {args.target_p99_ms:.0f} ms and no failure: "
              f"{best.rate:.1f} requests/s ({best.users} users)")
    peak = max(steps, key=lambda s: s.rate, default=None)
    if peak is not None:
        print(f"  highest rate reached: {peak.rate:.1f} requests/s ({peak.users} users, submit "
              f"p99 {peak.submit_p99:.0f} ms)")
    if baseline is not None:
        print(f"  baseline (bare view): {baseline.rate:.1f} requests/s, p99 "
              f"{max((r.p99 for r in baseline.rows), default=0):.0f} ms")
        if best is not None and baseline.rate:
            print(f"  ratio service / baseline, at the highest rate within the target: "
                  f"{best.rate / baseline.rate:.2f}")
        if peak is not None and baseline.rate:
            print(f"  ratio service / baseline, at the highest rate reached: "
                  f"{peak.rate / baseline.rate:.2f}")
    warmup = args.folder / "warmup-errors.json"
    warmup_errors = json.loads(warmup.read_text()) if warmup.exists() else {}
    for name, messages in warmup_errors.items():
        print(f"  FAILED during the warm-up: {name}: {len(messages)} x, e.g. {messages[0]}")
    failed = sum(step.failures for step in steps) + (baseline.failures if baseline else 0) \
        + sum(len(messages) for messages in warmup_errors.values())
    print(f"  failed requests: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
