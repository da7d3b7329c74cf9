# ruff: noqa: RUF001 - maths symbols are the point of these tests
"""Precision decided exactly: rounding, written forms, decimals in symbolic answers, sampling
that magnitude cannot fool, and the float edge cases (subnormals, huge values, infinities)."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import answer_key, grade, self_check, validate_spec
from grading.checkers.mathparse import parse
from grading.checkers.notation import decimals_written, sigfigs_written
from grading.checkers.numeric import read_plain_number
from grading.checkers.quantities import Number, round_decimals, round_sigfigs
from grading.checkers.tolerance import Tolerance


def numeric(reference, **keys):
    return {"type": "numeric", "reference": reference, **keys}


# --------------------------------------------------------------------------- exact rounding

@pytest.mark.parametrize(("value", "figures", "rounded", "quantum"), [
    ("0.01235", 3, "0.0124", "0.0001"),  # the binary float of 0.01235 lies just below it
    ("-0.01235", 3, "-0.0124", "0.0001"),  # half away from zero, on both sides
    ("0.01225", 3, "0.0123", "0.0001"),
    ("2.5", 1, "3", "1"),
    ("-2.5", 1, "-3", "1"),
    ("9.996", 3, "10.0", "0.1"),  # rounds up to the next power of ten
    ("0.0015023", 2, "0.0015", "0.0001"),
    ("123456", 2, "120000", "10000"),
])
def test_significant_figures_round_exactly_half_away_from_zero(value, figures, rounded, quantum):
    assert round_sigfigs(Fraction(value), figures) == (Fraction(rounded), Fraction(quantum))


@pytest.mark.parametrize(("value", "decimals", "rounded"), [
    ("0.125", 2, "0.13"), ("-0.125", 2, "-0.13"), ("1.005", 2, "1.01"), ("2.675", 2, "2.68"),
    ("0.5", 0, "1"), ("1234.5", -2, "1200"),
])
def test_decimals_round_exactly_half_away_from_zero(value, decimals, rounded):
    assert round_decimals(Fraction(value), decimals) == Fraction(rounded)


SIGFIG_CASES = [
    ("0.0124", "0.01235", 3, "correct"),
    ("0.0123", "0.01235", 3, "incorrect"),
    ("1.24e-2", "0.01235", 3, "correct"),
    ("0.01236", "0.01235", 3, "correct"),  # rounds to 0.0124 and within half a unit
    ("-0.0124", "-0.01235", 3, "correct"),
    ("-0.0123", "-0.01235", 3, "incorrect"),
    ("1.01", "1.005", 3, "correct"),  # 1.005 is a tie in decimal, below it in binary
    ("1.00", "1.005", 3, "incorrect"),
    ("2.68", "2.675", 3, "correct"),
    ("10.0", "9.996", 3, "correct"),
    ("9.99", "9.996", 3, "incorrect"),
    ("0.17", "0.95^35", 2, "correct"),
    ("0.1748", "0.95^35", 2, "incorrect"),  # rounds to 0.17 but is not within half a unit
    ("1.41", "sqrt(2)", 3, "correct"),
    ("1.42", "sqrt(2)", 3, "incorrect"),
    ("0", "0", 2, "correct"),
    ("1e-30", "0", 2, "incorrect"),
]


@pytest.mark.parametrize(("answer", "reference", "figures", "outcome"), SIGFIG_CASES)
def test_significant_figures_compare_with_the_exactly_rounded_reference(
        answer, reference, figures, outcome):
    assert grade(answer, numeric(reference, sigfigs=figures), {}).outcome == outcome


@pytest.mark.parametrize(("answer", "reference", "decimals", "outcome"), [
    ("1.01", "1.005", 2, "correct"), ("1.00", "1.005", 2, "incorrect"),
    ("0.13", "0.125", 2, "correct"), ("0.12", "0.125", 2, "incorrect"),
    ("-0.13", "-0.125", 2, "correct"), ("3", "2.5", 0, "correct"), ("2", "2.5", 0, "incorrect"),
])
def test_decimal_places_compare_with_the_exactly_rounded_reference(answer, reference,
                                                                     decimals, outcome):
    assert grade(answer, numeric(reference, decimals=decimals), {}).outcome == outcome


def test_the_rounded_key_is_always_accepted():
    for reference in ("0.01235", "1.005", "2.675", "9.996", "1/3", "pi", "-0.000123456"):
        for figures in range(1, 8):
            spec = numeric(reference, sigfigs=figures, written_sigfigs=figures)
            assert self_check(spec, {}) == [], (reference, figures)


# --------------------------------------------------------------------------- written forms

@pytest.mark.parametrize(("text", "figures"), [
    ("-247*10^-4", (3, 3)), ("-2.47×10^-2", (3, 3)), ("-2.47e-2", (3, 3)),
    ("2.470·10⁻²", (4, 4)), ("-247×10^(-4)", (3, 3)), ("0.00150", (3, 3)),
])
def test_scientific_forms_count_their_significant_figures(text, figures):
    assert sigfigs_written(parse(text).node) == figures


@pytest.mark.parametrize(("text", "places"), [
    ("2.50", 2), ("5.00", 2), ("2.5", 1), ("25", 0), ("-0.125", 3), ("1.5e-3", 4),
    ("2.5e1", 0), ("2.50×10^-1", 3), ("x+1", None),
])
def test_decimal_places_as_written(text, places):
    assert decimals_written(parse(text, variables=["x"]).node) == places


@pytest.mark.parametrize(("answer", "places", "outcome"), [
    ("2.5", 1, "correct"), ("2.50", 1, "invalid"), ("5.00", 4, "invalid"), ("2.5000", 4, "correct"),
    ("5/2", 1, "invalid"), ("3", 0, "correct"), ("2.4", 1, "incorrect"),
])
def test_written_decimal_places_are_a_format_requirement(answer, places, outcome):
    spec = numeric("2.5" if places else "3", written_decimals=places)
    result = grade(answer, spec, {})
    assert result.outcome == outcome, result
    if outcome == "invalid" and "/" not in answer:
        unit = "place" if places == 1 else "places"
        assert f"write exactly {places} decimal {unit}" in result.feedback


def test_written_forms_validate_and_self_check():
    assert validate_spec(numeric("2.5", written_decimals=16)) == [
        "'written_decimals' must be a whole number from 0 to 15"]
    assert self_check(numeric("1/3", written_decimals=3, rtol=0.01), {}) == []
    assert self_check(numeric("0.01235", written_sigfigs=3, sigfigs=3), {}) == []


# --------------------------------------------------------------------------- decimal comma

@pytest.mark.parametrize(("raw", "read"), [
    ("0,0015", "0.0015"), ("-0,5", "-0.5"), ("2,5", "2.5"), ("1,5e-3", "1.5e-3"),
    ("0,500", "0.500"), ("1,000", "1000"), ("12,345,678.5", "12345678.5"), ("１,５", "1.5"),
    ("1,2,3", "1,2,3"), ("max(1,2)", "max(1,2)"),
])
def test_an_unambiguous_decimal_comma_is_read_as_a_point(raw, read):
    assert read_plain_number(raw) == read


def test_a_decimal_comma_answer_is_graded_and_shown_with_a_point():
    result = grade("0,0015", numeric("0.85^40", rtol=0.02), {})
    assert (result.outcome, result.canonical) == ("correct", "0.0015")
    assert grade("1,5", numeric("1.5"), {}).outcome == "correct"
    assert "use a point for decimals" in grade("1,2,3", numeric("1"), {}).feedback


# --------------------------------------------------------------------------- symbolic decimals

@pytest.mark.parametrize(("answer", "reference", "variables", "outcome"), [
    ("0.6666666667*y", "2y/3", ["y"], "incorrect"),
    ("0.9999999", "1", [], "incorrect"),
    ("e^(0.3333333*k)", "e^(k/3)", ["k"], "incorrect"),
    ("0.5 x", "x/2", ["x"], "correct"),
    ("0.333333333333333333333333333333333333333333333333333333333333 x", "x/3", ["x"],
     "incorrect"),
    ("x + 1e-30", "x", ["x"], "incorrect"),
    ("1.5e-3 x", "3x/2000", ["x"], "correct"),
])
def test_a_decimal_in_a_symbolic_answer_means_exactly_that_decimal(answer, reference,
                                                                    variables, outcome):
    spec = {"type": "symbolic", "reference": reference, "variables": variables}
    assert grade(answer, spec, {}).outcome == outcome


def test_authors_accept_approximate_forms_with_a_tolerance():
    spec = {"type": "symbolic", "reference": "2y/3", "variables": ["y"], "rtol": 1e-6}
    assert grade("0.6666666667*y", spec, {}).outcome == "correct"
    assert grade("0.67*y", spec, {}).outcome == "incorrect"
    assert validate_spec({**spec, "rtol": 2}) == ["'rtol' must be a number from 0 to below 1"]


# --------------------------------------------------------------------------- magnitude

FACTORED = "(x + 1000)^4 (x - 999)^4 (x + 1001)^4"


def _expanded(constant_shift: int = 0) -> str:
    import sympy

    x = sympy.Symbol("x")
    poly = sympy.Poly(sympy.expand((x + 1000) ** 4 * (x - 999) ** 4 * (x + 1001) ** 4), x)
    terms = [f"{c}*x^{k[0]}" for k, c in poly.terms()]
    text = " + ".join(terms)[:-len("*x^0")]
    return f"{text} + {constant_shift}" if constant_shift else text


def test_an_expanded_degree_12_polynomial_differing_by_one_is_refuted():
    spec = {"type": "symbolic", "reference": FACTORED, "variables": ["x"]}
    assert grade(_expanded(), spec, {}).outcome == "correct"
    assert grade(_expanded(1), spec, {}).outcome == "incorrect"


@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    ("sqrt(10^14+1) - 10^7", "1/(sqrt(10^14+1) + 10^7)", "correct"),
    ("sqrt(10^14+1) - 10^7", "1/(2*10^7)", "incorrect"),
    ("sqrt(10^20 + 1) - 10^10", "1/(sqrt(10^20 + 1) + 10^10)", "correct"),
    ("(1 + 10^-15) - 1", "10^-15", "correct"),
    ("ln(1 + 10^-20)", "10^-20", "incorrect"),
])
def test_constant_expressions_that_cancel_catastrophically_are_decided_exactly(
        answer, reference, outcome):
    spec = {"type": "symbolic", "reference": reference}
    assert grade(answer, spec, {}).outcome == outcome
    assert grade(answer, numeric(reference, rtol=1e-30), {}).outcome == outcome


@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    ("(x-b)^4000", "(b-x)^4000", "correct"),
    ("(x-b)^4001", "-(b-x)^4001", "correct"),
    ("(x-b)^4001", "(b-x)^4001", "incorrect"),
    ("(x-b)^4000", "(x-b)^3999 (x-b)", "correct"),
    ("x^100000", "(x^1000)^100", "correct"),
    ("(x+1)^5000", "(x+1)^5001", "incorrect"),
])
def test_large_whole_exponents_on_symbols_are_graded(answer, reference, outcome):
    spec = {"type": "symbolic", "reference": reference, "variables": ["x", "b"]}
    assert validate_spec(spec) == [] and self_check(spec, {}) == []
    assert grade(answer, spec, {}).outcome == outcome


def test_the_size_limits_stay_for_constants():
    for text in ("9^9^9^9", "2^1001", "10^1000000", "(10^100)!", "x^(10^6)"):
        result = grade(text, {"type": "symbolic", "reference": "x", "variables": ["x"]}, {})
        assert result.outcome == "invalid", text


# --------------------------------------------------------------------------- float edges (11.3)

EDGE_ANSWERS = ["1e-320", "5e-324", "61e-319", "4.9e-324", "2.2250738585072014e-308", "-5e-324",
                "1e308", "1.7976931348623157e308", "1e-999", "9e999", "0e-999", "10^400",
                "10^-400", "1/10^400", "2^1000", "2^-1000", "(2^-1000)^0.5", "-0", "0.0"]
EDGE_REFERENCES = ["0.85^40", "0", "5e-324", "1e-310", "1e308", "10^400", "10^-400", "-1e-320"]
EDGE_TOLERANCES = [{}, {"rtol": 0.01}, {"atol": 1e-3}, {"atol": 0}, {"sigfigs": 2},
                   {"decimals": 3}, {"decades": 1}, {"rtol": 0.5, "decades": 2}]


@pytest.mark.parametrize("answer", EDGE_ANSWERS)
def test_float_edge_answers_never_crash_the_numeric_or_vector_checker(answer):
    for reference in EDGE_REFERENCES:
        for tolerance in EDGE_TOLERANCES:
            result = grade(answer, numeric(reference, **tolerance), {})
            assert result.outcome in ("correct", "incorrect", "invalid")
            vector = {"type": "vector", "reference": [reference, "1"], **tolerance}
            assert grade(f"[{answer}, 1]", vector, {}).outcome in (
                "correct", "incorrect", "invalid", "partial")
    assert answer_key(answer, numeric("1")) is None or answer_key(answer, numeric("1"))


@pytest.mark.parametrize(("answer", "reference", "outcome"), [
    ("5e-324", "5e-324", "correct"), ("4.9e-324", "5e-324", "incorrect"),
    ("1e-320", "1e-320", "correct"), ("61e-319", "6.1e-318", "correct"),
    ("10^400", "10^400", "correct"), ("10^400", "10^400 + 1", "correct"),
    ("1e308", "1e308", "correct"), ("1e-320", "0.85^40", "incorrect"),
])
def test_subnormal_and_huge_values_compare_exactly(answer, reference, outcome):
    assert grade(answer, numeric(reference), {}).outcome == outcome


def test_infinity_where_the_spec_allows_it():
    spec = numeric("-oo", allow_infinity=True)
    for typed in ("-oo", "-∞", "-infty + 99", "-Inf", "-infinity", "1 - oo"):
        assert grade(typed, spec, {}).outcome == "correct", typed
    assert grade("oo", spec, {}).outcome == "incorrect"
    assert grade("-10^300", spec, {}).outcome == "incorrect"
    assert grade("oo - oo", spec, {}).outcome == "invalid"
    refused = grade("-oo", numeric("1"), {})
    assert refused.outcome == "invalid" and "infinity" in refused.feedback
    assert self_check(spec, {}) == []


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False),
       st.floats(allow_nan=False, allow_infinity=False),
       st.sampled_from(EDGE_TOLERANCES))
def test_any_float_answer_against_any_float_reference_is_graded(answer, reference, tolerance):
    result = grade(repr(answer), numeric(repr(reference), **tolerance), {})
    assert result.outcome in ("correct", "incorrect", "invalid")
    if answer == reference and result.outcome != "invalid":
        assert result.outcome == "correct"


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.floats(), st.fractions()), st.one_of(st.floats(), st.fractions()),
       st.sampled_from(EDGE_TOLERANCES))
def test_tolerance_accepts_never_raises(a, b, tolerance):
    def number(value):
        if isinstance(value, Fraction):
            return Number.of_fraction(value)
        return Number(value)

    assert isinstance(Tolerance.from_spec(tolerance or {"rtol": 1e-9}).accepts(
        number(a), number(b)), bool)


def test_huge_exact_answers_are_shown_from_their_exact_value():
    result = grade("10^400", numeric("10^400"), {})
    assert result.canonical == "10^400 ≈ 1e400"
    assert not math.isinf(float(Fraction(1, 10**400) * 10**400))
