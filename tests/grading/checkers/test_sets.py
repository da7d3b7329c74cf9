# ruff: noqa: RUF001 - maths symbols are the point here
"""Set answers: finite sets, intervals, unions; reduced form; brackets never ignored."""

import pytest

from grading.checkers import grade, self_check, validate_spec

UNION = {"type": "set", "reference": "(-oo, 0) U (1, oo)"}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("(-oo, 0) U (1, oo)", "correct"),
    ("(-inf,0)∪(1,∞)", "correct"),
    ("(1, oo) U (-oo, 0)", "correct"),
    ("(-∞, 0) union (1, +oo)", "correct"),
    ("(-oo, 0] U (1, oo)", "incorrect"),
    ("(-oo, 0) U [1, oo)", "incorrect"),
    ("(-oo, 0) U (2, oo)", "incorrect"),
    ("R", "incorrect"),
    ("(-oo, 0) U (1, 5) U [5, oo)", "incorrect"),  # equal, but not reduced
    ("{0, 1)", "invalid"),
    ("(0, 1", "invalid"),
    ("(2, 1)", "invalid"),
    ("(1, 1)", "invalid"),
    ("(0, 1, 2)", "invalid"),
    ("(-oo, 0) U", "invalid"),
    ("3", "invalid"),
    ("", "invalid"),
])
def test_union_of_two_rays(answer, outcome):
    assert grade(answer, UNION, {}).outcome == outcome


def test_an_unreduced_union_says_why_as_webwork_does():
    result = grade("(-oo, 0) U (1, 3) U (2, oo)", UNION, {})
    assert result.outcome == "incorrect"
    assert "overlapping intervals" in result.feedback


def test_an_unreduced_union_is_correct_when_the_author_allows_it():
    spec = {**UNION, "reduced": False}
    assert grade("(-oo, 0) U (1, 3) U [3, oo)", spec, {}).outcome == "correct"
    assert grade("(-oo, -1] U (-2, 0) U (1, oo)", spec, {}).outcome == "correct"


def test_brackets_of_an_interval_count():
    spec = {"type": "set", "reference": "(0, 1]"}
    assert grade("(0, 1]", spec, {}).outcome == "correct"
    wrong = grade("(0, 1)", spec, {})
    assert wrong.outcome == "incorrect"
    assert "type of interval" in wrong.feedback
    assert "left endpoint" in grade("(0.5, 1]", spec, {}).feedback


def test_mismatched_set_brackets_are_invalid_with_the_position():
    result = grade("{0, 1)", {"type": "set", "reference": "{0, 1}"}, {})
    assert result.outcome == "invalid"
    assert result.position == 6


@pytest.mark.parametrize("answer", ["∅", "{}", "{ }", "no solution", "None", "empty"])
def test_the_empty_set_has_many_spellings(answer):
    assert grade(answer, {"type": "set", "reference": "{}"}, {}).outcome == "correct"


def test_finite_sets_ignore_order_and_take_parameters():
    spec = {"type": "set", "reference": "{1, a, 3}"}
    assert grade("{3, 2, 1}", spec, {"a": 2}).outcome == "correct"
    assert grade("{3, 4/2, 1}", spec, {"a": 2}).outcome == "correct"
    repeated = grade("{1, 2, 2, 3}", spec, {"a": 2})
    assert repeated.outcome == "incorrect"
    assert "repeated" in repeated.feedback


def test_finite_set_partial_credit_as_webwork_lists():
    spec = {"type": "set", "reference": "{1, 2, 3}", "partial": True}
    result = grade("{1, 2, 5}", spec, {})
    assert result.outcome == "partial"
    assert result.score == pytest.approx(2 / 3)
    assert grade("{1, 2, 3, 4}", spec, {}).score == pytest.approx(3 / 4)


def test_a_point_adjoining_an_interval_reduces():
    spec = {"type": "set", "reference": "[0, 2)", "reduced": False}
    assert grade("{0} U (0, 2)", spec, {}).outcome == "correct"
    assert grade("[0, 1] U (1, 2)", spec, {}).outcome == "correct"
    assert grade("{0} U (0, 2)", {**spec, "reduced": True}, {}).outcome == "incorrect"


@pytest.mark.parametrize("answer", ["[-oo, 1]", "[-infinity, 1]", "(-2, 0) U [-∞, -3)"])
def test_an_infinite_end_must_be_open_as_webwork_says(answer):
    spec = {"type": "set", "reference": "(-oo, 1]"}
    result = grade(answer, spec, {})
    assert result.outcome == "invalid"
    assert "infinite endpoints must be open" in result.feedback


def test_open_infinite_ends_read_in_every_spelling():
    spec = {"type": "set", "reference": "(-oo, 1]"}
    for answer in ("(-oo, 1]", "(-infinity, 1]", "(-∞, 1]", "(-inf, 1]"):
        assert grade(answer, spec, {}).outcome == "correct"
    assert grade("(-oo, 1]", spec, {}).canonical == "(-oo, 1]"


