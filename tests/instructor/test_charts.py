"""The hand-written SVG charts and the overview's series (no database)."""

from datetime import date
from xml.etree import ElementTree

from instructor.charts import histogram_svg, line_svg
from instructor.overview import completion_series, score_distribution


def test_scores_fall_in_ten_bins_with_full_marks_in_the_last():
    assert score_distribution([0.0, 9.99, 10.0, 55.0, 99.9, 100.0]) == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]


def test_completion_is_cumulative_and_starts_from_zero_the_day_before():
    days = [date(2026, 3, 2), date(2026, 3, 2), date(2026, 3, 4)]
    assert completion_series(days, pairs=4) == [
        (date(2026, 3, 1), 0.0), (date(2026, 3, 2), 50.0), (date(2026, 3, 4), 75.0)]
    assert completion_series([], pairs=4) == []


def test_charts_are_well_formed_accessible_svg_with_escaped_labels():
    bars = histogram_svg(counts=[1, 3], labels=["<a>", "b&c"], title="Scores <x>",
                         x_label="score", y_label="students")
    line = line_svg(points=[(date(2026, 3, 1), 0.0), (date(2026, 3, 3), 40.0)],
                    title="Completion", y_label="%")
    for svg in (bars, line, line_svg(points=[], title="Empty", y_label="%")):
        root = ElementTree.fromstring(svg)  # noqa: S314 (our own output) raises if not well formed
        assert root.get("role") == "img" and root.get("aria-label")
        assert root.find("{http://www.w3.org/2000/svg}title") is not None
    assert "&lt;a&gt;: 1" in bars and "b&amp;c" in bars
    assert len(ElementTree.fromstring(bars).findall(  # noqa: S314
        "{http://www.w3.org/2000/svg}rect")) == 2
