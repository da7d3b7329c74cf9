"""Equation answers: same solution set (STACK's AlgEquiv rules), the key's form on request,
inequalities as sets of reals, systems."""

import pytest

from grading.checkers import grade, self_check, validate_spec

LINE = {"type": "equation", "reference": "y = 2x + 1", "variables": ["x", "y"]}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("y = 2x + 1", "correct"),
    ("2x + 1 = y", "correct"),          # swapped sides
    ("2y = 4x + 2", "correct"),         # scaled
    ("-3y = -6x - 3", "correct"),
    ("y - 2x - 1 = 0", "correct"),
    ("2x - y = -1", "correct"),
    ("y = 2x", "incorrect"),
    ("y = 2x + 1 + x - x", "correct"),
    ("y^2 = (2x + 1)^2", "incorrect"),  # gains roots
    ("y = 2x + 1 = 3", "invalid"),
    ("y > 2x + 1", "incorrect"),
    ("2x + 1", "invalid"),
    ("y = 2x + ", "invalid"),
    ("", "invalid"),
])
def test_a_line(answer, outcome):
    assert grade(answer, LINE, {}).outcome == outcome


def test_the_key_form_on_request():
    spec = {**LINE, "form": "sides"}
    assert grade("y = 2x + 1", spec, {}).outcome == "correct"
    assert grade("1 + 2x = y", spec, {}).outcome == "correct"
    result = grade("2y = 4x + 2", spec, {})
    assert result.outcome == "incorrect"
    assert "y on its own" in result.feedback


@pytest.mark.parametrize(("answer", "key", "outcome"), [
    # From STACK's AlgEquiv results for equations.
    ("x + y = 1", "y = 1 - x", "correct"),
    ("2*x + 2*y = 1", "y = 0.5 - x", "correct"),
    ("1/x + 1/y = 2", "y = x/(2*x - 1)", "correct"),
    ("x = 2 or x = -2", "x^2 = 4", "correct"),
    ("(x - 2)^2 = 0", "x = 2", "incorrect"),   # multiplicity counts
    ("x = y", "x^2 = y^2", "incorrect"),
    ("(x - y)*(x + y) = 0", "x^2 = y^2", "correct"),
    ("y = sqrt(1 - x^2)", "x^2 + y^2 = 1", "incorrect"),
    ("2 = 3", "1 = 4", "correct"),             # both have no solution
    ("x = x", "y = y", "correct"),             # both hold everywhere
    ("1 = 1", "x = 1", "incorrect"),
    ("x^6000 - x^6001 = x^5999", "x^5999*(1 - x + x^2) = 0", "correct"),
    ("y = sin(2x)", "y/2 = cos(x) sin(x)", "correct"),
])
def test_stack_equation_cases(answer, key, outcome):
    spec = {"type": "equation", "reference": key, "variables": ["x", "y"]}
    assert grade(answer, spec, {}).outcome == outcome


@pytest.mark.parametrize(("answer", "key", "outcome"), [
    # From STACK's AlgEquiv results for inequalities, and WeBWorK's Inequalities context.
    ("1 < x", "x > 1", "correct"),
    ("2 < 2*x", "x > 1", "correct"),
    ("-2 > -2*x", "x > 1", "correct"),
    ("x < 1", "x > 1", "incorrect"),
    ("x >= 1", "x > 1", "incorrect"),
    ("x > 2", "x > 1", "incorrect"),
    ("x^2 > 4", "x > 2 or x < -2", "correct"),
    ("x^2 < 4", "-2 < x < 2", "correct"),
    ("x^2 < 6", "-2 < x < 2", "incorrect"),
    ("x > 1 and x < 5", "5 > x and 1 < x", "correct"),
    ("1 < x or x < -3", "x < -3 or 1 < x", "correct"),
    ("1 < x or x < -3", "x < -1 or 3 < x", "incorrect"),
    ("x >= 1 and x <= 1", "x = 1", "correct"),
    ("x != 1", "x < 1 or x > 1", "correct"),
    ("x != 2", "x - 2 != 0", "correct"),
    ("x != 1", "x != 0", "incorrect"),
    ("2*x >= x^2", "x^2 <= 2*x", "correct"),
    ("-2 ≤ x < 5", "x >= -2 and x < 5", "correct"),
    ("x ≥ -2 and x < 5", "-2 <= x < 5", "correct"),
    ("x > 1 and x < -1", "x < 0 and x > 0", "correct"),  # both empty
])
def test_one_variable_inequalities_are_sets(answer, key, outcome):
    spec = {"type": "equation", "reference": key, "variables": ["x"]}
    assert grade(answer, spec, {}).outcome == outcome


