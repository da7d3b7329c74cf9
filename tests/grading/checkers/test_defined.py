"""Symbolic answers undefined everywhere (1/0, csc(0)) are refused with the piece's position."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade
from grading.checkers.defined import undefined_piece
from grading.checkers.mathparse import parse

# MITx FormulaGrader refuses '1/0' and 'csc(0)' ("Division by zero occurred", CalcZeroDivision
# Error, mitodl/mitx-grading-library tests/formulagrader/test_formulagrader.py), as our numeric
# parts already do; a symbolic part must do the same.
SPEC = {"type": "symbolic", "reference": "x^2", "variables": ["x"], "domain": "real"}


@pytest.mark.parametrize(("answer", "position", "piece"), [
    ("1/0", 2, "'1/0'"),
    ("csc(0)", 1, "'csc(0)'"),
    ("cot(0)", 1, "'cot(0)'"),
    ("x^2 + 1/0", 8, "'1/0'"),
    ("x^2 + csc(0)", 7, "'csc(0)'"),
    ("x/0", 2, "'x/0'"),
    ("x^2/(3-3)", 4, "'x^2/(3 - 3)'"),
    ("0^(-1)*x", 2, "'0^(-1)'"),
    ("log(0) + x", 1, "'log(0)'"),
    ("x*sqrt(-4)", 3, "not a real number"),
])
def test_an_answer_undefined_everywhere_is_refused_with_its_position(answer, position, piece):
    result = grade(answer, SPEC)
    assert result.outcome == "invalid"
    assert result.position == position
    assert piece in result.feedback


@pytest.mark.parametrize("answer", [
    "x^2", "x^3/x", "sin(x)^2/sin(x)^2*x^2", "x^2 + 0/1", "x^2 + 10^400 - 10^400",
    "x^2*0^0", "x^2 + tan(pi/4) - 1",
])
def test_answers_with_values_are_graded(answer):
    assert grade(answer, SPEC).outcome == "correct"


def test_an_expression_undefined_at_some_points_is_graded_not_refused():
    assert grade("x^3/x", SPEC).outcome == "correct"  # undefined only at 0
    assert grade("1/x", SPEC).outcome == "incorrect"


def test_infinity_is_a_value_only_where_written():
    spec = {**SPEC, "reference": "oo", "allow_infinity": True}
    assert grade("oo", spec).outcome == "correct"
    assert grade("oo - oo", spec).outcome == "invalid"


def test_a_misconception_written_undefined_is_refused_not_matched():
    spec = {**SPEC, "reference": "sin(x)/x", "misconceptions": [
        {"answer": "1", "tag": "limit-as-value", "feedback": "That is the limit at 0."}]}
    assert grade("1", spec).misconception == "limit-as-value"
    result = grade("sin(0)/0", spec)
    assert result.outcome == "invalid"
    assert "'sin(0)/0' at character 7" in result.feedback


def test_the_numeric_refusal_still_names_what_is_wrong():
    assert grade("1/0", {"type": "numeric", "reference": "2"}).outcome == "invalid"


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-50, max_value=50), st.integers(min_value=1, max_value=9))
def test_any_expression_plus_a_division_by_zero_is_refused_at_the_slash(k, spaces):
    prefix = f"{k}*x^2 +" + " " * spaces
    result = grade(f"{prefix}{abs(k) + 1}/0", SPEC)
    assert result.outcome == "invalid"
    assert result.position == len(prefix) + len(str(abs(k) + 1)) + 1


def test_a_long_or_deeply_nested_division_by_zero_is_refused():
    answer = "(" * 30 + "1/0" + ")" * 30 + " + x"
    result = grade(answer, SPEC)
    assert result.outcome == "invalid"
    assert result.position == 32
    long = "x" + " + sin(1/2)" * 40 + " + 1/0"
    result = grade(long, SPEC)
    assert result.outcome == "invalid"
    assert result.position == len(long) - 1


def test_the_piece_found_is_the_innermost():
    piece = undefined_piece(parse("sin(1/0) + x", variables=["x"]))
    assert piece is not None
    assert getattr(piece, "pos", None) == 6
