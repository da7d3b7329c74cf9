"""Vector answers: brackets optional, elementwise tolerance, a wrong length is invalid."""

import pytest

from grading.checkers import grade, self_check, validate_spec
from grading.checkers.vector import split_elements

PAIR = {"type": "vector", "reference": ["1.9", "0.7"], "rtol": 0.01}

PAIR_CASES = [
    ("[1.9, 0.7]", "correct"),
    ("(1.9, 0.7)", "correct"),
    ("1.9, 0.7", "correct"),
    ("1.9,0.7", "correct"),
    ("  [ 1.9 , 0.7 ]  ", "correct"),
    ("{1.9, 0.7}", "invalid"),
    ("(1.9, 0.7]", "invalid"),
    ("[1.9, 0.7)", "invalid"),
    ("[19/10, 7/10]", "correct"),
    ("[0.1*1 + 0.6*3 + 0.2*(-1) + 0.1*2, 0.7]", "correct"),
    ("[1.9, 0.70]", "correct"),
    ("[1.895, 0.701]", "correct"),
    ("[(1.9), (0.7)]", "correct"),
    ("[0.7, 1.9]", "incorrect"),
    ("[1.9, -0.7]", "incorrect"),
    ("[1.9, 0.8]", "incorrect"),
    ("[2.3, 0.7]", "incorrect"),
    ("[1.9, 7]", "incorrect"),
    ("[1.9, 0.7, 0]", "invalid"),
    ("[1.9]", "invalid"),
    ("1.9", "invalid"),
    ("[1.9, ]", "invalid"),
    ("[1.9,, 0.7]", "invalid"),
    ("[1.9; 0.7]", "invalid"),
    ("[1.9 0.7]", "invalid"),
    ("[1,9, 0,7]", "invalid"),
    ("", "invalid"),
    ("[]", "invalid"),
    ("[1.9, x]", "invalid"),
    ("[1.9, 1/0]", "invalid"),
]


@pytest.mark.parametrize(("answer", "outcome"), PAIR_CASES)
def test_two_element_vector(answer, outcome):
    assert grade(answer, PAIR, {}).outcome == outcome


def test_an_interval_is_not_read_as_a_vector():
    # Regression: "(0, 1]" was read as the vector [0, 1] and marked correct.
    spec = {"type": "vector", "reference": ["0", "1"]}
    result = grade("(0, 1]", spec, {})
    assert result.outcome == "invalid"
    assert "closed by ']' at character 6" in result.feedback
    assert result.position == 6
    assert grade("[0, 1]", spec, {}).outcome == "correct"
    assert grade("(0, 1)", spec, {}).outcome == "correct"


def test_braces_are_a_set_not_a_vector():
    result = grade("{1.9, 0.7}", PAIR, {})
    assert result.outcome == "invalid"
    assert "set" in result.feedback


def test_a_wrong_length_says_how_many_numbers_were_expected():
    result = grade("[1.9, 0.7, 0]", PAIR, {})
    assert result.feedback == "expected 2 numbers, got 3"


def test_element_errors_point_at_the_character_in_the_whole_answer():
    result = grade("[1.9, 0.7+]", PAIR, {})
    assert result.outcome == "invalid"
    assert result.position == 10


def test_an_empty_element_is_named():
    result = grade("[1.9,, 0.7]", PAIR, {})
    assert "number 2 is missing" in result.feedback


def test_splitting_keeps_brackets_inside_elements_together():
    assert [t for t, _ in split_elements("[(1+2)*3, dot(a, b)]")] == ["(1+2)*3", " dot(a, b)"]
    assert [t for t, _ in split_elements("(1.9)")] == ["(1.9)"]


def test_reference_from_list_parameters():
    spec = {"type": "vector", "reference": ["w1*h1", "w2*h2"], "atol": 1e-9}
    assert grade("[0.1, 1.8]", spec, {"w1": 0.1, "h1": 1, "w2": 0.6, "h2": 3}).outcome == \
        "correct"


def test_reference_may_be_one_list_valued_expression():
    spec = {"type": "vector", "reference": "abs(states)", "rtol": 1e-9}
    params = {"states": [1, 3, -1, 2]}
    assert grade("[1, 3, 1, 2]", spec, params).outcome == "correct"
    assert grade("[1, 3, -1, 2]", spec, params).outcome == "incorrect"
    assert grade("[1, 3, 1]", spec, params).outcome == "invalid"


def test_partial_credit_per_element_when_asked():
    spec = {**PAIR, "partial": True}
    result = grade("[1.9, 0.8]", spec, {})
    assert (result.outcome, result.score) == ("partial", 0.5)
    assert "Element 2 is not within the tolerance" in result.feedback
    assert grade("[1.9, 0.8]", PAIR, {}).score == 0.0


def test_misconception_vectors():
    spec = {**PAIR, "misconceptions": [
        {"answer": ["0.7", "1.9"], "tag": "swapped", "feedback": "Order matters."}]}
    result = grade("[0.7, 1.9]", spec, {})
    assert (result.misconception, result.feedback) == ("swapped", "Order matters.")


def test_canonical_shows_values_of_expressions():
    assert grade("[19/10, 0.7]", PAIR, {}).canonical == "[19/10 ≈ 1.9, 0.7]"


def test_vector_spec_validation():
    assert validate_spec(PAIR) == []
    assert self_check(PAIR, {}) == []
    assert any("'reference'" in p for p in validate_spec({"type": "vector"}))
    assert any("'reference'" in p for p in validate_spec({"type": "vector", "reference": []}))
    assert any("'partial'" in p for p in validate_spec({**PAIR, "partial": "yes"}))