@pytest.mark.parametrize(("answer", "key", "outcome"), [
    # Higher degrees, quotients and absolute values: solved by a sign chart, exactly.
    ("x^3 < 8", "x < 2", "correct"),
    ("x^3 <= 8", "x < 2", "incorrect"),           # the boundary point differs
    ("|x| < 2", "-2 < x < 2", "correct"),
    ("abs(x - 1) <= 2", "-1 <= x <= 3", "correct"),
    ("abs(x - 1) <= 2", "-1 < x <= 3", "incorrect"),
    ("|x - 3| > 1", "x < 2 or x > 4", "correct"),
    ("(x - 1)/(x + 2) >= 0", "x < -2 or x >= 1", "correct"),
    ("(x - 1)/(x + 2) >= 0", "x <= -2 or x >= 1", "incorrect"),  # the pole is not in it
    ("(x - 1)(x + 2) >= 0", "x < -2 or x >= 1", "incorrect"),
    ("x^4 - 5x^2 + 4 < 0", "-2 < x < -1 or 1 < x < 2", "correct"),
    ("(x - 1)^2 (x + 3) <= 0", "x <= -3 or x = 1", "correct"),
    ("x^3 > 2", "x > 2^(1/3)", "correct"),
    ("x^3 > 2", "x > 1.26", "incorrect"),
    ("1/x < 1", "x < 0 or x > 1", "correct"),
    ("x^2 + 1 > 0", "x^2 >= 0 or x < 0", "correct"),   # every real
    ("|x| < -1", "x > 1 and x < 0", "correct"),        # both empty
    ("||x| - 1| < 1/2", "-3/2 < x < -1/2 or 1/2 < x < 3/2", "correct"),
])
def test_higher_degree_quotient_and_absolute_value_inequalities_are_sets(answer, key,
                                                                          outcome):
    spec = {"type": "equation", "reference": key, "variables": ["x"]}
    assert grade(answer, spec, {}).outcome == outcome


def test_inequalities_in_several_variables_allow_positive_scaling_only():
    spec = {"type": "equation", "reference": "a < b", "variables": ["a", "b"]}
    assert grade("b > a", spec, {}).outcome == "correct"
    assert grade("3b > 3a", spec, {}).outcome == "correct"
    wrong_way = grade("a > b", spec, {})
    assert wrong_way.outcome == "incorrect"
    assert "wrong way" in wrong_way.feedback
    assert "boundary" in grade("a <= b", spec, {}).feedback


def test_a_chain_must_point_one_way():
    spec = {"type": "equation", "reference": "-2 <= x < 5", "variables": ["x"]}
    result = grade("-2 <= x > 5", spec, {})
    assert result.outcome == "invalid"
    assert result.position == 9


def test_systems_of_linear_equations_compare_their_solutions():
    spec = {"type": "equation", "reference": ["x + y = 3", "x - y = 1"],
            "variables": ["x", "y"]}
    for answer in ("x = 2, y = 1", "x + y = 3; x - y = 1", "x = 2 and y = 1",
                   "2x = 4, x + y = 3"):
        assert grade(answer, spec, {}).outcome == "correct", answer
    assert grade("x = 2, y = 2", spec, {}).outcome == "incorrect"
    assert grade("x = 2", spec, {}).outcome == "incorrect"


def test_parameters_in_the_key():
    spec = {"type": "equation", "reference": "y = a*x + b", "variables": ["x", "y"]}
    assert grade("y = 3x + 4", spec, {"a": 3, "b": 4}).outcome == "correct"
    assert grade("y = 4x + 3", spec, {"a": 3, "b": 4}).outcome == "incorrect"
    assert self_check(spec, {"a": 3, "b": 4}) == []


def test_misconceptions_are_equations():
    spec = {**LINE, "misconceptions": [{"answer": "y = 2x - 1", "tag": "sign",
                                        "feedback": "Check the sign of the intercept."}]}
    assert grade("y - 2x + 1 = 0", spec, {}).misconception == "sign"
    assert self_check(spec, {}) == []
    bad = {**LINE, "misconceptions": [{"answer": "2y = 4x + 2", "tag": "t", "feedback": "f"}]}
    assert "equivalent to the reference" in self_check(bad, {})[0]


def test_validation():
    assert validate_spec(LINE) == []
    assert validate_spec({**LINE, "form": "isolated"})
    assert validate_spec({**LINE, "reference": "y = = 2"})
    assert validate_spec({**LINE, "system": "yes"})


def test_positions_are_the_students_characters():
    result = grade("y = 2x + ?", LINE, {})
    assert result.outcome == "invalid"
    assert result.position == 10


def test_did_you_mean_in_a_side():
    spec = {**LINE, "reference": "y = sin(x)"}
    assert "did you mean" in grade("y = sni(x)", spec, {}).feedback


