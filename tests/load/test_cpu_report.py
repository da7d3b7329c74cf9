"""The CPU report of `bin/load --cpu`: per route, requests, mean, median and share of the
step's CPU, costliest first; a step that recorded nothing prints nothing."""

from pathlib import Path

import pytest

from tests.load.cpu_report import route_cpu_print, route_cpu_read


def test_routes_are_summed_across_the_workers_files_costliest_first(tmp_path: Path):
    (tmp_path / "cpu-101.tsv").write_text("POST answer/\t10.0\nGET preview/\t2.0\n")
    (tmp_path / "cpu-102.tsv").write_text("POST answer/\t14.0\nGET preview/\t4.0\nbroken line\n")

    rows = route_cpu_read(tmp_path)

    assert [(r.route, r.requests, r.mean_ms, r.median_ms) for r in rows] == [
        ("POST answer/", 2, 12.0, 12.0), ("GET preview/", 2, 3.0, 3.0)]
    assert [r.share for r in rows] == pytest.approx([0.8, 0.2])


def test_a_step_without_records_prints_nothing(tmp_path: Path, capsys):
    route_cpu_print("CPU", tmp_path / "missing")
    route_cpu_print("CPU", tmp_path)
    assert capsys.readouterr().out == ""
    (tmp_path / "cpu-1.tsv").write_text("GET module/\t20.0\n")
    route_cpu_print("CPU", tmp_path)
    assert "1 requests, 20.00 ms of CPU each on average" in capsys.readouterr().out
