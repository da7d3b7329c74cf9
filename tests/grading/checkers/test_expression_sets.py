"""Finite sets of expressions (a set part that declares variables): elements compared
symbolically in any order, repeated elements refused or dropped, misconceptions, the key in
a variant, and answers that are not braced sets refused with a reason."""

import pytest

from grading.checkers import CHECKERS, grade, self_check, validate_spec

ROOTS = {"type": "set", "variables": ["x"], "reference": "{a*x, -a*x}",
         "misconceptions": [{"answer": "{a*x}", "tag": "one-root",
                             "feedback": "A square has two roots."}]}
VARIANT = {"a": 2}


@pytest.mark.parametrize("raw", ["{2x, -2x}", "{-2x, 2x}", "{x*2, -(2x)}", "{ 4x/2 , -2x }"])
def test_equal_elements_in_any_order_are_correct(raw):
    assert grade(raw, ROOTS, VARIANT).outcome == "correct"


def test_a_wrong_or_missing_element_is_wrong_and_a_misconception_is_named():
    assert grade("{2x, 2x + 1}", ROOTS, VARIANT).outcome == "incorrect"
    extra = grade("{2x, -2x, 0}", ROOTS, VARIANT)
    assert "fewer elements in your set" in extra.feedback
    assert grade("{2x}", ROOTS, VARIANT).misconception == "one-root"


def test_partial_credit_counts_right_elements():
    result = grade("{2x, 3x}", {**ROOTS, "partial": True}, VARIANT)
    assert (result.outcome, result.score) == ("partial", 0.5)


def test_a_repeated_element_is_refused_unless_the_set_need_not_be_reduced():
    assert grade("{2x, x + x, -2x}", ROOTS, VARIANT).outcome == "invalid"
    assert grade("{2x, x + x, -2x}", {**ROOTS, "reduced": False}, VARIANT).outcome == \
        "correct"


@pytest.mark.parametrize(("raw", "message"), [
    ("2x, -2x", "write the set in braces"),
    ("(0, x]", "write the set in braces"),
    ("{2x, -2y}", "unknown name 'y'"),
    ("{2x, , -2x}", "entry 2 is missing"),
])
def test_what_is_not_a_set_of_expressions_is_invalid_with_a_reason(raw, message):
    result = grade(raw, ROOTS, VARIANT)
    assert result.outcome == "invalid" and message in result.feedback


@pytest.mark.parametrize("empty", ["{}", "∅", "no solution"])
def test_the_empty_set_equals_only_the_empty_set(empty):
    spec = {"type": "set", "variables": ["x"], "reference": "{}"}
    assert grade(empty, spec).outcome == "correct"
    assert grade("{x}", spec).outcome == "incorrect"
    assert grade(empty, ROOTS, VARIANT).outcome == "incorrect"


def test_the_key_shows_the_variants_numbers_and_checks_itself():
    assert CHECKERS["set"].reference_answer(ROOTS, VARIANT) == "{2*x, -2*x}"
    assert self_check(ROOTS, VARIANT) == []
    same = {**ROOTS, "misconceptions": [{"answer": "{-a*x, a*x}", "tag": "same",
                                         "feedback": "f"}]}
    assert any("same set as the reference" in p for p in self_check(same, VARIANT))


def test_an_unreadable_key_is_refused_at_sync():
    assert any("cannot be read" in p for p in validate_spec(
        {"type": "set", "variables": ["x"], "reference": "{x, , 1}"}))
    assert validate_spec(ROOTS) == []
