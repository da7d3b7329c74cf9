# ruff: noqa: RUF001 - logic symbols are the point of these tests
"""Logic answers: propositional formulas compared by truth table."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check, validate_spec

# maths/moodle-qtype_stack doc/en/Topics/Propositional_Logic.md: and, or, not, xor, implies,
# nand, nor, compared as Boolean functions (de Morgan, the contrapositive, implication as or).
IMPLIES = {"type": "logic", "reference": "p implies q", "variables": ["p", "q"],
           "misconceptions": [{"answer": "q implies p", "tag": "converse",
                               "feedback": "That is the converse."}]}


@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    ("not p or q", "p implies q", "correct"),
    ("not q implies not p", "p implies q", "correct"),       # contrapositive
    ("not (p and q)", "not p or not q", "correct"),         # de Morgan
    ("p nand q", "not (p and q)", "correct"),
    ("p nor q", "not p and not q", "correct"),
    ("(p or q) and not (p and q)", "p xor q", "correct"),
    ("p xnor q", "p iff q", "correct"),
    ("p or not p", "true", "correct"),
    ("p and not p", "false", "correct"),
    ("p and q", "p implies q", "incorrect"),
    ("p xor q", "p iff q", "incorrect"),
])
def test_formulas_are_compared_by_truth_table(answer, reference, outcome):
    spec = {"type": "logic", "reference": reference, "variables": ["p", "q"]}
    assert grade(answer, spec).outcome == outcome


@pytest.mark.parametrize("answer", ["~p | q", "¬p ∨ q", "!p || q", "p -> q", "p => q", "p → q",
                                    "~p \\/ q", "NOT p OR q"])
def test_the_usual_symbols_are_read(answer):
    assert grade(answer, IMPLIES).outcome == "correct"


def test_a_misconception_and_a_counterexample():
    assert grade("q -> p", IMPLIES).misconception == "converse"
    result = grade("p and q", {**IMPLIES, "show_counterexample": True})
    assert "For p = false, q = false your answer is false" in result.feedback


@pytest.mark.parametrize(("answer", "position", "words"), [
    ("p adn q", 3, "did you mean 'and'"),
    ("p and r", 7, "unknown name 'r'"),
    ("(p or q", 1, "missing ')'"),
    ("p or", 5, "ends too early"),
    ("p # q", 3, "unexpected '#'"),
])
def test_refusals_name_the_position(answer, position, words):
    result = grade(answer, IMPLIES)
    assert result.outcome == "invalid"
    assert result.position == position
    assert words in result.feedback


def test_spec_checks():
    assert self_check(IMPLIES, {}) == []
    assert validate_spec({**IMPLIES, "variables": ["p", "or"]})
    bad = {**IMPLIES, "misconceptions": [{"answer": "not p or q", "tag": "x", "feedback": ""}]}
    assert any("equivalent to the reference" in p for p in self_check(bad, {}))


_FORMULAS = st.recursive(
    st.sampled_from(["p", "q", "r", "true", "false"]),
    lambda inner: st.one_of(
        st.builds(lambda a: f"not ({a})", inner),
        st.builds(lambda a, op, b: f"({a}) {op} ({b})", inner,
                  st.sampled_from(["and", "or", "xor", "implies", "iff"]), inner)),
    max_leaves=8)


@settings(max_examples=80, deadline=None)
@given(_FORMULAS)
def test_a_formula_equals_its_double_negation_and_not_its_negation(formula):
    spec = {"type": "logic", "reference": formula, "variables": ["p", "q", "r"]}
    assert grade(f"not (not ({formula}))", spec).outcome == "correct"
    assert grade(f"not ({formula})", spec).outcome == "incorrect"


def test_twelve_variables_are_a_full_truth_table():
    names = [f"p{i}" for i in range(12)]
    spec = {"type": "logic", "reference": " and ".join(names), "variables": names}
    assert grade(" and ".join(reversed(names)), spec).outcome == "correct"
    assert grade(" or ".join(names), spec).outcome == "incorrect"
    assert len(list(itertools.product((0, 1), repeat=12))) == 4096


def test_pathological_formulas_are_refused():
    assert grade("(" * 60 + "p" + ")" * 60, IMPLIES).outcome == "invalid"
    assert grade(" and ".join(["p"] * 200), IMPLIES).outcome == "invalid"
