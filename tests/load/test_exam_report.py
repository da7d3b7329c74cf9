"""The exam rush's report (`bin/load --exam`): start and save p50/p99 beside the bare view's,
the ratios of the p99s, the failures, and the exit status of the whole report."""

import json
from pathlib import Path

from tests.load import report
from tests.load.endpoints import ENDPOINTS
from tests.load.exam_report import exam_figures, exam_lines, exam_step_find
from tests.load.report_rows import step_read

HEADER = ("Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,"
          "Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,"
          "50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%\n")


def _csv(path: Path, rows: list[tuple[str, str, int, int, float, float]]) -> None:
    """A Locust stats file: (type, endpoint key, requests, failures, p50, p99) per row."""
    lines = [f'{kind},"{ENDPOINTS[key]}",{n},{failed},{p50},0,0,0,0,1.5,0,{p50},0,0,0,0,'
             f"{p99},0,{p99},0,0,0\n" for kind, key, n, failed, p50, p99 in rows]
    path.write_text(HEADER + "".join(lines) + "None,Aggregated,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
                    "0,0,0,0\n")


def _exam_run(folder: Path, *, save_failures: int = 0) -> None:
    _csv(folder / "exam-50_stats.csv", [("GET", "exam_page", 50, 0, 40, 300),
                                        ("POST", "exam_start", 50, 0, 120, 800),
                                        ("POST", "exam_save", 300, save_failures, 30, 400)])
    _csv(folder / "baseline_stats.csv", [("POST", "baseline", 9000, 0, 10, 200)])
    if save_failures:
        (folder / "exam-50-errors.json").write_text(json.dumps(
            {ENDPOINTS["exam_save"]: ["status 500"] * save_failures}))


def test_the_exam_step_is_found_with_its_number_of_users(tmp_path: Path):
    assert exam_step_find(tmp_path) is None
    _exam_run(tmp_path)
    assert exam_step_find(tmp_path) == ("exam-50", 50)


def test_start_and_save_are_printed_beside_the_bare_view_with_the_ratios(tmp_path: Path):
    _exam_run(tmp_path)
    figures = exam_figures(step_read(tmp_path, "exam-50", 50), step_read(tmp_path, "baseline", 0))

    lines = exam_lines(figures, target_ms=1000)

    assert figures.start is not None and (figures.start.p50, figures.start.p99) == (120, 800)
    assert figures.save is not None and (figures.save.requests, figures.save.p99) == (300, 400)
    text = "\n".join(lines)
    assert "p50    120 ms, p99    800 ms, 4.0 x the bare view's p99" in text
    assert "p50     30 ms, p99    400 ms, 2.0 x the bare view's p99" in text
    assert "bare view (one INSERT)      9000 requests, p50     10 ms, p99    200 ms" in text
    assert "within the target of 1000 ms (worst 800 ms)" in text
    assert lines[-1] == "  failed: 0 in the exam and the bare view"


def test_a_p99_over_the_target_is_called_out(tmp_path: Path):
    _exam_run(tmp_path)
    figures = exam_figures(step_read(tmp_path, "exam-50", 50), None)
    lines = exam_lines(figures, target_ms=500)
    assert any("OVER the target of 500 ms (worst 800 ms)" in line for line in lines)
    assert any("bare view (one INSERT)   no requests" in line for line in lines)


def test_the_report_of_an_exam_run_exits_1_on_a_failed_save_and_0_without(tmp_path: Path,
                                                                              capsys):
    clean, failed = tmp_path / "clean", tmp_path / "failed"
    clean.mkdir()
    failed.mkdir()
    _exam_run(clean)
    _exam_run(failed, save_failures=2)

    assert report.main([str(clean)]) == 0
    out = capsys.readouterr().out
    assert "Exam summary" in out and "failed requests: 0" in out
    assert report.main([str(failed)]) == 1
    assert "failed requests: 2" in capsys.readouterr().out
