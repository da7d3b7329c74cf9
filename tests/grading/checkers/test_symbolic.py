# ruff: noqa: RUF001 - Greek letters and maths symbols are the point of these tests
"""Symbolic answers: equivalence by sampling, sympy only when sampling cannot decide."""

import pytest

from grading.checkers import grade, isolation, self_check, validate_spec
from grading.checkers.mathparse import parse
from grading.checkers.symbolic import compare

DECAY = ["c", "sigma_max", "T", "t"]
BOUND = {"type": "symbolic", "reference": "c*sigma_max^(T-t)", "variables": DECAY}

BOUND_CASES = [
    ("c sigma_max^(T-t)", "correct"),
    ("c*sigma_max^(T-t)", "correct"),
    ("c σ_max^(T−t)", "correct"),
    ("c·σ_max^(T − t)", "correct"),
    ("c sigma_{max}^{T-t}", "correct"),
    ("sigma_max^(T-t) c", "correct"),
    ("c sigma_max^T / sigma_max^t", "correct"),
    ("c sigma_max^T sigma_max^(-t)", "correct"),
    ("c exp((T-t) ln(sigma_max))", "correct"),
    ("c/sigma_max^(t-T)", "correct"),
    ("c (1/sigma_max)^(t-T)", "correct"),
    ("csigma_max^(T-t)", "correct"),
    ("c*sigma_max^(T-t) + 0", "correct"),
    ("2c sigma_max^(T-t)/2", "correct"),
    ("c*sigma_max^(t-T)", "incorrect"),
    ("sigma_max^(T-t)", "incorrect"),
    ("c sigma_max^T", "incorrect"),
    ("c sigma_max^(T-t-1)", "incorrect"),
    ("c sigma_max (T-t)", "incorrect"),
    ("c (T-t) sigma_max", "incorrect"),
    ("c^(T-t) sigma_max", "incorrect"),
    ("(c sigma_max)^(T-t)", "incorrect"),
    ("-c sigma_max^(T-t)", "incorrect"),
    ("c sigma_max^(T+t)", "incorrect"),
    ("c sigma_max^T - sigma_max^t", "incorrect"),
    ("c", "incorrect"),
]


@pytest.mark.parametrize(("answer", "outcome"), BOUND_CASES)
def test_gradient_bound_expression(answer, outcome):
    assert grade(answer, BOUND, {}).outcome == outcome


EQUIVALENCE = [
    # (answer, reference, variables, outcome)
    ("x^2", "x*x", ["x"], "correct"),
    ("2x", "x+x", ["x"], "correct"),
    ("x^2", "2x", ["x"], "incorrect"),
    ("2^x", "x^2", ["x"], "incorrect"),
    ("(x+1)^2", "x^2 + 2x + 1", ["x"], "correct"),
    ("(x+1)^2", "x^2 + 1", ["x"], "incorrect"),
    ("(x-y)(x+y)", "x^2 - y^2", ["x", "y"], "correct"),
    ("x y", "y x", ["x", "y"], "correct"),
    ("x/y", "y/x", ["x", "y"], "incorrect"),
    ("1/(2x)", "0.5/x", ["x"], "correct"),
    ("1/2x", "x/2", ["x"], "correct"),
    ("1/(2x)", "x/2", ["x"], "incorrect"),
    ("ln(x y)", "ln(x) + ln(y)", ["x", "y"], "correct"),
    ("log(x)", "ln(x)", ["x"], "correct"),
    ("log(x)", "log10(x)", ["x"], "incorrect"),
    ("log10(x)", "ln(x)/ln(10)", ["x"], "correct"),
    ("log2(x)", "ln(x)/ln(2)", ["x"], "correct"),
    ("log10(x)", "log2(x)", ["x"], "incorrect"),
    ("exp(2 ln x)", "x^2", ["x"], "correct"),
    ("e^x e^y", "exp(x+y)", ["x", "y"], "correct"),
    ("e^(xy)", "exp(x) exp(y)", ["x", "y"], "incorrect"),
    ("sqrt(x^2)", "x", ["x"], "correct"),  # variables are positive
    ("sqrt(x) sqrt(x)", "x", ["x"], "correct"),
    ("|x|", "x", ["x"], "correct"),
    ("sin^2(x) + cos^2(x)", "1", ["x"], "correct"),
    ("sin(2x)", "2 sin(x) cos(x)", ["x"], "correct"),
    ("sin(2x)", "2 sin(x)", ["x"], "incorrect"),
    ("tanh(x)", "(e^x - e^-x)/(e^x + e^-x)", ["x"], "correct"),
    ("tanh(x)", "sinh(x)/cosh(x)", ["x"], "correct"),
    ("1 - tanh(x)^2", "1/cosh(x)^2", ["x"], "correct"),
    ("1 - tanh^2(x)", "tanh(x)^2", ["x"], "incorrect"),
    ("σ^n", "sigma^n", ["sigma", "n"], "correct"),
    ("sigma^n", "sigma^(n-1)", ["sigma", "n"], "incorrect"),
    ("sigma^n", "n sigma", ["sigma", "n"], "incorrect"),
    ("sigma^(n+1)", "sigma sigma^n", ["sigma", "n"], "correct"),
    ("(1/2)^n", "2^-n", ["n"], "correct"),
    ("2^-n", "-2^n", ["n"], "incorrect"),
    ("-x^2", "-(x^2)", ["x"], "correct"),
    ("-x^2", "(-x)^2", ["x"], "incorrect"),
    ("x^(1/2)", "sqrt(x)", ["x"], "correct"),
    ("x^1/2", "sqrt(x)", ["x"], "incorrect"),
    ("alpha h_t + (1-alpha) h_s", "h_s + alpha (h_t - h_s)", ["alpha", "h_t", "h_s"], "correct"),
    ("alpha h_t + alpha h_s", "alpha (h_t + h_s)", ["alpha", "h_t", "h_s"], "correct"),
    ("alpha h_t + h_s", "alpha (h_t + h_s)", ["alpha", "h_t", "h_s"], "incorrect"),
    ("w1 h1 + w2 h2", "h1 w1 + h2 w2", ["w1", "w2", "h1", "h2"], "correct"),
    ("w1 h2 + w2 h1", "h1 w1 + h2 w2", ["w1", "w2", "h1", "h2"], "incorrect"),
    ("N", "N", ["N"], "correct"),
    ("N - 1", "N", ["N"], "incorrect"),
    ("N^2/N", "N", ["N"], "correct"),
    ("x + 0.001", "x", ["x"], "incorrect"),
    ("x + 1e-12", "x", ["x"], "incorrect"),  # a decimal means exactly that decimal
]


