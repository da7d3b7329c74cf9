# ruff: noqa: RUF001 - maths symbols are the point of these tests
"""`$...$` maths spelt out as plain text, for where no MathML can go."""

import pytest

from courses.plain_maths import plain_maths


@pytest.mark.parametrize(("text", "plain"), [
    (r"bound $\sigma_{\max}^k$ here", "bound σ_max^k here"),
    (r"$W_{hh}$", "W_hh"),
    (r"$\mathbf{h}_t$ and $\mathbf{h}_{t-1}$", "h_t and h_(t−1)"),
    (r"$1/\sqrt{d}$", "1/√d"),
    (r"$S = QK^\top/d^p$", "S = QK^⊤/d^p"),
    (r"$\sigma_{\max} = 1.5$", "σ_max = 1.5"),
    (r"$\|\mathbf{g}_k\|$", "‖g_k‖"),
    (r"$$\frac{a+b}{2}$$", "(a+b)/2"),
    (r"a \$5 fee", r"a \$5 fee"),  # an escaped dollar is no maths
    ("no maths at all", "no maths at all"),
])
def test_a_formula_is_spelt_out_as_plain_text(text, plain):
    assert plain_maths(text) == plain


def test_a_formula_the_converter_cannot_read_is_left_as_its_source():
    assert plain_maths(r"see $\left($ here") == r"see \left( here"
