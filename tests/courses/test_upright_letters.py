"""A one-letter `\\mathrm{s}` (a unit) is set upright, as a longer one is; a variable and a
Greek letter stay italic (issue 37: units were drawn in italics)."""

import re

import pytest

from courses.rendering import latex_to_html


@pytest.mark.parametrize("latex", [r"\mathrm{s}", r"5\,\mathrm{m}\,\mathrm{s}^{-1}",
                                   r"\mathrm{e}^{x}", r"\mathrm{kg}"])
def test_a_mathrm_letter_is_upright_and_a_variable_is_not(latex):
    html = latex_to_html(latex + r" + x")
    assert "<mi>x</mi>" in html
    letters = [(upright, letter) for upright, letter
               in re.findall(r'<mi( mathvariant="normal")?>([a-z])</mi>', html) if letter != "x"]
    assert letters and all(upright for upright, _ in letters), html


def test_a_greek_letter_stays_italic():
    assert "<mi>\u03b1</mi>" in latex_to_html(r"\alpha")
