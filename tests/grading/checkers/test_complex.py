"""Complex numbers: the imaginary_unit key, the three forms, Re/Im/abs/arg/conj, exact
Gaussian rationals, principal values, symbolic answers over the complex plane, messages."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import checker_for, grade, self_check, validate_spec
from grading.checkers.mathparse import parse
from grading.checkers.mathparse.complex_eval import complex_evaluate

ROOT = {"type": "numeric", "reference": "2*e^(i*pi/3)", "imaginary_unit": "i"}


@pytest.mark.parametrize("raw", [
    "2 e^(iπ/3)", "2e^(i pi/3)", "2(cos(π/3) + i sin(π/3))", "1 + sqrt(3) i", "1+√3i",
    "1 + 1.7320508075688772i", "1 + sqrt(-3)", "conj(1 - sqrt(3) i)", "|2i| e^(i arg(1 + √3 i))",
    "Re(1 + 5i) + Im(sqrt(3) i) i", "4/(1 - sqrt(3) i)",
])
def test_cartesian_polar_and_exponential_forms_are_one_value(raw):
    result = grade(raw, ROOT)
    assert result.outcome == "correct", (raw, result.feedback)


def test_values_are_exact_gaussian_rationals_while_rational():
    value = complex_evaluate(parse("(1 + 2i)^2 + 1/(1 + i)", imaginary="i"))
    assert value is not None and value.exact
    assert (value.real, value.imag) == (Fraction(-5, 2), Fraction(7, 2))
    exact = {"type": "numeric", "reference": "(3 + 4i)/5", "imaginary_unit": "i"}
    assert grade("0.6 + 0.8i", exact).outcome == "correct"
    assert grade("0.6 + 0.8000001i", exact).outcome == "incorrect"


def test_principal_values_in_complex_mode_and_a_clear_error_otherwise():
    two_i = {"type": "numeric", "reference": "2i", "imaginary_unit": "i"}
    assert grade("sqrt(-4)", two_i).outcome == "correct"
    assert grade("ln(-1)", {**two_i, "reference": "i pi"}).outcome == "correct"
    real = grade("sqrt(-4)", {"type": "numeric", "reference": "2"})
    assert (real.outcome, real.feedback) == (
        "invalid", "'sqrt(-4)' is not a real number (it is 2i): this part takes real numbers")
    plain = grade("1+2i", {"type": "numeric", "reference": "2"})
    assert plain.outcome == "invalid"
    assert "complex numbers are not expected in this answer" in plain.feedback
    assert "pi" not in plain.feedback


def test_i_stays_a_variable_without_the_key_and_j_can_be_the_unit():
    current = {"type": "symbolic", "variables": ["i", "R"], "reference": "i*R"}
    assert grade("R i", current).outcome == "correct"
    engineering = {"type": "numeric", "reference": "3 + 4j", "imaginary_unit": "j"}
    assert grade("3+4j", engineering).outcome == "correct"
    assert "the imaginary unit here is 'j'" in grade("3+4i", engineering).feedback
    assert validate_spec({**engineering, "variables": ["j"]}) == \
        ["'j' is the imaginary unit and cannot be a variable"]
    assert validate_spec({**engineering, "imaginary_unit": "k"}) == \
        ["'imaginary_unit' must be \"i\" or \"j\""]


def test_re_im_arg_conj_are_read_only_in_complex_mode():
    assert grade("Re(2)", {"type": "numeric", "reference": "2"}).outcome == "invalid"
    assert grade("arg(-1)", {**ROOT, "reference": "pi"}).outcome == "correct"
    assert grade("abs(3 + 4i)", {**ROOT, "reference": "5"}).outcome == "correct"


def test_hints_and_misconceptions():
    assert "sign of the imaginary part" in grade("1 - sqrt(3) i", ROOT).feedback
    assert "sign of your answer" in grade("-1 - sqrt(3) i", ROOT).feedback
    assert "imaginary part is missing" in grade("1", ROOT).feedback
    spec = {**ROOT, "reference": "r*e^(i*theta)",
            "misconceptions": [{"answer": "r*e^(-i*theta)", "tag": "conjugate",
                                "feedback": "The angle's sign."}]}
    params = {"r": 2, "theta": 0.5}
    assert grade("2 e^(0.5 i)", spec, params).outcome == "correct"
    assert grade("2 e^(-0.5 i)", spec, params).misconception == "conjugate"
    assert self_check(spec, params) == []


def test_tolerances_on_the_complex_plane_and_per_part():
    spec = {**ROOT, "rtol": 0.01}
    assert grade("1.005 + 1.73i", spec).outcome == "correct"
    figures = {**ROOT, "sigfigs": 3}
    assert grade("1.00 + 1.73i", figures).outcome == "correct"
    assert grade("1.00 + 1.74i", figures).outcome == "incorrect"


def test_symbolic_answers_over_the_complex_numbers():
    spec = {"type": "symbolic", "variables": ["t"], "reference": "e^(i*w*t)",
            "imaginary_unit": "i"}
    params = {"w": 2}
    assert grade("cos(2t) + i sin(2t)", spec, params).outcome == "correct"
    assert grade("cos(2t) - i sin(2t)", spec, params).outcome == "incorrect"
    assert self_check(spec, params) == []
    plane = {"type": "symbolic", "variables": ["z"], "reference": "conj(z)*z",
             "imaginary_unit": "i", "domain": "complex"}
    assert grade("|z|^2", plane).outcome == "correct"
    assert grade("z^2", plane).outcome == "incorrect"
    assert grade("z^2", {**plane, "domain": "real"}).outcome == "correct"
    assert self_check(plane, {}) == []


def test_self_check_of_the_key_and_spec_validation():
    assert validate_spec(ROOT) == []
    assert self_check(ROOT, {}) == []
    assert checker_for(ROOT).reference_answer({**ROOT, "reference": "(1+2i)^2"}, {}) == \
        "(-3) + (4)*i"
    same = {**ROOT, "misconceptions": [{"answer": "1 + sqrt(3) i", "tag": "t", "feedback": "f"}]}
    assert "would be graded correct" in self_check(same, {})[0]


def test_pathological_complex_answers_are_refused_or_undefined_quickly():
    assert grade("(1+i)^(10^10)", ROOT).outcome == "invalid"
    assert grade("9^9^9^9 i", ROOT).outcome == "invalid"
    assert grade("exp(exp(exp(1000 i)))", ROOT).outcome in ("incorrect", "invalid")


@settings(max_examples=80, deadline=None)
@given(st.fractions(min_value=-20, max_value=20, max_denominator=9),
       st.fractions(min_value=-20, max_value=20, max_denominator=9))
def test_forms_agree_and_the_canonical_form_reads_back(real, imag):
    spec = {"type": "numeric", "imaginary_unit": "i",
            "reference": f"({real}) + ({imag})*i"}
    cartesian = grade(f"({real}) + ({imag}) i", spec)
    assert cartesian.outcome == "correct"
    again = grade(cartesian.canonical.split(" ≈ ")[0], spec)
    assert again.outcome == "correct"
    # the float path (17-digit decimals) agrees with the exact one
    assert grade(f"{float(real)!r} + {float(imag)!r}i", spec).outcome == "correct"
    if real or imag:
        polar = f"abs({real} + ({imag})i) e^(i arg({real} + ({imag})i))"
        assert grade(polar, spec).outcome == "correct"
