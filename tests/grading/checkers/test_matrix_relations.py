"""Matrix answers equal to the key up to an order of rows or columns, a sign or a constant
factor (``equivalent_up_to``), and partial credit for named wrong forms (``partial_credit``)."""

import pytest

from grading.checkers import grade, self_check, validate_spec

KEY = [[1, 2], [3, 4]]


def _spec(**extra):
    return {"type": "matrix", "reference": KEY, **extra}


@pytest.mark.parametrize(("relation", "raw"), [
    ("rows", "[[3, 4], [1, 2]]"),
    ("columns", "[[2, 1], [4, 3]]"),
    ("sign", "[[-1, -2], [-3, -4]]"),
    ("factor", "[[2, 4], [6, 8]]"),
    ("factor", "[[-0.5, -1], [-1.5, -2]]"),
])
def test_an_answer_related_as_the_author_allows_is_correct(relation, raw):
    assert grade(raw, _spec(equivalent_up_to=[relation])).outcome == "correct"
    assert grade(raw, _spec()).outcome == "incorrect"


@pytest.mark.parametrize(("relation", "raw"), [
    ("rows", "[[2, 1], [4, 3]]"),      # columns swapped is not rows swapped
    ("columns", "[[3, 4], [1, 2]]"),
    ("rows", "[[1, 2], [1, 2]]"),      # one key row used twice is no permutation
    ("factor", "[[0, 0], [0, 0]]"),    # zero is no multiple
    ("factor", "[[2, 4], [6, 9]]"),
    ("sign", "[[-1, -2], [-3, 4]]"),
])
def test_an_answer_not_so_related_stays_wrong(relation, raw):
    assert grade(raw, _spec(equivalent_up_to=[relation])).outcome == "incorrect"


def test_rows_are_paired_one_to_one_even_when_rows_repeat():
    spec = {"type": "matrix", "reference": [[1, 1], [1, 2], [1, 1]],
            "equivalent_up_to": ["rows"]}
    assert grade("[[1, 2], [1, 1], [1, 1]]", spec).outcome == "correct"
    assert grade("[[1, 2], [1, 2], [1, 1]]", spec).outcome == "incorrect"


def test_rows_in_another_order_are_compared_within_the_tolerance():
    spec = {"type": "matrix", "reference": "[[1/3, 2/3], [1, 0]]", "rtol": 0.01,
            "equivalent_up_to": ["rows"]}
    assert grade("[[1, 0], [0.333, 0.667]]", spec).outcome == "correct"
    assert grade("[[1, 0], [0.3, 0.667]]", spec).outcome == "incorrect"


def test_symbolic_rows_in_another_order():
    spec = {"type": "matrix", "variables": ["x"], "reference": [["2", "3"], ["x^2", "1"]],
            "equivalent_up_to": ["rows"]}
    assert grade("[[x*x, 1], [2, 3]]", spec).outcome == "correct"
    assert grade("[[x, 1], [2, 3]]", spec).outcome == "incorrect"


@pytest.mark.parametrize(("rule", "raw", "message"), [
    ("transpose", "[[1, 3], [2, 4]]", "transpose of the expected one"),
    ("sign", "[[-1, -2], [-3, -4]]", "negative of the expected one"),
    ("rows", "[[3, 4], [1, 2]]", "rows are right but in another order"),
    ("factor", "[[10, 20], [30, 40]]", "constant factor"),
])
def test_a_named_wrong_form_gets_the_authors_credit_and_feedback(rule, raw, message):
    result = grade(raw, _spec(partial_credit=[{"rule": rule, "credit": 0.5}]))
    assert (result.outcome, result.score, result.misconception) == ("partial", 0.5,
                                                                     f"rule:{rule}")
    assert message in result.feedback
    custom = grade(raw, _spec(partial_credit=[{"rule": rule, "credit": 0, "tag": "mine",
                                               "feedback": "Look again."}]))
    assert (custom.outcome, custom.score, custom.misconception, custom.feedback) == (
        "incorrect", 0.0, "mine", "Look again.")


def test_the_transpose_of_a_symmetric_key_is_the_key():
    spec = {"type": "matrix", "reference": [[1, 2], [2, 1]],
            "partial_credit": [{"rule": "transpose", "credit": 0.5}]}
    assert grade("[[1, 2], [2, 1]]", spec).outcome == "correct"
    assert grade("[[2, 1], [1, 2]]", spec).score == 0.0


def test_a_misconception_may_carry_credit_and_wins_over_a_rule():
    spec = _spec(misconceptions=[{"answer": "[[1, 3], [2, 4]]", "tag": "transposed",
                                  "feedback": "Rows are the queries.", "credit": 0.25}],
                 partial_credit=[{"rule": "transpose", "credit": 0.5}])
    result = grade("[[1, 3], [2, 4]]", spec)
    assert (result.outcome, result.score, result.misconception) == ("partial", 0.25,
                                                                     "transposed")


@pytest.mark.parametrize(("extra", "problem"), [
    ({"equivalent_up_to": ["constant"]}, "unknown relation 'constant'"),
    ({"equivalent_up_to": "rows"}, "must be a list of names"),
    ({"partial_credit": [{"rule": "power_of_ten", "credit": 0.5}]}, "'rule' must be one of"),
    ({"partial_credit": [{"rule": "sign", "credit": 2}]}, "'credit' must be a number"),
])
def test_bad_relations_and_rules_are_refused_at_sync(extra, problem):
    assert any(problem in p for p in validate_spec(_spec(**extra)))
    assert validate_spec(_spec(equivalent_up_to=["rows", "columns", "sign", "factor"],
                               partial_credit=[{"rule": "transpose", "credit": 0.5}])) == []


def test_a_misconception_the_relation_accepts_is_reported_at_sync():
    spec = _spec(equivalent_up_to=["rows"],
                 misconceptions=[{"answer": "[[3, 4], [1, 2]]", "tag": "swapped",
                                  "feedback": "Swap the rows."}])
    problems = self_check(spec, {})
    assert any("'swapped'" in p and "up to 'rows'" in p for p in problems)
    assert self_check(_spec(misconceptions=spec["misconceptions"]), {}) == []
