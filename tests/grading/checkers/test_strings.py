# ruff: noqa: RUF001 - full-width letters are the point here
"""String answers: normalised comparison, accepted sets, RE2 patterns, edit distance."""

import pytest

from grading.checkers import grade, self_check, validate_spec
from grading.checkers.strings import edit_distance

WORD = {"type": "string", "reference": "Softmax"}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("softmax", "correct"),
    ("  SOFTMAX ", "correct"),
    ("ｓｏｆｔｍａｘ", "correct"),
    ("soft max", "incorrect"),
    ("softmx", "incorrect"),
    ("", "invalid"),
    ("   ", "invalid"),
])
def test_default_comparison_ignores_case_and_outer_spaces(answer, outcome):
    assert grade(answer, WORD, {}).outcome == outcome


def test_exact_comparison():
    spec = {**WORD, "case_sensitive": True, "whitespace": "exact"}
    assert grade("Softmax", spec, {}).outcome == "correct"
    assert grade("softmax", spec, {}).outcome == "incorrect"
    assert grade("Softmax ", spec, {}).outcome == "incorrect"


def test_spaces_ignored_entirely():
    spec = {**WORD, "whitespace": "ignore"}
    assert grade("soft max", spec, {}).outcome == "correct"


def test_a_set_of_accepted_strings():
    spec = {"type": "string", "reference": ["gradient descent", "GD"]}
    assert grade("gd", spec, {}).outcome == "correct"
    assert grade("Gradient   Descent", spec, {}).outcome == "correct"


def test_an_author_pattern_must_match_the_whole_answer():
    spec = {"type": "string", "pattern": r"(vanishing|exploding) gradients?"}
    assert grade("Vanishing gradient", spec, {}).outcome == "correct"
    assert grade("the vanishing gradient problem", spec, {}).outcome == "incorrect"
    assert self_check(spec, {}) == []


def test_a_catastrophic_pattern_runs_in_linear_time():
    # A backtracking engine would not finish this (2^1000 ways to split the a's).
    spec = {"type": "string", "pattern": "(a+)+b"}
    assert grade("a" * 1000, spec, {}).outcome == "incorrect"


def test_edit_distance():
    spec = {**WORD, "max_distance": 1}
    accepted = grade("softmx", spec, {})
    assert accepted.outcome == "correct"
    assert "spelling" in accepted.feedback
    assert grade("sftmx", spec, {}).outcome == "incorrect"
    assert edit_distance("kitten", "sitting", 3) == 3
    assert edit_distance("kitten", "sitting", 2) is None
    assert edit_distance("", "abc", 3) == 3


def test_misconceptions_by_string_or_pattern():
    spec = {**WORD, "misconceptions": [
        {"answer": "sigmoid", "tag": "sigmoid", "feedback": "Sigmoid squashes one value."},
        {"pattern": "arg ?max", "tag": "argmax", "feedback": "Argmax is not smooth."},
    ]}
    assert grade("Sigmoid", spec, {}).misconception == "sigmoid"
    assert grade("arg max", spec, {}).misconception == "argmax"
    assert self_check(spec, {}) == []


def test_validation():
    assert validate_spec(WORD) == []
    assert validate_spec({"type": "string"})
    assert "RE2" in validate_spec({"type": "string", "pattern": "(a"})[0]
    assert validate_spec({"type": "string", "pattern": "(?<=a)b"})  # no look-behind in RE2
    assert validate_spec({**WORD, "max_distance": 50})
    assert validate_spec({**WORD, "whitespace": "squash"})
    bad = {**WORD, "misconceptions": [{"answer": "SOFTMAX", "tag": "t", "feedback": "f"}]}
    assert "would be graded correct" in self_check(bad, {})[0]


def test_a_huge_answer_is_refused():
    assert grade("a" * 5000, WORD, {}).outcome == "invalid"
