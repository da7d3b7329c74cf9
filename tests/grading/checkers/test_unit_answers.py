"""A unit without a number as the whole answer (quantity parts with unit_mode = "only")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check, validate_spec

ACCELERATION = {"type": "quantity", "unit": "m/s^2", "unit_mode": "only", "misconceptions": [
    {"answer": "m/s", "tag": "speed-not-acceleration", "feedback": "That is a speed."}]}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("m/s^2", "correct"), ("m s^-2", "correct"), ("metre/sec^2", "correct"),
    ("m/s/s", "correct"), ("N/kg", "correct"), ("km/h^2", "incorrect"), ("kg", "incorrect"),
])
def test_a_unit_is_the_answer(answer, outcome):
    # STACK doc/en/Topics/Units.md keeps m/s apart from 1 m/s (NULLNUM): a unit alone.
    assert grade(answer, ACCELERATION).outcome == outcome


def test_exact_matching_wants_the_keys_unit_in_any_spelling():
    spec = {**ACCELERATION, "unit_match": "exact"}
    assert grade("metre·sec^-2", spec).outcome == "correct"
    assert grade("N/kg", spec).outcome == "incorrect"


def test_the_right_dimension_in_another_unit_is_told_so():
    result = grade("km/h^2", {**ACCELERATION, "unit_credit": 0.5})
    assert (result.outcome, result.score) == ("partial", 0.5)
    assert "an acceleration, as asked" in result.feedback


def test_a_misconception_and_a_did_you_mean():
    assert grade("m/s", ACCELERATION).misconception == "speed-not-acceleration"
    result = grade("m/ss", ACCELERATION)
    assert result.outcome == "invalid"
    assert result.position == 3
    assert "did you mean 's'" in result.feedback


def test_a_number_is_refused_where_it_is():
    result = grade("  3 m/s^2", ACCELERATION)
    assert result.outcome == "invalid"
    assert result.position == 3


def test_the_spec_needs_no_reference_and_checks_its_key():
    assert validate_spec(ACCELERATION) == []
    assert self_check(ACCELERATION, {}) == []


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["m", "metre", "meter"]), st.sampled_from(["s", "sec", "second"]),
       st.integers(min_value=1, max_value=3))
def test_every_spelling_of_the_key_is_the_key(metre, second, power):
    spec = {"type": "quantity", "unit": f"m/s^{power}", "unit_mode": "only",
            "unit_match": "exact"}
    assert grade(f"{metre}/{second}^{power}", spec).outcome == "correct"


def test_a_pathological_unit_is_refused():
    assert grade("m*" * 200 + "s", ACCELERATION).outcome == "invalid"