@pytest.mark.parametrize(("answer", "reference", "variables", "outcome"), EQUIVALENCE)
def test_equivalence(answer, reference, variables, outcome):
    spec = {"type": "symbolic", "reference": reference, "variables": variables}
    assert grade(answer, spec, {}).outcome == outcome


REAL_DOMAIN = [
    # (answer, reference, variables, outcome) with domain = "real"
    ("sqrt(x^2)", "x", ["x"], "incorrect"),
    ("sqrt(x^2)", "|x|", ["x"], "correct"),
    ("|x|", "x", ["x"], "incorrect"),
    ("(x^3)^(1/3)", "x", ["x"], "incorrect"),  # undefined for x < 0 by our real powers
    ("2 ln(x)", "ln(x^2)", ["x"], "incorrect"),  # ln(x^2) has a value for x < 0 too
    ("ln(x^2)", "2 ln(x)", ["x"], "correct"),  # agrees wherever the reference has a value
    ("x^2 - y^2", "(x - y)(x + y)", ["x", "y"], "correct"),
    ("tanh(-x)", "-tanh(x)", ["x"], "correct"),
    ("exp(2 ln x)", "x^2", ["x"], "incorrect"),  # undefined for x < 0, where x^2 is not
]


@pytest.mark.parametrize(("answer", "reference", "variables", "outcome"), REAL_DOMAIN)
def test_a_real_domain_samples_negative_values_too(answer, reference, variables, outcome):
    spec = {"type": "symbolic", "reference": reference, "variables": variables,
            "domain": "real"}
    assert grade(answer, spec, {}).outcome == outcome


def test_domain_must_be_positive_or_real():
    spec = {"type": "symbolic", "reference": "x", "variables": ["x"], "domain": "complex"}
    assert validate_spec(spec) == ["'domain' must be one of positive, real"]


def test_a_misconception_is_matched_over_the_declared_domain():
    spec = {"type": "symbolic", "reference": "|x|", "variables": ["x"], "domain": "real",
            "misconceptions": [{"answer": "x", "tag": "dropped-abs", "feedback": "x < 0?"}]}
    result = grade("x", spec, {})
    assert (result.outcome, result.misconception) == ("incorrect", "dropped-abs")
    undefined_below_zero = grade("sqrt(x)^2", spec, {})
    assert (undefined_below_zero.outcome, undefined_below_zero.misconception) == (
        "incorrect", None)


FUNCTION_CASES = [
    ("f(x) + f(x)", "2 f(x)", "correct"),
    ("f(2x)", "2 f(x)", "incorrect"),
    ("f(x)^2", "f(x) f(x)", "correct"),
    ("f(x^2)", "f(x)^2", "incorrect"),
    ("exp(ln(f(x)))", "f(x)", "correct"),
    ("f(x) g(x)", "g(x) f(x)", "correct"),
    ("f(g(x))", "g(f(x))", "incorrect"),
    ("f(x)", "g(x)", "incorrect"),
]


