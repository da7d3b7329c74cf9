"""The exam rush's figures (`bin/load --exam`, issue 40), from the report's folder.

`bin/load --exam` leaves `exam-<users>_stats.csv` (and `exam-<users>-errors.json`) for the
step where every student starts the quiz and autosaves every 10 s, and `baseline_stats.csv`
for the bare view with the same number of users. This prints the start and save p50/p99
beside the bare view's, the ratios of the p99s, and the failures.
"""

from dataclasses import dataclass
from pathlib import Path

from tests.load.endpoints import ENDPOINTS
from tests.load.report_rows import Row, Step, step_print, step_read


@dataclass(frozen=True)
class ExamFigures:
    users: int
    start: Row | None
    save: Row | None
    baseline: Row | None
    failures: int


def exam_step_find(folder: Path) -> tuple[str, int] | None:
    """(prefix, users) of the exam step's CSV in `folder`, or None when the run had none."""
    found = sorted(folder.glob("exam-*_stats.csv"))
    if not found:
        return None
    prefix = found[-1].name.removesuffix("_stats.csv")
    return prefix, int(prefix.removeprefix("exam-"))


def exam_figures(step: Step, baseline: Step | None) -> ExamFigures:
    """The start, save and bare-view rows of an exam run, and its failures (baseline too)."""
    def row(rows: list[Row], key: str) -> Row | None:
        return next((r for r in rows if r.name == ENDPOINTS[key]), None)

    return ExamFigures(
        users=step.users, start=row(step.rows, "exam_start"), save=row(step.rows, "exam_save"),
        baseline=row(baseline.rows, "baseline") if baseline else None,
        failures=step.failures + (baseline.failures if baseline else 0))


def exam_lines(figures: ExamFigures, target_ms: float) -> list[str]:
    """The exam summary, one line each: start, save and bare view p50/p99 (ms), the ratio of
    each p99 to the bare view's, whether start and save p99 are within `target_ms`, the
    failures."""
    lines = [f"  {figures.users} students start the quiz and autosave every 10 s"]
    for label, row in (("start (POST, -> paper)", figures.start), ("save (autosave)", figures.save),
                       ("bare view (one INSERT)", figures.baseline)):
        if row is None:
            lines.append(f"  {label:<24} no requests")
            continue
        ratio = ""
        if row is not figures.baseline and figures.baseline and figures.baseline.p99:
            ratio = f", {row.p99 / figures.baseline.p99:.1f} x the bare view's p99"
        lines.append(f"  {label:<24} {row.requests:>7} requests, p50 {row.p50:6.0f} ms, "
                     f"p99 {row.p99:6.0f} ms{ratio}")
    worst = max((r.p99 for r in (figures.start, figures.save) if r is not None), default=0.0)
    verdict = "within" if worst <= target_ms else "OVER"
    lines.append(f"  start and save p99 {verdict} the target of {target_ms:.0f} ms "
                 f"(worst {worst:.0f} ms)")
    lines.append(f"  failed: {figures.failures} in the exam and the bare view")
    return lines


def exam_print(folder: Path, baseline: Step | None, target_ms: float) -> int:
    """Print the exam summary if the run in `folder` was an exam rush; the failures of its
    exam step (0 when it was not one; the baseline's are counted by the caller)."""
    found = exam_step_find(folder)
    if found is None:
        return 0
    step = step_read(folder, *found)
    step_print(f"Exam rush with {step.users} students", step)
    print("\nExam summary")
    print("\n".join(exam_lines(exam_figures(step, baseline), target_ms)))
    return step.failures
