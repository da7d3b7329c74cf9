"""LaTeX answers and keys (latex = true): read by the safe reader, positions the student's."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check, validate_spec
from grading.checkers.latex_input import from_latex

# huggingface/Math-Verify README.md: gold and answer in LaTeX ($\frac{1}{2}$, \sqrt, sets,
# intervals) compared by value; its tests/test_all.py pairs such as "\\frac{1}{2}" and "0.5".
SYM = {"type": "symbolic", "reference": "sqrt(x)/2 + x^2", "variables": ["x"], "latex": True}


@pytest.mark.parametrize(("answer", "spec", "outcome"), [
    (r"\frac{1}{2}", {"type": "numeric", "reference": "0.5", "latex": True}, "correct"),
    (r"$\frac{1}{2}$", {"type": "numeric", "reference": "0.5", "latex": True}, "correct"),
    (r"\dfrac12", {"type": "numeric", "reference": "0.5", "latex": True}, "correct"),
    (r"2\times10^{3}", {"type": "numeric", "reference": "2000", "latex": True}, "correct"),
    (r"\sqrt[3]{8}", {"type": "numeric", "reference": "2", "latex": True}, "correct"),
    (r"\frac{\pi}{2}", {"type": "numeric", "reference": "pi/2", "latex": True}, "correct"),
    (r"\frac{1}{2}\sqrt{x}+x^{2}", SYM, "correct"),
    (r"\frac{\sqrt{x}}{2} + x^{2}", SYM, "correct"),
    (r"\frac{1}{2}\sqrt{x}+x^{3}", SYM, "incorrect"),
    (r"\sin\left(x\right)\cdot\cos\left(x\right)",
     {**SYM, "reference": "sin(2x)/2"}, "correct"),
    (r"\{1,2\}", {"type": "set", "reference": "{1,2}", "latex": True}, "correct"),
    (r"\left[0,1\right)", {"type": "set", "reference": "[0,1)", "latex": True}, "correct"),
    (r"\left[0,1\right]", {"type": "set", "reference": "[0,1)", "latex": True}, "incorrect"),
    (r"x \le 3", {"type": "equation", "reference": "x <= 3", "variables": ["x"],
                  "latex": True}, "correct"),
])
def test_latex_answers_are_read(answer, spec, outcome):
    assert grade(answer, spec).outcome == outcome


def test_a_key_may_be_written_in_latex_and_checks_itself():
    spec = {"type": "symbolic", "reference": r"\frac{x^{2}}{2}", "variables": ["x"],
            "latex": True}
    assert grade("x^2/2", spec).outcome == "correct"
    assert self_check(spec, {}) == []
    assert validate_spec({**spec, "latex": "yes"}) == ["'latex' must be true or false"]


@pytest.mark.parametrize(("answer", "position", "words"), [
    (r"\frac{1}{2}\sqrt{y}", 18, "unknown name 'y'"),
    (r"\frac{1}{2}\foo{x}", 12, r"unknown LaTeX command '\foo'"),
    (r"\frac{1}{2", 10, "missing '}'"),
    (r"\sqrt{x}}", 9, "closes nothing"),
])
def test_refusals_name_the_position_in_the_latex_typed(answer, position, words):
    result = grade(answer, SYM)
    assert result.outcome == "invalid"
    assert result.position == position
    assert words in result.feedback
    assert f"character {position}" in result.feedback


def test_a_did_you_mean_keeps_the_students_position():
    result = grade(r"\frac{1}{2}\sqrt{x} + sinn(x)", SYM)
    assert result.outcome == "invalid"
    assert "did you mean 'sin'" in result.feedback
    assert result.position == 23


def test_a_misconception_written_in_latex_is_recognised():
    spec = {**SYM, "misconceptions": [{"answer": "sqrt(x) + x^2", "tag": "half-lost",
                                       "feedback": "Where did the 1/2 go?"}]}
    assert grade(r"\sqrt{x}+x^{2}", spec).misconception == "half-lost"


def test_latex_is_read_only_where_the_part_says_so_and_the_plain_form_is_suggested():
    result = grade(r"2\frac{1}{2}", {"type": "numeric", "reference": "0.5"})
    assert result.outcome == "invalid"
    assert result.position == 2
    assert "LaTeX is not read in this answer; did you mean the plain form" in result.feedback


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-500, max_value=500), st.integers(min_value=1, max_value=500))
def test_a_latex_fraction_is_its_value(numerator, denominator):
    spec = {"type": "numeric", "reference": f"{numerator}/{denominator}", "latex": True}
    assert grade(rf"\frac{{{numerator}}}{{{denominator}}}", spec).outcome == "correct"
    plain, origin = from_latex(rf"\frac{{{numerator}}}{{{denominator}}}")
    assert len(origin) == len(plain)


def test_pathological_latex_is_refused():
    deep = r"\frac{" * 60 + "1" + "}{2}" * 60
    assert grade(deep, {"type": "numeric", "reference": "1", "latex": True}).outcome == "invalid"
    long = r"\sqrt{x}+" * 200 + "x"
    assert grade(long, SYM).outcome == "invalid"
