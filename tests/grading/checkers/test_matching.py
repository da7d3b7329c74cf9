"""Matching grids: rows matched to options, per-row credit."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check, validate_spec

GRID = {"type": "matching", "rows": ["a", "b", "c"], "columns": ["x", "y", "z"],
        "correct": {"a": "x", "b": "y", "c": "x"},
        "misconceptions": [{"answer": "b=x", "tag": "b-as-a", "feedback": "b is not like a."}]}


@pytest.mark.parametrize(("answer", "outcome", "score"), [
    # PrairieLearn docs/elements/pl-matching.md: partial credit for each correct match.
    ("a=x, b=y, c=x", "correct", 1.0),
    ("c: x; b: y; a: x", "correct", 1.0),
    ("a -> x\nb -> y\nc -> x", "correct", 1.0),
    ("a=x, b=z, c=x", "partial", 2 / 3),
    ("a=x", "partial", 1 / 3),
    ("a=y, b=z, c=y", "incorrect", 0.0),
])
def test_each_row_earns_its_share(answer, outcome, score):
    result = grade(answer, GRID)
    assert (result.outcome, result.score) == (outcome, pytest.approx(score))


def test_all_or_nothing_and_a_penalty_for_wrong_pairs():
    assert grade("a=x, b=z, c=x", {**GRID, "partial": False}).outcome == "incorrect"
    # Numbas' matching part: marks taken off for a wrong choice.
    assert grade("a=x, b=z, c=x", {**GRID, "penalty": 0.5}).score == pytest.approx(0.5)


def test_a_misconception_keeps_the_rows_credit():
    result = grade("a=x, b=x, c=x", GRID)
    assert result.misconception == "b-as-a"
    assert result.score == pytest.approx(2 / 3)


@pytest.mark.parametrize(("answer", "position", "words"), [
    ("a=x, d=y", 6, "unknown row 'd'"),
    ("a=xx", 3, "did you mean 'x'"),
    ("a=x, a=y", 6, "matched twice"),
    ("a x", 1, "row=option"),
])
def test_unreadable_answers_are_refused_where_they_go_wrong(answer, position, words):
    result = grade(answer, GRID)
    assert result.outcome == "invalid"
    assert result.position == position
    assert words in result.feedback


def test_distinct_options_and_spec_checks():
    spec = {**GRID, "correct": {"a": "x", "b": "y", "c": "z"}, "distinct": True}
    assert grade("a=x, b=x, c=z", spec).outcome == "invalid"
    assert self_check(spec, {}) == []
    assert self_check(GRID, {}) == []
    assert any("unknown option" in p for p in validate_spec({**GRID, "correct": {"a": "q"}}))


@settings(max_examples=40, deadline=None)
@given(st.permutations(["a=x", "b=y", "c=x"]))
def test_the_order_of_the_pairs_does_not_matter(pairs):
    assert grade(", ".join(pairs), GRID).outcome == "correct"


def test_a_pathological_answer_is_refused():
    assert grade("a=x, " * 1000, GRID).outcome == "invalid"
