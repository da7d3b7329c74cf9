"""The content-driven figures as their templates draw them: an SVG with role="img", a title
and a description, every number in a data table, author text escaped, shades whose written
value stays readable, bars below zero for negative entries, arrows with true proportions and
a logarithmic axis of powers of ten."""

import re
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string

from courses.figure_kinds import FIGURE_KINDS
from courses.figures.colours import shade
from courses.models import Figure

HOSTILE = '<script>alert(1)</script>"&'


def _figure(kind: str, data: dict) -> Figure:
    return Figure(slug="f-1", number="9.1", title=f"Title {HOSTILE}", kind=kind, data=data)


def _drawn(kind: str, data: dict) -> str:
    entry = FIGURE_KINDS[kind]
    return render_to_string(entry.template, entry.context(_figure(kind, data), None))


class _Cells(HTMLParser):
    """Texts of the data table's cells, and whether any element is a <script>."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.scripts = 0
        self._in_cell = False

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        self._in_cell = tag in ("td", "th")
        if self._in_cell:
            self.cells.append("")

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._in_cell = False

    def handle_data(self, data):
        if self._in_cell:
            self.cells[-1] += data


def _parsed(html: str) -> _Cells:
    parser = _Cells()
    parser.feed(html)
    return parser


EXAMPLES = {
    "heatmap": {"values": [[1, -2.5], [0, 4]], "rows": [HOSTILE, "b"], "columns": ["x", HOSTILE],
                "row_title": HOSTILE, "column_title": HOSTILE, "decimals": 1,
                "scale": "diverging"},
    "arrows": {"vectors": [{"to": [1, 2], "label": HOSTILE}, {"from": [1, 2], "to": [3, -1],
                                                               "label": "b", "highlight": True}],
               "x_label": HOSTILE, "y_label": "y"},
    "bars": {"values": [0.5, -0.25, 1], "labels": [HOSTILE, "b", "c"], "x_label": HOSTILE,
             "y_label": HOSTILE},
    "line": {"x": [1, 2, 3], "series": [{"label": HOSTILE, "y": [1, 10, 100]},
                                        {"label": "b", "y": [2, 3, 4]}],
             "x_label": HOSTILE, "y_label": HOSTILE, "log_y": True},
}


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_every_generic_kind_is_an_accessible_svg_with_its_author_text_escaped(kind):
    html = _drawn(kind, EXAMPLES[kind])
    parsed = _parsed(html)
    assert parsed.scripts == 0 and "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;" in html
    svg = re.search(r"<svg [^>]*>", html).group(0)
    assert 'role="img"' in svg and 'aria-labelledby="f-1-svg-title f-1-svg-desc"' in svg
    assert '<title id="f-1-svg-title">Figure 9.1: Title &lt;script&gt;' in html
    assert re.search(r'<desc id="f-1-svg-desc">[^<]{20,}</desc>', html)
    assert "<table class=\"data\">" in html and "Data table of Figure 9.1" in html
    assert HOSTILE in parsed.cells  # the label is a table header, as text
    assert "style=" not in html and "<style" not in html  # the CSP allows neither


def test_the_heat_maps_table_holds_every_value_with_its_decimals():
    cells = _parsed(_drawn("heatmap", EXAMPLES["heatmap"])).cells
    assert cells == ["", "x", HOSTILE, HOSTILE, "1.0", "-2.5", "b", "0.0", "4.0"]


def test_a_diverging_heat_map_is_orange_below_zero_white_at_zero_and_blue_above():
    html = _drawn("heatmap", EXAMPLES["heatmap"])
    fills = re.findall(r'<rect x="\d+" y="\d+" width="56" height="34" fill="(#[0-9a-f]{6})"', html)
    assert fills == [shade(1 / 4)[0], shade(-2.5 / 4)[0], "#ffffff", shade(1.0)[0]]
    assert int(fills[1][1:3], 16) > int(fills[1][5:7], 16)
    assert int(fills[0][5:7], 16) > int(fills[0][1:3], 16)  # blue above zero


def _contrast(fill: str, ink: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(fill), luminance(ink)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("t", [i / 100 for i in range(-100, 101)])
def test_every_shade_keeps_its_written_value_readable(t):
    assert _contrast(*shade(t)) >= 4.5


def test_a_negative_bar_hangs_below_the_zero_line():
    html = _drawn("bars", EXAMPLES["bars"])
    zero = float(re.search(r'<line class="axis" x1="64" y1="([\d.]+)"', html).group(1))
    bars = [(float(y), float(h)) for y, h in
            re.findall(r'<rect class="bar" x="\d+" y="([\d.]+)" width="40" height="([\d.]+)"', html)]
    assert [round(y + h, 1) == zero for y, h in bars] == [True, False, True]
    assert bars[1][0] == zero  # the negative bar starts at zero and goes down
    assert bars[2][1] == pytest.approx(2 * bars[0][1], abs=0.2)  # heights in proportion


def test_arrows_keep_their_proportions_and_start_where_they_are_told():
    html = _drawn("arrows", EXAMPLES["arrows"])
    lines = [tuple(map(float, m)) for m in re.findall(
        r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)" marker-end', html)]
    (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = lines
    assert (bx1, by1) == (ax2, ay2)  # b starts at a's tip, (1, 2)
    scale_x, scale_y = (ax2 - ax1) / 1, (ay1 - ay2) / 2
    assert scale_x == pytest.approx(scale_y, rel=0.01)  # one scale on both axes
    assert ((bx2 - bx1) / 2, (by2 - by1) / 3) == pytest.approx((scale_x, scale_y), rel=0.01)
    assert '<g class="arrow highlight">' in html
    assert "<td>the origin (0.00, 0.00)</td><td>(1.00, 2.00)</td>" in html


def test_a_logarithmic_line_plot_has_powers_of_ten_and_one_row_per_x():
    html = _drawn("line", EXAMPLES["line"])
    ticks = re.findall(r'text-anchor="end">([^<]+)</text>', html)
    assert ticks == ["1", "10", "100"]
    assert html.count("<polyline") == 2 and 'stroke-dasharray="6 3"' in html
    cells = _parsed(html).cells
    assert cells[3:] == ["1.000", "1.000", "2.000", "2.000", "10.000", "3.000", "3.000",
                         "100.000", "4.000"]
