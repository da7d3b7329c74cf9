"""The checker registry: its dispatch table, and what counts as the same answer twice."""

from pathlib import Path

import pytest

from grading.checkers import CHECKERS, DISPATCH, answer_key, checker_for
from grading.checkers.latex_input import LatexInput

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "adding-an-answer-type.md"

NUMERIC = {"type": "numeric", "reference": "0.5", "rtol": 0.01}
INTEGER = {"type": "integer", "reference": "1000"}
CHOICE = {"type": "choice", "options": [{"key": "a", "text": "A"}, {"key": "b", "text": "B"}],
          "correct": ["a"]}


@pytest.mark.parametrize(("spec", "same", "different"), [
    (NUMERIC, ["0.5", "0.50", "1/2", "5e-1", " 0.5 "], "0.51"),
    (INTEGER, ["1000", "1,000", "1e3", "10^3"], "1001"),
    (CHOICE, ["a", " a "], "b"),
])
def test_answers_with_the_same_value_share_a_key(spec, same, different):
    keys = {answer_key(typed, spec) for typed in same}
    assert len(keys) == 1 and None not in keys
    assert answer_key(different, spec) not in keys


def test_an_unreadable_answer_has_no_key():
    assert answer_key("0.5.5", NUMERIC) is None


def test_answers_beyond_the_float_range_keep_distinct_keys():
    spec = {"type": "numeric", "reference": "1"}
    assert answer_key("10^400", spec) != answer_key("10^401", spec)
    assert answer_key("10^400", spec) == answer_key("1e400", spec)
    assert answer_key("1e-320", spec) != answer_key("2e-320", spec)
    assert answer_key("0.5", spec) == answer_key("1/2", spec)


@pytest.mark.parametrize(("spec", "checker"), [
    ({"type": "numeric", "reference": "9.81", "units": "N/kg"}, "QuantityChecker"),
    ({"type": "numeric", "reference": "1 + i", "imaginary_unit": "i"}, "ComplexChecker"),
    ({"type": "symbolic", "reference": "z", "variables": ["z"], "imaginary_unit": "j"},
     "ComplexChecker"),
    ({"type": "symbolic", "reference": "x", "variables": ["x"], "units": "m"},
     "PlusMinusSymbolic"),  # units choose the quantity checker for numeric parts only
    ({"type": "quantity", "reference": "3 m"}, "QuantityChecker"),
])
def test_the_dispatch_table_chooses_the_checker(spec, checker):
    assert type(checker_for(spec)).__name__ == checker


def test_latex_wraps_whatever_checker_the_table_chose():
    chosen = checker_for({"type": "numeric", "reference": "1", "units": "m", "latex": True})
    assert isinstance(chosen, LatexInput)
    assert chosen.inner is CHECKERS["quantity"]


def test_an_unknown_type_is_refused():
    with pytest.raises(ValueError, match="unknown answer type 'vectr'"):
        checker_for({"type": "vectr"})


@pytest.mark.parametrize("route", DISPATCH, ids=lambda route: route.condition)
def test_the_contributor_guide_shows_every_dispatch_rule(route):
    rows = [line for line in GUIDE.read_text(encoding="utf-8").splitlines()
            if line.startswith("|") and route.condition in line]
    assert len(rows) == 1, route.condition
    assert type(route.checker).__name__ in rows[0]
    assert all(f"`{answer_type}`" in rows[0] for answer_type in route.types)
