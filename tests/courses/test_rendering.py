"""Markdown with maths: MathML for formulas, and nothing a browser would run."""

import pytest

from courses.rendering import render_markdown

pytestmark = pytest.mark.parametrize("escape_html", [True, False])


def test_a_formula_becomes_mathml(escape_html):
    html = render_markdown(r"The bound is $\sigma_{\max}^k$, and $a < b$.", escape_html=escape_html)
    assert "<math" in html and "<msubsup>" in html and "<mo>&lt;</mo>" in html


@pytest.mark.parametrize("source", [
    r"$\text{<img/src=x/onerror=alert(1)>}$",
    r"$\text{<script>alert(1)</script>}$",
    r"$$\text{<b onmouseover=alert(1)>hover</b>}$$",
])
def test_html_inside_a_formula_is_shown_as_its_source_never_as_markup(source, escape_html):
    html = render_markdown(f"Good work. {source}", escape_html=escape_html)
    for markup in ("<img", "<script", "<b ", "<svg"):
        assert markup not in html
    assert 'class="math-source"' in html and "&lt;" in html


def test_angle_brackets_read_as_maths_stay_maths(escape_html):
    html = render_markdown(r"$\mathrm{<svg onload=alert(1)>}$", escape_html=escape_html)
    assert "<svg" not in html and "<mo>&lt;</mo>" in html


def test_feedback_html_outside_formulas_is_escaped_only_when_asked(escape_html):
    html = render_markdown("You typed <b>bold</b>.", escape_html=escape_html)
    assert ("<b>" not in html) == escape_html


def test_every_formula_carries_its_tex_source_as_its_text_alternative(escape_html):
    html = render_markdown("Inline $a < b$ and\n\n$$\\frac{x}{\n2}$$", escape_html=escape_html)
    assert html.count("<math") == 2
    assert '<math alttext="a &lt; b"' in html and '<math alttext="\\frac{x}{ 2}"' in html


def test_a_quote_in_a_formula_stays_inside_its_text_alternative(escape_html):
    html = render_markdown('$x^{"} + 1$', escape_html=escape_html)
    assert "<math" not in html or 'alttext="x^{&quot;} + 1"' in html
    assert "onerror" not in html
