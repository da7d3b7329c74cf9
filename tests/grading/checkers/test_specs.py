# ruff: noqa: RUF001 - maths symbols are the point of these tests
"""Spec vocabulary shared by every type: misconception labels, declared functions with
several arguments, and the keys the grader added (written_decimals, allow_infinity, rtol)."""

import pytest

from grading.checkers import grade, self_check, validate_spec
from grading.checkers.mathparse import FormatError, parse

LABELLED = {
    "numeric": {"type": "numeric", "reference": "2", "misconceptions": [
        {"answer": "3", "tag": "t", "feedback": "f", "label": "Adds one"}]},
    "vector": {"type": "vector", "reference": ["1", "2"], "misconceptions": [
        {"answer": ["2", "1"], "tag": "t", "feedback": "f", "label": "Swaps them"}]},
    "integer": {"type": "integer", "reference": "2", "misconceptions": [
        {"answer": "3", "tag": "t", "feedback": "f", "label": "Adds one"}]},
    "symbolic": {"type": "symbolic", "reference": "x^2", "variables": ["x"],
                 "misconceptions": [{"answer": "2x", "tag": "t", "feedback": "f",
                                     "label": "Doubles instead of squaring"}]},
    "choice": {"type": "choice", "options": [{"key": "a", "text": "A"}, {"key": "b", "text": "B"}],
               "correct": ["a"], "misconceptions": [
                   {"answer": "b", "tag": "t", "feedback": "f", "label": "Picks B"}]},
    "text": {"type": "text", "rubric": [{"key": "k", "phrasings": ["vanish"]}],
             "reference": "Gradients vanish over long paths.", "misconceptions": [
                 {"phrasings": ["explode"], "tag": "t", "feedback": "f",
                  "label": "Confuses with exploding"}]},
}


@pytest.mark.parametrize("answer_type", sorted(LABELLED))
def test_every_type_accepts_a_one_line_label_on_a_misconception(answer_type):
    spec = LABELLED[answer_type]
    assert validate_spec(spec) == []
    assert self_check(spec, {}) == []


@pytest.mark.parametrize("answer_type", sorted(LABELLED))
@pytest.mark.parametrize("label", [3, "", "two\nlines", None, ["a"]])
def test_a_label_must_be_a_one_line_string(answer_type, label):
    spec = LABELLED[answer_type]
    bad = {**spec, "misconceptions": [{**spec["misconceptions"][0], "label": label}]}
    assert "'misconceptions' entry 1: 'label' must be a one-line string" in validate_spec(bad)


@pytest.mark.parametrize("functions", [["f"], {"f": 1}, {"f": 2, "g": 1}, ["σ"], {"sigma": 1}])
def test_functions_are_a_list_of_names_or_a_table_of_arities(functions):
    spec = {"type": "symbolic", "reference": "x", "variables": ["x"], "functions": functions}
    assert validate_spec(spec) == []


@pytest.mark.parametrize(("functions", "problem"), [
    ("f", "'functions' must be a list of names"),
    ([1], "'functions' must be a list of names"),
    ({"f": 0}, "'functions': function 'f' must take 1 to 10 arguments"),
    ({"f": "2"}, "'functions': function 'f' must take 1 to 10 arguments"),
    ({"f": True}, "'functions': function 'f' must take 1 to 10 arguments"),
    ({"f x": 1}, "'functions': invalid name"),
])
def test_malformed_function_declarations_are_reported(functions, problem):
    spec = {"type": "symbolic", "reference": "x", "variables": ["x"], "functions": functions}
    assert any(problem in p for p in validate_spec(spec)), validate_spec(spec)


def test_a_two_argument_declared_function_is_graded_by_sampling():
    spec = {"type": "symbolic", "reference": "f(x, y) + f(y, x)", "variables": ["x", "y"],
            "functions": {"f": 2}}
    assert grade("f(y, x) + f(x, y)", spec, {}).outcome == "correct"
    assert grade("2 f(x, y)", spec, {}).outcome == "incorrect"
    invalid = grade("f(x)", spec, {})
    assert invalid.outcome == "invalid" and "takes 2 arguments" in invalid.feedback


@pytest.mark.parametrize(("spec", "problem"), [
    ({"type": "numeric", "reference": "1", "allow_infinity": "yes"}, "'allow_infinity'"),
    ({"type": "vector", "reference": ["1"], "allow_infinity": 1}, "'allow_infinity'"),
    ({"type": "symbolic", "reference": "x", "variables": ["x"], "atol": -1}, "'atol'"),
    ({"type": "numeric", "reference": "1", "written_decimals": -1}, "'written_decimals'"),
])
def test_new_keys_are_validated(spec, problem):
    assert any(problem in p for p in validate_spec(spec)), validate_spec(spec)


POSITIONS = [
    # (text, expected position of the error in the student's own characters)
    ("（1＋2））", 6),
    ("x₁₂ + ) ", 7),
    ("½ + )", 5),
    ("２ｘ ＋ ｑ", 6),
    ("σ_max + %", 9),
]


@pytest.mark.parametrize(("text", "position"), POSITIONS)
def test_error_positions_count_the_students_own_characters(text, position):
    with pytest.raises(FormatError) as caught:
        parse(text, variables=["x", "x_12", "sigma_max"])
    assert caught.value.position == position
    assert f"character {position}" in caught.value.message


def test_full_width_vectors_are_split_on_full_width_commas():
    spec = {"type": "vector", "reference": ["1.9", "0.7"], "rtol": 0.01}
    assert grade("［１.９，０.７］", spec, {}).outcome == "correct"
