"""Alternatives: several accepted answers with their own credit and feedback, in every type."""

import pytest

from grading.checkers import grade, self_check, validate_spec

SIMPLIFY = {"type": "symbolic", "reference": "2x", "variables": ["x"], "alternatives": [
    {"answer": "x + x", "match": "written", "credit": 0.5, "feedback": "Right; simplify it."},
    {"answer": "x^2", "credit": 0, "tag": "squared", "feedback": "x·x is x², not 2x."},
]}


def test_full_marks_for_the_simplified_form_half_for_a_written_unsimplified_one():
    assert (grade("2x", SIMPLIFY, {}).outcome, grade("2x", SIMPLIFY, {}).score) == \
        ("correct", 1.0)
    half = grade("x+x", SIMPLIFY, {})
    assert (half.outcome, half.score, half.feedback) == ("partial", 0.5, "Right; simplify it.")


def test_a_named_wrong_answer_gets_its_message_and_tag():
    result = grade("x*x", SIMPLIFY, {})
    assert (result.outcome, result.score, result.misconception) == ("incorrect", 0.0, "squared")
    assert "not 2x" in result.feedback


def test_an_alternative_may_override_the_parts_keys():
    spec = {"type": "equation", "reference": "y = 2x + 1", "variables": ["x", "y"],
            "form": "sides", "alternatives": [
                {"answer": "y = 2x + 1", "form": "any", "credit": 0.5,
                 "feedback": "Equivalent; now solve for y."}]}
    assert grade("y = 2x + 1", spec, {}).score == 1.0
    assert grade("2y = 4x + 2", spec, {}).score == 0.5
    assert grade("y = 3x", spec, {}).score == 0.0
    assert self_check(spec, {}) == []


def test_a_wider_tolerance_for_partial_credit():
    spec = {"type": "numeric", "reference": "0.85^40", "rtol": 0.001, "alternatives": [
        {"answer": "0.85^40", "rtol": 0.05, "credit": 0.5, "feedback": "Not precise enough."}]}
    assert grade("0.0015023", spec, {}).score == 1.0
    assert grade("0.00155", spec, {}).score == 0.5
    assert grade("0.002", spec, {}).score == 0.0


@pytest.mark.parametrize(("spec", "answer", "score"), [
    ({"type": "string", "reference": "softmax",
      "alternatives": [{"answer": "soft max", "credit": 0.8}]}, "Soft Max", 0.8),
    ({"type": "set", "reference": "(0, 1]",
      "alternatives": [{"answer": "[0, 1]", "credit": 0.5}]}, "[0, 1]", 0.5),
    ({"type": "list", "reference": ["2", "-3"],
      "alternatives": [{"answer": ["2"], "credit": 0.5}]}, "2", 0.5),
    ({"type": "vector", "reference": ["1", "2"],
      "alternatives": [{"answer": ["2", "1"], "credit": 0.25}]}, "[2, 1]", 0.25),
    ({"type": "integer", "reference": "10",
      "alternatives": [{"answer": "11", "credit": 0.5}]}, "11", 0.5),
    ({"type": "choice", "options": [{"key": "a", "text": "A"}, {"key": "b", "text": "B"}],
      "correct": ["a"], "alternatives": [{"answer": ["b"], "credit": 0.25}]}, "b", 0.25),
])
def test_every_type_takes_alternatives(spec, answer, score):
    result = grade(answer, spec, {})
    assert result.score == score
    assert validate_spec(spec) == []
    assert self_check(spec, {}) == []


def test_the_best_alternative_wins_and_ties_go_to_the_first():
    spec = {"type": "integer", "reference": "10", "alternatives": [
        {"answer": "11", "credit": 0.25, "feedback": "first"},
        {"answer": "11", "credit": 0.75, "feedback": "best"},
        {"answer": "12", "credit": 0.5, "feedback": "a"},
        {"answer": "12", "credit": 0.5, "feedback": "b"}]}
    assert grade("11", spec, {}).feedback == "best"
    assert grade("12", spec, {}).feedback == "a"


def test_validation_of_alternatives():
    base = {"type": "set", "reference": "{1}"}
    assert validate_spec({**base, "alternatives": {"answer": "{2}"}})
    problems = validate_spec({**base, "alternatives": [{"credit": 2}]})
    assert "needs 'answer'" in problems[0]
    assert "'credit'" in problems[1]
    assert validate_spec({**base, "alternatives": [{"answer": "{2}", "match": "loose"}]})
    assert validate_spec({**base, "alternatives": [{"answer": "{2}", "reduced": "no"}]})
    unreachable = {**base, "alternatives": [{"answer": "[1, 1]", "credit": 0.5}]}
    assert "never applies" in self_check(unreachable, {})[0]
    unreadable = {**base, "alternatives": [{"answer": "{1, 2)", "credit": 0.5}]}
    assert self_check(unreadable, {})
