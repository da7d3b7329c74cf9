# ruff: noqa: RUF001 - unit symbols (µ, Ω, °, ·) are the point here
"""Quantities with units: reading, conversion, dimensions, the author's unit options,
declared units, misconceptions and hints."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import CHECKERS, grade, self_check, validate_spec
from grading.checkers.quantity import split_quantity
from grading.checkers.units import read_unit

SPEED = {"type": "quantity", "reference": "3.2", "unit": "m/s"}


@pytest.mark.parametrize("raw", [
    "3.2 m/s", "3.2 m·s^-1", "3.2 m s⁻¹", "3.2 m*s**-1", "3200 mm/s", "3.2m/s", "11.52 km/h",
    "0.0032 km/s", "(16/5) m/s", "3.2 meters/second", "3.2 * m/s", "3,2 m/s", "3.2 m/(s)",
    "320 cm/s", "3.2e3 mm/s", "3.2×10^-3 km/s",
])
def test_equivalent_quantities_are_correct(raw):
    result = grade(raw, SPEED)
    assert result.outcome == "correct", (raw, result.feedback)


def test_the_canonical_form_writes_the_unit_alike():
    assert grade("3.2 m·s^-1", SPEED).canonical == "3.2 m/s"
    assert grade("3.2 kg m s^-2", {"type": "quantity", "reference": "3.2", "unit": "N"}) \
        .canonical == "3.2 kg·m/s^2"
    assert grade("3.2 m/s", SPEED).latex == r"3.2\,\mathrm{m}\,\mathrm{s}^{-1}"


def test_a_dimension_mismatch_says_what_each_is():
    energy = {"type": "quantity", "reference": "2", "unit": "J"}
    assert grade("2 s", energy).feedback == "Not correct yet. This is a time; an energy was " \
                                           "expected."
    assert "This is a speed; a force was expected." in grade(
        "3 m/s", {"type": "quantity", "reference": "3", "unit": "N"}).feedback
    assert grade("9.81 N/kg", {"type": "quantity", "reference": "9.81", "unit": "m/s^2"}) \
        .outcome == "correct"


@pytest.mark.parametrize(("raw", "message"), [
    ("3.2", "a unit is needed after the number"),
    ("3.2 m/ss", "unknown unit 'ss' at character 7: did you mean 's'?"),
    ("m/s", "type the number before the unit"),
    ("3.2 m^(1/2)", "fractional power"),
    ("3.2 m^99", "not allowed"),
    ("10^10^10 m", "too large"),
    ("9^9^9^9 m", "too large"),
])
def test_unreadable_quantities_are_invalid(raw, message):
    result = grade(raw, SPEED)
    assert result.outcome == "invalid"
    assert message in result.feedback


def test_unit_modes():
    optional = {**SPEED, "unit_mode": "optional"}
    assert grade("3.2", optional).outcome == "correct"
    assert grade("3200 mm/s", optional).outcome == "correct"
    forbidden = {**SPEED, "unit_mode": "forbidden"}
    assert grade("3.2", forbidden).outcome == "correct"
    assert "type only the number" in grade("3.2 m/s", forbidden).feedback
    assert CHECKERS["quantity"].reference_answer(forbidden, {}) == "3.2"


def test_exact_unit_and_separate_credit_for_number_and_unit():
    exact = {"type": "quantity", "reference": "100", "unit": "km/h", "unit_match": "exact",
             "magnitude_credit": 0.5, "unit_credit": 0.25}
    assert grade("100 km/h", exact).outcome == "correct"
    assert grade("100 km·h^-1", exact).outcome == "correct"
    converted = grade("27.77777777778 m/s", exact)
    assert (converted.score, converted.feedback) == (0.5, "Not correct yet. Give the answer in "
                                                          "km/h.")
    number_only = grade("100 m/s", exact)
    assert (number_only.outcome, number_only.score) == ("partial", 0.5)
    unit_only = grade("90 km/h", exact)
    assert (unit_only.outcome, unit_only.score) == ("partial", 0.25)
    assert grade("100 s", exact).score == 0.5


@pytest.mark.parametrize(("raw", "outcome"), [
    ("-9.81 m/s/s", "correct"),         # STACK UnitsStrict: "not *that* strict"
    ("-9.81 m·s^-2", "correct"),
    ("-9.81 s^-1·m/s", "correct"),
    ("-981 cm/s/s", "incorrect"),       # the right quantity, another unit
])
def test_an_exact_unit_may_repeat_a_factor_as_a_power(raw, outcome):
    spec = {"type": "quantity", "reference": "-9.81", "unit": "m/s^2", "unit_match": "exact"}
    assert grade(raw, spec).outcome == outcome


@pytest.mark.parametrize(("raw", "outcome"), [
    ("25 g", "correct"),
    ("25.0 g", "invalid"),
    ("0.025 kg", "correct"),
    ("2.5e1 g", "correct"),
    ("26 g", "incorrect"),
    ("0.0250 kg", "invalid"),
])
def test_written_significant_figures_apply_to_the_number_of_a_quantity(raw, outcome):
    # STACK's Units test: the number must have n significant figures and be accurate to n.
    spec = {"type": "quantity", "reference": "0.025 kg", "written_sigfigs": 2, "sigfigs": 2}
    result = grade(raw, spec)
    assert result.outcome == outcome
    if outcome == "invalid":
        assert "significant figures" in result.feedback


def test_written_decimals_apply_to_a_numeric_part_with_units_and_its_key_meets_them():
    spec = {"type": "numeric", "units": "m", "reference": "1/3", "written_decimals": 2,
            "decimals": 2}
    assert grade("0.33 m", spec).outcome == "correct"
    assert grade("0.333 m", spec).outcome == "invalid"
    assert validate_spec(spec) == []
    assert self_check(spec, {}) == []


def test_prefixes_binary_prefixes_and_non_si_units():
    cases = [("1", "GiB", "1024 MiB"), ("1", "GiB", "8589934592 bit"), ("1", "kB", "8000 bit"),
             ("1", "kWh", "3.6 MJ"), ("1", "eV", "1.602176634e-19 J"), ("1", "mi", "1.609344 km"),
             ("1", "h", "60 min"), ("1", "L", "1000 mL"), ("1", "L", "1 dm^3"),
             ("25", "degC", "298.15 K"), ("25", "degC", "77 degF"), ("1", "atm", "101325 Pa"),
             ("5", "µm", "0.005 mm"), ("2", "kΩ", "2000 ohm")]
    for value, unit, answer in cases:
        spec = {"type": "quantity", "reference": value, "unit": unit}
        assert grade(answer, spec).outcome == "correct", (unit, answer)
    assert grade("1 GB", {"type": "quantity", "reference": "1", "unit": "GiB"}).outcome == \
        "incorrect"


def test_units_the_author_declares():
    spec = {"type": "quantity", "reference": "1000*N", "unit": "tokens",
            "declare_units": ["token", "FLOP", "parameter"]}
    params = {"N": 2}
    for raw in ("2000 tokens", "2 ktokens", "2000 token", "0.002 Mtoken"):
        assert grade(raw, spec, params).outcome == "correct", raw
    assert "This is a number of FLOPs; a number of tokens was expected." in \
        grade("2 kFLOP", spec, params).feedback
    rate = {"type": "quantity", "reference": "6e12", "unit": "FLOP/s", "declare_units": ["FLOP"]}
    assert grade("6 TFLOP/s", rate).outcome == "correct"
    assert "unknown unit 'tokens'" in grade("5 tokens", SPEED).feedback


def test_a_numeric_part_with_units_is_a_quantity():
    spec = {"type": "numeric", "reference": "9.81", "units": "N/kg"}
    assert validate_spec(spec) == []
    assert grade("9.81 m/s^2", spec).outcome == "correct"
    assert "an acceleration was expected" in grade("9.81 J", spec).feedback


def test_references_with_parameters_inline_units_and_misconceptions():
    spec = {"type": "quantity", "reference": "m*g*h", "unit": "J", "rtol": 0.01,
            "misconceptions": [{"answer": "m*g", "unit": "N", "tag": "force-not-energy",
                                "feedback": "Multiply by the height too."},
                               {"answer": "m*h", "tag": "no-g", "feedback": "Use g."}]}
    params = {"m": 2, "g": 9.81, "h": 10}
    assert grade("196.2 J", spec, params).outcome == "correct"
    assert grade("0.1962 kJ", spec, params).outcome == "correct"
    assert grade("19.62 N", spec, params).misconception == "force-not-energy"
    assert grade("20 J", spec, params).misconception == "no-g"
    assert self_check(spec, params) == []
    inline = {"type": "quantity", "reference": "9.81 m/s^2"}
    assert grade("981 cm/s^2", inline).outcome == "correct"
    assert self_check(inline, {}) == []


def test_conversion_hints():
    assert "factor of 1000" in grade("3200 m/s", SPEED).feedback
    assert "sign" in grade("-3.2 m/s", SPEED).feedback
    minutes = {"type": "quantity", "reference": "120", "unit": "s"}
    assert "factor of 60" in grade("120 min", minutes).feedback


def test_spec_validation():
    assert validate_spec(SPEED) == []
    assert "'unit' cannot be read: unknown unit 'mtrs'" in \
        validate_spec({**SPEED, "unit": "mtrs"})[0]
    assert validate_spec({**SPEED, "unit_mode": "sometimes"}) != []
    assert validate_spec({**SPEED, "magnitude_credit": 2}) != []
    assert validate_spec({**SPEED, "declare_units": ["bad name"]}) != []
    wrong = {**SPEED, "misconceptions": [{"answer": "3200", "unit": "mm/s", "tag": "t",
                                          "feedback": "f"}]}
    assert "would be graded correct" in self_check(wrong, {})[0]


def test_unit_reading_never_evaluates_text():
    for text in ("__import__('os')", "m; import os", "eval(1)", "m.__class__", "m[0]"):
        with pytest.raises(ValueError):  # FormatError is a ValueError
            read_unit(text)


def test_the_split_between_number_and_unit():
    assert split_quantity("1.5e3 m") == ("1.5e3 ", "m", 6)
    assert split_quantity("1.5x10^3 m") == ("1.5x10^3 ", "m", 9)
    assert split_quantity("sqrt(2) m") == ("sqrt(2) ", "m", 8)
    assert split_quantity("2 pi rad") == ("2 pi ", "rad", 5)


UNITS = [("m", 1), ("km", 1000), ("mm", Fraction(1, 1000)), ("cm", Fraction(1, 100)),
         ("µm", Fraction(1, 10**6)), ("mi", Fraction(1609344, 1000)), ("ft", Fraction(3048, 10000))]


@settings(max_examples=80, deadline=None)
@given(st.fractions(min_value=Fraction(1, 1000), max_value=10**6, max_denominator=1000),
       st.sampled_from(UNITS), st.sampled_from(UNITS))
def test_a_random_conversion_grades_equal_and_reads_back(value, given_unit, asked_unit):
    asked, asked_factor = asked_unit
    unit, factor = given_unit
    spec = {"type": "quantity", "reference": f"{value.numerator}/{value.denominator}",
            "unit": asked}
    converted = value * asked_factor / factor  # the same length in the other unit
    raw = f"({converted.numerator}/{converted.denominator}) {unit}"
    first = grade(raw, spec)
    assert first.outcome == "correct"
    # float path: the converted value as a 17-digit decimal is within the default rtol
    assert grade(f"{float(converted)!r} {unit}", spec).outcome == "correct"
    again = grade(first.canonical.split(" ≈ ")[0] + " " + unit, spec)
    assert again.outcome == "correct"