def test_irrational_endpoints_compare_exactly_enough():
    spec = {"type": "set", "reference": "(-sqrt(2), sqrt(2))"}
    assert grade("(-2^(1/2), sqrt(8)/2)", spec, {}).outcome == "correct"
    assert grade("(-1.4142135624, 1.4142135624)", spec, {}).outcome == "correct"  # rtol 1e-9
    assert grade("(-1.414, 1.414)", spec, {}).outcome == "incorrect"


def test_the_whole_line():
    spec = {"type": "set", "reference": "R"}
    assert grade("(-oo, oo)", spec, {}).outcome == "correct"
    assert grade("ℝ", spec, {}).outcome == "correct"


def test_misconceptions_are_sets():
    spec = {**UNION, "misconceptions": [
        {"answer": "(0, 1)", "tag": "complement", "feedback": "That is the complement."}]}
    result = grade("(0, 1)", spec, {})
    assert result.misconception == "complement"
    assert self_check(spec, {}) == []


def test_spec_validation_and_self_check():
    assert validate_spec(UNION) == []
    assert self_check(UNION, {}) == []
    assert validate_spec({"type": "set", "reference": "{0, 1)"})
    assert validate_spec({"type": "set", "reference": ["1"]})
    bad = {**UNION, "misconceptions": [{"answer": "(1, oo) U (-oo, 0)", "tag": "t",
                                        "feedback": "f"}]}
    assert "same set" in self_check(bad, {})[0]


def test_did_you_mean_reaches_set_elements():
    result = grade("{1, sqr(2)}", {"type": "set", "reference": "{1, pi}"}, {})
    assert result.outcome == "invalid"
    assert "did you mean" in result.feedback


def test_pathological_sets_are_refused():
    huge = " U ".join(f"({i}, {i}.5)" for i in range(300))
    assert grade(huge, UNION, {}).outcome == "invalid"
    assert grade("{" + ",".join(["1"] * 600) + "}", UNION, {}).outcome == "invalid"
    assert grade("(" * 3000 + ")" * 3000, UNION, {}).outcome == "invalid"


def test_wrong_answers_group_by_the_set_they_name():
    # The dashboard groups wrong answers by canonical form: the same set written two ways
    # is one wrong answer.
    spec = {"type": "set", "reference": "{1, 2, 3}"}
    first, second = grade("{2, 1}", spec, {}), grade("{1, 4/2}", spec, {})
    assert first.outcome == second.outcome == "incorrect"
    assert first.canonical == second.canonical == "{1, 2}"


# Issue 41 item 3: an inequality answering an interval key where the author allows it.
SOLUTIONS = {"type": "set", "reference": "(-oo, -1) U (1, oo)", "inequality_variable": "x"}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("x < -1 or x > 1", "correct"), ("x^2 > 1", "correct"), ("|x| > 1", "correct"),
    ("(-oo, -1) U (1, oo)", "correct"), ("x > 1", "incorrect"), ("-1 < x < 1", "incorrect"),
])
def test_an_inequality_answers_an_interval_key_where_allowed(answer, outcome):
    # WeBWorK macros/contexts/contextInequalities.pl: inequalities and intervals compare as
    # the sets they describe.
    assert grade(answer, SOLUTIONS).outcome == outcome


def test_an_inequality_is_refused_where_not_allowed_and_where_unreadable():
    assert grade("x > 2", {"type": "set", "reference": "(2, oo)"}).outcome == "invalid"
    result = grade("x > 1 or y < -1", SOLUTIONS)
    assert (result.outcome, result.position) == ("invalid", 10)
    assert validate_spec({**SOLUTIONS, "inequality_variable": "2x"})


@pytest.mark.parametrize(("answer", "score"), [
    # mitodl/mitx-grading-library docs/grading_math/interval_grader.md: each half is worth
    # 50%, its endpoint and its bracket both right.
    ("[1, 2]", 1.0), ("[1, 2)", 0.5), ("(1, 2]", 0.5), ("[1, 3]", 0.5), ("(1, 3)", 0.0),
    ("[0, 3]", 0.0),
])
def test_per_end_credit_for_an_interval_where_the_author_asks(answer, score):
    spec = {"type": "set", "reference": "[1, 2]", "end_credit": True}
    assert grade(answer, spec).score == pytest.approx(score)
    assert grade(answer, {**spec, "end_credit": False}).score == (1.0 if score == 1 else 0.0)


@pytest.mark.parametrize(("answer", "outcome"), [
    ("]0, 1[ U [2, 3[", "correct"), ("(0, 1) U [2, 3)", "correct"),
    ("]0, 1] U [2, 3[", "incorrect"), ("]-oo, 0[", "incorrect"),
])
def test_outward_brackets_are_open_ends_where_the_author_allows(answer, outcome):
    # ISO 80000-2 interval notation (]a, b[), as WeBWorK's contextInterval offers it.
    spec = {"type": "set", "reference": "(0, 1) U [2, 3)", "reversed_brackets": True}
    assert grade(answer, spec).outcome == outcome


def test_outward_brackets_are_refused_with_their_position_elsewhere():
    result = grade("]0, 1[", {"type": "set", "reference": "(0, 1)"})
    assert (result.outcome, result.position) == ("invalid", 1)
