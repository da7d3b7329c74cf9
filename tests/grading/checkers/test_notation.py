# ruff: noqa: RUF001 - the times sign of scientific notation is the point of these tests
"""Notation and comparisons: greater/at least the key, scientific notation, decimal places,
credit for the right value at the wrong precision, forbidden and required strings."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check, validate_spec

# STACK doc/en/Authoring/Answer_Tests/Numerical.md: GT (student > teacher) and GTE (>=).
GT = {"type": "numeric", "reference": "1", "comparison": "greater"}


@pytest.mark.parametrize(("answer", "kind", "outcome"), [
    ("2", "greater", "correct"), ("1", "greater", "incorrect"), ("0.5", "greater", "incorrect"),
    ("1", "at_least", "correct"), ("0.999", "at_least", "incorrect"),
    ("1.5", "at_least", "correct"), ("0", "less", "correct"), ("1", "less", "incorrect"),
    ("1", "at_most", "correct"), ("1.0000001", "at_most", "incorrect"),
])
def test_greater_than_and_at_least_the_key(answer, kind, outcome):
    assert grade(answer, {**GT, "comparison": kind}).outcome == outcome


def test_a_comparison_part_checks_its_own_key():
    assert self_check({**GT, "reference": "pi"}, {}) == []
    assert self_check({**GT, "comparison": "less"}, {}) == []
    assert "'comparison' must be one of" in validate_spec({**GT, "comparison": "bigger"})[0]


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=50),
       st.fractions(min_value=-1000, max_value=1000, max_denominator=50))
def test_greater_agrees_with_exact_arithmetic(answer, key):
    spec = {**GT, "reference": f"{key.numerator}/{key.denominator}"}
    result = grade(f"{answer.numerator}/{answer.denominator}", spec)
    assert (result.outcome == "correct") == (answer > key)


SCI = {"type": "numeric", "reference": "1500", "notation": "scientific"}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("1.5e3", "correct"), ("1.5×10^3", "correct"), ("1.5*10^3", "correct"),
    ("1.50 x 10^3", "correct"),
    ("1500", "invalid"), ("15e2", "invalid"), ("0.15×10^4", "invalid"),
])
def test_scientific_notation_is_required_where_asked(answer, outcome):
    # WeBWorK macros/contexts/contextScientificNotation.pl: a x 10^n with 1 <= a < 10.
    assert grade(answer, SCI).outcome == outcome


def test_a_refused_notation_says_where():
    result = grade("15e2", SCI)
    assert result.position == 1
    assert "scientific notation" in result.feedback


@pytest.mark.parametrize(("answer", "outcome", "position"), [
    ("3.14", "correct", None), ("3.1", "incorrect", None), ("3.142", "invalid", 1),
    ("2*1.5708", "invalid", 3),
])
def test_at_most_n_decimal_places(answer, outcome, position):
    # STACK's numerical input option maxdp (doc/en/Authoring/Numerical_input.md).
    spec = {"type": "numeric", "reference": "pi", "max_decimals": 2, "rtol": 0.001}
    result = grade(answer, spec)
    assert result.outcome == outcome
    assert result.position == position


def test_the_right_value_at_the_wrong_precision_earns_the_precision_credit():
    # Numbas runtime/scripts/parts/numberentry.js: precisionPartialCredit.
    spec = {"type": "numeric", "reference": "2.5", "written_decimals": 2,
            "precision_credit": 0.5}
    assert grade("2.50", spec).outcome == "correct"
    result = grade("2.5", spec)
    assert (result.outcome, result.score, result.misconception) == ("partial", 0.5, "precision")
    assert "decimal places" in result.feedback
    assert grade("2.6", spec).outcome == "incorrect"
    assert grade("2.5", {**spec, "precision_credit": None}).outcome == "invalid"


@pytest.mark.parametrize(("answer", "spec_keys", "position"), [
    ("sin(x)/cos(x)", {"forbidden_strings": ["/"]}, 7),
    ("sin(x) / cos(x)", {"forbidden_strings": ["/ cos"]}, 8),
    ("tan(x)", {"required_strings": ["sin"]}, 7),
])
def test_forbidden_and_required_strings_are_refused_where_they_are(answer, spec_keys, position):
    # mitodl/mitx-grading-library docs/grading_math/formula_grader.md: forbidden_strings.
    spec = {"type": "symbolic", "reference": "tan(x)", "variables": ["x"], **spec_keys}
    result = grade(answer, spec)
    assert result.outcome == "invalid"
    assert result.position == position


def test_the_mitx_forbidden_strings_example():
    spec = {"type": "symbolic", "reference": "x^2 + 2*x", "variables": ["x"],
            "forbidden_strings": ["*x", "+ x"]}
    assert grade("x^2 + 2x", spec).outcome == "correct"
    assert grade("x^2 + x + x", spec).outcome == "invalid"
    assert grade("x*x + 2x", spec).outcome == "invalid"


def test_a_misconception_still_matches_under_a_notation_rule():
    spec = {**SCI, "misconceptions": [{"answer": "150", "tag": "power-of-ten",
                                      "feedback": "Count the zeros."}]}
    assert grade("1.5e2", spec).misconception == "power-of-ten"


def test_a_did_you_mean_survives_a_notation_rule():
    result = grade("1.5e3 + sinn(0)", {**SCI, "notation": "scientific"})
    assert result.outcome == "invalid"
    assert "did you mean 'sin'" in result.feedback


def test_pathological_inputs_are_refused():
    assert grade("1" + ".1" * 300, {**SCI, "max_decimals": 2}).outcome == "invalid"
    long = "x" + "+x" * 400
    spec = {"type": "symbolic", "reference": "x", "variables": ["x"],
            "forbidden_strings": ["y"]}
    assert grade(long, spec).outcome == "invalid"