@pytest.mark.parametrize(("answer", "reference", "outcome"), FUNCTION_CASES)
def test_declared_functions_are_sampled_with_fixed_smooth_functions(answer, reference, outcome):
    spec = {"type": "symbolic", "reference": reference, "variables": ["x"],
            "functions": ["f", "g"]}
    assert grade(answer, spec, {}).outcome == outcome


def test_parameters_are_substituted_into_the_reference():
    spec = {"type": "symbolic", "reference": "c*sigma^(T-t)", "variables": ["c", "T", "t"]}
    assert grade("c 0.85^(T-t)", spec, {"sigma": 0.85}).outcome == "correct"
    assert grade("c 0.9^(T-t)", spec, {"sigma": 0.85}).outcome == "incorrect"


def test_undeclared_names_are_invalid_with_a_suggestion():
    result = grade("c sigm^(T-t)", BOUND, {})
    assert result.outcome == "invalid"
    assert "unknown name 'sigm'" in result.feedback
    assert "did you mean 'sigma_max'?" in result.feedback
    assert result.position == 3


def test_parameters_are_not_names_a_student_may_use():
    spec = {"type": "symbolic", "reference": "c*sigma^(T-t)", "variables": ["c", "T", "t"]}
    assert grade("c sigma^(T-t)", spec, {"sigma": 0.85}).outcome == "invalid"


def test_misconceptions_are_matched_by_equivalence():
    spec = {**BOUND, "misconceptions": [
        {"answer": "c*sigma_max^(t-T)", "tag": "reversed-exponent", "feedback": "Check T-t."},
        {"answer": "c*sigma_max*(T-t)", "tag": "linear-decay", "feedback": "It compounds."},
    ]}
    assert grade("c sigma_max^t / sigma_max^T", spec, {}).misconception == "reversed-exponent"
    assert grade("c (T-t) sigma_max", spec, {}).misconception == "linear-decay"
    assert grade("c sigma_max^(T-t)", spec, {}).misconception is None


def test_sign_and_constant_factor_hints():
    assert "wrong sign" in grade("-c sigma_max^(T-t)", BOUND, {}).feedback
    assert "constant factor" in grade("2 c sigma_max^(T-t)", BOUND, {}).feedback


def test_sympy_decides_when_no_sample_point_is_defined():
    a = parse("sqrt(-1 - x^2)", variables=["x"])
    same = parse("sqrt(-(x^2 + 1))", variables=["x"])
    other = parse("sqrt(-2 - x^2)", variables=["x"])
    assert compare(a, same, ["x"], budget=30).status == "equal"
    assert compare(a, same, ["x"], budget=30).decided_by == "sympy"
    assert compare(a, other, ["x"], budget=30).status in ("different", "unknown")


def test_an_undecidable_answer_goes_to_review(monkeypatch):
    monkeypatch.setattr(isolation, "sympy_equivalent", lambda *args, **kwargs: "unknown")
    spec = {"type": "symbolic", "reference": "sqrt(-1 - x^2)", "variables": ["x"]}
    result = grade("sqrt(-(1 + x^2))", spec, {})
    assert result.outcome == "review"
    assert result.score is None


def test_sampling_alone_decides_ordinary_answers(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("sympy should not be needed")

    monkeypatch.setattr(isolation, "sympy_equivalent", fail)
    assert grade("c sigma_max^T / sigma_max^t", BOUND, {}).outcome == "correct"
    assert grade("c sigma_max^(t-T)", BOUND, {}).outcome == "incorrect"


def test_canonical_and_latex_show_how_the_answer_was_read():
    result = grade("c σ_max^(T−t)", BOUND, {})
    assert result.canonical == "c*sigma_max^(T - t)"
    assert result.latex == r"c \cdot {\sigma_{\mathrm{max}}}^{T - t}"


def test_spec_validation_and_self_check():
    assert validate_spec(BOUND) == []
    assert self_check(BOUND, {}) == []
    spec = {"type": "symbolic", "reference": "c*sigma^(T-t)", "variables": ["c", "T", "t"]}
    assert self_check(spec, {"sigma": 0.85}) == []
    assert any("'reference'" in p for p in validate_spec({"type": "symbolic"}))
    assert any("cannot be read" in p
               for p in validate_spec({**BOUND, "reference": "c*(sigma_max"}))
    bad = {**BOUND, "misconceptions": [{"answer": "c sigma_max^T/sigma_max^t", "tag": "same",
                                        "feedback": "x"}]}
    assert any("equivalent to the reference" in p for p in self_check(bad, {}))


def test_an_answer_undefined_on_part_of_the_positive_domain_is_not_equivalent():
    spec = {"type": "symbolic", "reference": "x", "variables": ["x"]}
    assert grade("sqrt(x - 2)^2 + 2", spec, {}).outcome == "incorrect"
