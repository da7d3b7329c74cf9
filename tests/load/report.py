"""`python -m tests.load.report FOLDER`: the load test's figures from Locust's CSV files.

`bin/load` leaves in FOLDER one `step-<users>_stats.csv` (and `step-<users>-errors.json`)
per step of the rush and `baseline_stats.csv` for the bare view. This prints, per step, the
requests per second and the p50/p95/p99 per endpoint with the failures; then the highest rate
whose submit p99 (the worst of the right, wrong and invalid submits) is within the target,
the baseline's rate and the ratio of the two. After `bin/load --exam`, the exam rush's start
and save p50/p99 beside the bare view's (tests/load/exam_report.py). With `bin/load --cpu`,
also the CPU each route cost the web workers per step (tests/load/cpu_report.py). Exits 1
if any request failed.
"""

import argparse
import json
import re
import sys
from pathlib import Path

from tests.load.cpu_report import route_cpu_print
from tests.load.exam_report import exam_print
from tests.load.report_rows import Step, step_print, step_read


def rush_summary_print(steps: list[Step], baseline: Step | None, target_p99_ms: float) -> None:
    """The summary of the steps of a rush: per step, the rate and the submit p99; the highest
    rate within the target, the peak, the baseline and the ratios."""
    for step in steps:
        verdict = "ok" if step.submit_p99 <= target_p99_ms else "over target"
        print(f"  {step.users:>5} users: {step.rate:7.1f} requests/s, submit p99 "
              f"{step.submit_p99:6.0f} ms ({verdict}), {step.failures} failed")
    passing = [s for s in steps if s.submit_p99 <= target_p99_ms and s.failures == 0]
    best = max(passing, key=lambda s: s.rate, default=None)
    if best is None:
        print(f"  no step kept submit p99 <= {target_p99_ms:.0f} ms without failures")
    else:
        print(f"  highest rate with submit p99 <= {target_p99_ms:.0f} ms and no failure: "
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

    failed = exam_print(args.folder, baseline, args.target_p99_ms)  # after bin/load --exam
    if steps:
        print("\nSummary")
        rush_summary_print(steps, baseline, args.target_p99_ms)
    warmup = args.folder / "warmup-errors.json"
    warmup_errors = json.loads(warmup.read_text()) if warmup.exists() else {}
    for name, messages in warmup_errors.items():
        print(f"  FAILED during the warm-up: {name}: {len(messages)} x, e.g. {messages[0]}")
    failed += sum(step.failures for step in steps) + (baseline.failures if baseline else 0) \
        + sum(len(messages) for messages in warmup_errors.values())
    print(f"  failed requests: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
