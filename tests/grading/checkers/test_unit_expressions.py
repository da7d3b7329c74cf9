"""Quantities written as one product: a unit with a number inside, or a quotient."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade

# STACK doc/en/Authoring/Answer_Tests/Results/UnitsRelative.md: 1.1*Mg/10^6 against
# 1.2*kN*ns/(mm*Hz) (both kg), and STACK's fixture (-36*kJ)/mol.
MASS = {"type": "quantity", "reference": "1.2 kN*ns/(mm*Hz)", "rtol": 0.15}
STRESS = {"type": "quantity", "reference": "15000/pi", "unit": "N/mm^2", "rtol": 1e-9}


@pytest.mark.parametrize(("answer", "spec", "outcome"), [
    ("1.1*Mg/10^6", MASS, "correct"),
    ("1.1*Mg/10^6", {**MASS, "rtol": 0.05}, "incorrect"),
    ("(15*kN)/(pi*mm^2)", STRESS, "correct"),
    ("15*kN/(pi*mm^2)", STRESS, "correct"),
    ("(15 kN)/(pi mm^2)", STRESS, "correct"),
    ("(16*kN)/(pi*mm^2)", STRESS, "incorrect"),
    ("(-36*kJ)/mol", {"type": "quantity", "reference": "-36 kJ/mol", "unit_match": "exact"},
     "correct"),
    ("2*m/(4*s)", {"type": "quantity", "reference": "0.5 m/s"}, "correct"),
    ("(3 m)^2", {"type": "quantity", "reference": "9 m^2"}, "correct"),
])
def test_a_unit_with_a_number_inside_is_read(answer, spec, outcome):
    assert grade(answer, spec).outcome == outcome


@pytest.mark.parametrize(("answer", "position", "words"), [
    ("3 m + 2", 5, "added to a number"),
    ("3*sqrt(m)", 8, "inside a function"),
    ("2^m * 3", 3, "in an exponent"),
    ("(15*kN)/(pi*mmm^2)", 13, "unknown unit 'mmm'"),
])
def test_a_unit_that_is_not_a_factor_is_refused_where_it_is(answer, position, words):
    result = grade(answer, {"type": "quantity", "reference": "1 m"})
    assert result.outcome == "invalid"
    assert result.position == position
    assert words in result.feedback


def test_a_unit_alone_still_needs_its_number():
    result = grade("m/s", {"type": "quantity", "reference": "3 m/s"})
    assert result.outcome == "invalid"
    assert "type the number before the unit" in result.feedback


def test_a_misconception_meets_a_product_answer():
    spec = {**STRESS, "misconceptions": [
        {"answer": "15000", "unit": "N/mm^2", "tag": "forgot-area", "feedback": "Divide."}]}
    assert grade("(15*kN)/mm^2", spec).misconception == "forgot-area"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=999), st.integers(min_value=1, max_value=99))
def test_a_quotient_of_quantities_is_the_quantity_of_the_quotient(force, area):
    spec = {"type": "quantity", "reference": f"{force}/{area}", "unit": "kN/mm^2",
            "rtol": 1e-12}
    assert grade(f"({force}*kN)/({area}*mm^2)", spec).outcome == "correct"
    assert grade(f"({force}*kN)/({area}*mm^2)", {**spec, "unit": "N/m^2",
                                                 "reference": f"{force}/{area}*10^9"}
                 ).outcome == "correct"


def test_a_pathological_product_is_refused():
    answer = "(" * 45 + "2*m" + ")" * 45
    result = grade(answer, {"type": "quantity", "reference": "2 m"})
    assert result.outcome == "invalid"
    result = grade("2*" + "m*" * 20 + "s", {"type": "quantity", "reference": "2 m"})
    assert result.outcome == "invalid"


def test_refusals_of_a_product_name_their_position():
    result = grade("(3*m)/m", {"type": "quantity", "reference": "3 m"})
    assert (result.outcome, result.position) == ("invalid", 4)
    result = grade("(15*kN)/mm^2", {"type": "quantity", "reference": "3", "unit": "m",
                                    "unit_mode": "forbidden"})
    assert (result.outcome, result.position) == ("invalid", 5)