@pytest.mark.parametrize(("answer", "key", "outcome"), [
    # STACK's AlgEquiv fixtures: brackets group relations, 'and' binds tighter than 'or'.
    ("(x < 0 or x >= 1) and x <= 3", "x < 0 or (x >= 1 and x <= 3)", "correct"),
    ("(x < 0 or x >= 1) and x <= 3", "x < 0 or x >= 1 and x <= 3", "correct"),
    ("(x < 0 or x >= 1) and x <= 3", "(x < 0 or x >= 1) and x <= 3", "correct"),
    ("x > 1 or x < -1 and x < 2", "(x > 1 or x < -1) and x < 2", "incorrect"),
    ("x^2 - 3 != 1", "x < -2 or (-2 < x and x < 2) or 2 < x", "correct"),
    ("((x > 1))", "x > 1", "correct"),
    ("(x = 1 or x = 2)", "(x - 1)(x - 2) = 0", "correct"),
    ("(x + 1) > 2", "x > 1", "correct"),          # a bracketed side is not a group
])
def test_brackets_group_relations_and_are_multiplied_out(answer, key, outcome):
    spec = {"type": "equation", "reference": key, "variables": ["x"]}
    assert grade(answer, spec, {}).outcome == outcome


@pytest.mark.parametrize(("answer", "outcome"), [
    ("(x < 1)", "correct"),
    ("(" * 200 + "x < 1" + ")" * 200, "correct"),   # wrapping brackets are read at once
    ("(x < 1 and " * 15 + "x < 1" + ")" * 15, "correct"),
    ("(x < 1 and " * 25 + "x < 1" + ")" * 25, "invalid"),  # groups nested too deep
    ("(x + 1)", "invalid"),
    ("(x < 1 or)", "invalid"),
    (" and ".join(["(x < 1 or x > 2)"] * 7), "invalid"),  # 2^7 alternatives
])
def test_pathological_groups_are_refused_and_deep_brackets_read(answer, outcome):
    spec = {"type": "equation", "reference": "x < 1", "variables": ["x"]}
    assert grade(answer, spec, {}).outcome == outcome


# Issue 41 item 3: absolute values and infinite sides read as the sets they mean.
@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    # maths/moodle-qtype_stack tests/fixtures/answertestfixtures.class.php (AlgEquiv).
    ("abs(x)=abs(y)", "x=y or x=-y", "correct"),
    ("abs(x)=abs(y)", "(x-y)*(x+y)=0", "correct"),
    ("abs(x)=abs(y)", "x=y", "incorrect"),
    ("|x| = |y|", "x^2 = y^2", "correct"),
    ("|x| < |y|", "x^2 < y^2", "correct"),
    ("|x - 1| = |y|", "(x - 1 - y)*(x - 1 + y) = 0", "correct"),
])
def test_absolute_values_on_both_sides_are_their_squares(answer, reference, outcome):
    spec = {"type": "equation", "reference": reference, "variables": ["x", "y"]}
    assert grade(answer, spec).outcome == outcome


@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    ("x > -oo", "x != 1 or x = 1", "correct"),
    ("-oo < x < 3", "x < 3", "correct"),
    ("x < oo and x > 2", "x > 2", "correct"),
    ("x > oo", "x^2 < -1", "correct"),
    ("x <= oo", "x > 2", "incorrect"),
])
def test_a_relation_with_an_infinite_side_is_the_set_it_means(answer, reference, outcome):
    spec = {"type": "equation", "reference": reference, "variables": ["x"]}
    assert grade(answer, spec).outcome == outcome


@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    # WeBWorK macros/contexts/contextInequalities.pl: an interval answers an inequality.
    ("(-sqrt(2), sqrt(2))", "x^2 < 2", "correct"),
    ("[-sqrt(2), sqrt(2)]", "x^2 < 2", "incorrect"),
    ("(-oo, -1) U (1, oo)", "x^2 > 1", "correct"),
    ("{1, -1}", "x^2 = 1", "correct"),
    ("R", "x^2 >= 0", "correct"),
    ("{}", "x^2 < 0", "correct"),
    ("x^2 < 2", "x^2 < 2", "correct"),
])
def test_an_interval_answers_an_inequality_key_where_the_author_allows(answer, reference,
                                                                       outcome):
    spec = {"type": "equation", "reference": reference, "variables": ["x"],
            "set_answers": True}
    assert grade(answer, spec).outcome == outcome


def test_an_interval_is_refused_where_not_allowed_and_where_unreadable():
    spec = {"type": "equation", "reference": "x > 2", "variables": ["x"]}
    assert grade("(2, oo)", spec).outcome == "invalid"
    result = grade("(0, 1", {**spec, "set_answers": True})
    assert (result.outcome, result.position) == ("invalid", 1)
    assert validate_spec({**spec, "set_answers": "yes"})
