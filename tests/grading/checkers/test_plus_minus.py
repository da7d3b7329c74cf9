"""± in answers and keys: a set of two values, each compared by the part's own rule."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check
from grading.checkers.plus_minus import expansions

STACK = "maths/moodle-qtype_stack tests/fixtures/answertestfixtures.class.php"
TRIG = {"type": "symbolic", "variables": ["x", "y"], "domain": "real"}


@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    # STACK AlgEquiv with #pm# (written ± here).
    ("cos(x ± y)", "cos(x)*cos(y) - (±sin(x)*sin(y))", "correct"),
    ("sin(x ± y)", "sin(x)*cos(y) ± cos(x)*sin(y)", "correct"),
    ("sin(x ± y)", "cos(x)*sin(y) ± sin(x)*cos(y)", "incorrect"),
])
def test_stack_plus_minus_fixtures(answer, reference, outcome):
    assert grade(answer, {**TRIG, "reference": reference}).outcome == outcome


QUADRATIC = {"type": "symbolic", "reference": "(-b ± sqrt(b^2 - 4*a*c))/(2*a)",
             "variables": ["a", "b", "c"]}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("(-b ± sqrt(b^2-4ac))/(2a)", "correct"),
    ("(-b +- sqrt(b^2-4ac))/(2a)", "correct"),
    ("-b/(2a) ± sqrt(b^2-4ac)/(2a)", "correct"),
    ("(-b ∓ sqrt(b^2-4ac))/(2a)", "invalid"),
    ("(-b + sqrt(b^2-4ac))/(2a)", "incorrect"),
    ("(b ± sqrt(b^2-4ac))/(2a)", "incorrect"),
])
def test_the_quadratic_formula_with_plus_minus(answer, outcome):
    assert grade(answer, QUADRATIC).outcome == outcome


def test_one_value_for_a_two_value_key_is_told_so():
    result = grade("(-b + sqrt(b^2-4ac))/(2a)", QUADRATIC)
    assert "write them with ±" in result.feedback
    result = grade("3 ± 2", {"type": "numeric", "reference": "5"})
    assert result.outcome == "incorrect"
    assert "more than one value" in result.feedback


def test_numeric_keys_with_plus_minus_and_their_self_check():
    spec = {"type": "numeric", "reference": "p ± q", "rtol": 0.001}
    assert grade("3 ± 2", spec, {"p": 3, "q": 2}).outcome == "correct"
    assert grade("3 ± 2.001", spec, {"p": 3, "q": 2}).outcome == "correct"
    assert grade("3 ± 2.1", spec, {"p": 3, "q": 2}).outcome == "incorrect"
    assert self_check(spec, {"p": 3, "q": 2}) == []
    assert self_check(QUADRATIC, {}) == []


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=-99, max_value=99), st.integers(min_value=1, max_value=99))
def test_a_plus_minus_is_the_set_of_its_two_values_in_any_order(centre, half):
    spec = {"type": "numeric", "reference": f"{centre} ± {half}"}
    low, high = centre - half, centre + half
    assert grade(f"{centre} ± {half}", spec).outcome == "correct"
    assert grade(f"{(low + high) // 2} ± {half}", spec).outcome == "correct"
    assert grade(f"{centre} ± {half + 1}", spec).outcome == "incorrect"


def test_signs_are_replaced_in_place_so_positions_are_the_students():
    assert expansions("3 +- 2") == ["3  + 2", "3  - 2"]
    result = grade("3 ± 2 + sinn(1)", {"type": "numeric", "reference": "3 ± 2"})
    assert result.outcome == "invalid"
    assert result.position == 9


def test_a_misconception_is_one_of_the_values():
    spec = {**QUADRATIC, "misconceptions": [
        {"answer": "(-b + sqrt(b^2 - 4*a*c))/(2*a)", "tag": "one-root", "feedback": "Both?"}]}
    assert self_check(spec, {}) == []


def test_too_many_signs_are_refused_at_the_extra_one():
    result = grade("1 ± 1 ± 1 ± 1 ± 1 ± 1", {"type": "numeric", "reference": "1 ± 1"})
    assert result.outcome == "invalid"
    assert result.position == 15
