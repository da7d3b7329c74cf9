"""List answers: unordered multisets by default, ordered on request, duplicates rule,
partial credit, brackets never ignored."""

import pytest

from grading.checkers import grade, self_check, validate_spec

ROOTS = {"type": "list", "reference": ["2", "-3"]}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("2, -3", "correct"),
    ("-3, 2", "correct"),
    ("[-3, 2]", "correct"),
    ("(-3, 2)", "correct"),
    ("4/2, -9/3", "correct"),
    ("2", "incorrect"),
    ("2, 3", "incorrect"),
    ("2, -3, 2", "incorrect"),
    ("{2, -3}", "invalid"),
    ("(2, -3]", "invalid"),
    ("2,, -3", "invalid"),
    ("2, x", "invalid"),
    ("", "invalid"),
])
def test_roots_in_any_order(answer, outcome):
    assert grade(answer, ROOTS, {}).outcome == outcome


def test_length_hints_as_webwork():
    assert "more entries" in grade("2", ROOTS, {}).feedback
    assert "fewer entries" in grade("2, -3, 1", ROOTS, {}).feedback


def test_ordered_lists_compare_by_position_with_partial_credit():
    spec = {**ROOTS, "ordered": True, "partial": True}
    assert grade("2, -3", spec, {}).outcome == "correct"
    swapped = grade("-3, 2", spec, {})
    assert swapped.outcome == "incorrect"
    assert "not in the right order" in swapped.feedback
    half = grade("2, 5", spec, {})
    assert (half.outcome, half.score) == ("partial", 0.5)
    assert "Entry 2" in half.feedback


def test_unordered_partial_credit_is_right_over_the_longer_length():
    spec = {"type": "list", "reference": ["1", "2", "3"], "partial": True}
    assert grade("3, 1, 7", spec, {}).score == pytest.approx(2 / 3)
    assert grade("3, 1, 2, 7", spec, {}).score == pytest.approx(3 / 4)


def test_the_duplicates_rule():
    assert grade("2, -3, 2", {**ROOTS, "duplicates": "ignore"}, {}).outcome == "correct"
    refused = grade("2, -3, 2", {**ROOTS, "duplicates": "refuse"}, {})
    assert refused.outcome == "invalid"
    assert "entry 3 repeats entry 1" in refused.feedback
    double = {"type": "list", "reference": ["2", "2", "-3"]}
    assert grade("2, -3, 2", double, {}).outcome == "correct"
    assert grade("2, -3", double, {}).outcome == "incorrect"


def test_tolerance_applies_to_each_entry_and_matching_is_not_greedy():
    spec = {"type": "list", "reference": ["1", "1.05"], "atol": 0.06}
    # 1.04 fits both keys; greedy pairing with 1 would leave 0.99 unmatched.
    assert grade("1.04, 0.99", spec, {}).outcome == "correct"


def test_symbolic_entries():
    spec = {"type": "list", "reference": ["x^2", "2x"], "variables": ["x"]}
    assert grade("2x, x*x", spec, {}).outcome == "correct"
    assert grade("x^2, x", spec, {}).outcome == "incorrect"
    assert self_check(spec, {}) == []


def test_the_canonical_form_groups_permutations():
    assert grade("2, -3", ROOTS, {}).canonical == grade("-3, 2", ROOTS, {}).canonical


def test_a_list_parameter_as_reference():
    spec = {"type": "list", "reference": "states"}
    assert grade("3, -1, 1, 2", spec, {"states": [1, 3, -1, 2]}).outcome == "correct"
    assert self_check(spec, {"states": [1, 3, -1, 2]}) == []


def test_validation():
    assert validate_spec(ROOTS) == []
    assert validate_spec({**ROOTS, "duplicates": "maybe"})
    assert validate_spec({**ROOTS, "ordered": "yes"})
    bad = {**ROOTS, "misconceptions": [{"answer": ["-3", "2"], "tag": "t", "feedback": "f"}]}
    assert "would be graded correct" in self_check(bad, {})[0]


def test_misconceptions():
    spec = {**ROOTS, "misconceptions": [{"answer": ["-2", "3"], "tag": "sign",
                                         "feedback": "Check the signs."}]}
    assert grade("3, -2", spec, {}).misconception == "sign"


def test_huge_lists_are_refused():
    assert grade(", ".join(["1"] * 1500), ROOTS, {}).outcome == "invalid"
