"""Units as a teacher means them: spellings of one unit are one unit; SI teaching symbols."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, validate_spec
from grading.checkers.units import read_unit


def exact(reference: str, unit: str) -> dict:
    return {"type": "quantity", "reference": reference, "unit": unit, "rtol": 1e-9,
            "unit_match": "exact"}


@pytest.mark.parametrize(("answer", "unit"), [
    ("12 metre", "m"), ("12 meter", "m"), ("12 m", "metre"), ("12 meters", "m"),
    ("0.4 L", "l"), ("0.4 l", "L"), ("0.4 litre", "L"),
    ("3 sec", "s"), ("3 s", "sec"), ("3 seconds", "s"),
    ("9.81 metre/sec^2", "m/s^2"), ("9.81 m/sec/sec", "m·s^-2"),
])
def test_exact_unit_matching_compares_units_not_spellings(answer, unit):
    # STACK doc/en/Topics/Units.md: "The units system accepts both l and L for litres".
    number = answer.split()[0]
    assert grade(answer, exact(number, unit)).outcome == "correct"


@pytest.mark.parametrize(("answer", "unit"), [
    ("1200 mm", "m"), ("0.0012 km", "m"), ("400 ml", "l"), ("0.05 min", "s"),
])
def test_exact_matching_still_wants_the_teachers_unit(answer, unit):
    spec = exact({"m": "1.2", "l": "0.4", "s": "3"}[unit], unit)
    result = grade(answer, spec)
    assert result.outcome == "incorrect"
    assert f"Give the answer in {unit}." in result.feedback


@pytest.mark.parametrize(("symbol", "equivalent"), [
    ("G", "1e-4 T"),             # gauss in SI teaching (pint's own is the CGS gauss)
    ("gauss", "1e-4 T"),
    ("dpt", "1 m^-1"),           # dioptre (pint reads deci-pint)
    ("amu", "1.66053906660e-27 kg"),
    ("u", "1.66053906660e-27 kg"),
    ("ly", "9.4607304725808e15 m"),
])
def test_symbols_resolve_in_the_si_teaching_sense(symbol, equivalent):
    spec = {"type": "quantity", "reference": f"1 {symbol}", "rtol": 1e-8}
    assert grade(equivalent, spec).outcome == "correct"


def test_me_is_the_electron_mass_where_the_author_enables_it():
    spec = {"type": "quantity", "reference": "1", "unit": "me", "rtol": 1e-6,
            "unit_symbols": {"me": "electron_mass"}}
    assert validate_spec(spec) == []
    assert grade("9.1093837e-31 kg", spec).outcome == "correct"
    assert read_unit("me").dimension != read_unit("me", symbols={"me": "electron_mass"}).dimension


def test_an_author_may_choose_the_gravitational_constant_for_g():
    spec = {"type": "quantity", "reference": "1", "unit": "G", "rtol": 1e-4,
            "unit_symbols": {"G": "gravitational_constant"}}
    assert grade("6.6743e-11 m^3/(kg s^2)", spec).outcome == "correct"


def test_an_unknown_symbol_meaning_is_a_spec_problem():
    problems = validate_spec({"type": "quantity", "reference": "1", "unit": "m",
                              "unit_symbols": {"me": "milk"}})
    assert any("'unit_symbols'" in p and "electron_mass" in p for p in problems)


def test_a_misspelt_unit_gets_a_did_you_mean_with_its_position():
    result = grade("3 mtre", exact("3", "m"))
    assert result.outcome == "invalid"
    assert result.position == 3
    assert "did you mean" in result.feedback


def test_a_misconception_in_another_spelling_is_recognised():
    spec = {**exact("2", "m"), "misconceptions": [
        {"answer": "200", "unit": "cm", "tag": "kept-centimetres", "feedback": "Convert."}]}
    result = grade("200 centimetre", spec)
    assert result.misconception == "kept-centimetres"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=10**6),
       st.sampled_from(["m", "metre", "meter", "meters", "metres"]),
       st.sampled_from(["s", "sec", "second", "seconds"]))
def test_every_spelling_of_metres_per_second_is_exactly_m_per_s(value, metre, second):
    assert grade(f"{value} {metre}/{second}", exact(str(value), "m/s")).outcome == "correct"


def test_a_pathological_unit_is_refused():
    result = grade("1 " + "m*" * 60 + "m", exact("1", "m"))
    assert result.outcome == "invalid"
    assert "too long" in result.feedback
