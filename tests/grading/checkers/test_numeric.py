# ruff: noqa: RUF001 - maths symbols are the point of these tests
"""Numeric answers: expressions accepted, tolerances, misconceptions, Module 5's Apply 1 and 3."""

import pytest

from grading.checkers import CHECKERS, grade, self_check, validate_spec
from grading.checkers.mathparse import parse
from grading.checkers.notation import sigfigs_written
from grading.checkers.numeric import Tolerance
from grading.checkers.refs import Number

APPLY_1 = {
    "type": "numeric",
    "reference": "sigma^steps",
    "rtol": 0.01,
    "misconceptions": [
        {"answer": "sigma*steps", "tag": "linear-decay", "feedback": "The decay compounds."},
        {"answer": "1 - sigma^steps", "tag": "fraction-lost", "feedback": "That is what is lost."},
        {"answer": "sigma^(steps-1)", "tag": "off-by-one", "feedback": "One factor too few."},
    ],
}
APPLY_1_PARAMS = {"sigma": 0.85, "steps": 40}

APPLY_1_CASES = [
    # (answer, outcome, tag)
    ("0.0015", "correct", None),
    ("0.001502", "correct", None),
    ("0.00150", "correct", None),
    ("1.5e-3", "correct", None),
    ("1.5E-3", "correct", None),
    ("1.5×10^-3", "correct", None),
    ("1.5*10^(-3)", "correct", None),
    ("1.5 x 10^-3", "correct", None),
    ("1.50·10⁻³", "correct", None),
    ("0.85^40", "correct", None),
    ("0.85**40", "correct", None),
    ("(0.85)^40", "correct", None),
    ("exp(40 ln 0.85)", "correct", None),
    ("exp(40*log(0.85))", "correct", None),
    ("e^(40 ln(0.85))", "correct", None),
    ("10^(40 log10(0.85))", "correct", None),
    ("(17/20)^40", "correct", None),
    ("1/665.6", "correct", None),
    ("0.0015023", "correct", None),
    ("+0.0015", "correct", None),
    # wrong answers that look similar
    ("34", "incorrect", "linear-decay"),
    ("0.85*40", "incorrect", "linear-decay"),
    ("40*0.85", "incorrect", "linear-decay"),
    ("1 - 0.85^40", "incorrect", "fraction-lost"),
    ("0.9985", "incorrect", "fraction-lost"),
    ("0.85^39", "incorrect", "off-by-one"),
    ("0.00177", "incorrect", "off-by-one"),
    ("0.0018", "incorrect", None),  # 1.8% from 0.85^39: outside the 1% tolerance
    ("0.85^41", "incorrect", None),
    ("0.015", "incorrect", None),
    ("0.00015", "incorrect", None),
    ("-0.0015", "incorrect", None),
    ("0.85/40", "incorrect", None),
    ("40^0.85", "incorrect", None),
    ("0.0016", "incorrect", None),
    ("0.0014", "incorrect", None),
    ("exp(-40*0.85)", "incorrect", None),
    ("ln(0.85)*40", "incorrect", None),
    ("0.15^40", "incorrect", None),
    ("1", "incorrect", "fraction-lost"),
    ("0", "incorrect", None),
]


@pytest.mark.parametrize(("answer", "outcome", "tag"), APPLY_1_CASES)
def test_apply_1_gradient_bound(answer, outcome, tag):
    result = grade(answer, APPLY_1, APPLY_1_PARAMS)
    assert (result.outcome, result.misconception) == (outcome, tag)
    assert result.score == (1.0 if outcome == "correct" else 0.0)


def test_apply_1_misconception_feedback_is_returned_with_score_zero():
    result = grade("34", APPLY_1, APPLY_1_PARAMS)
    assert result.feedback == "The decay compounds."
    assert result.score == 0.0


def test_apply_1_reference_follows_the_variant():
    params = {"sigma": 0.9, "steps": 20}
    assert grade("0.9^20", APPLY_1, params).outcome == "correct"
    assert grade("0.0015", APPLY_1, params).outcome == "incorrect"
    assert grade("18", APPLY_1, params).misconception == "linear-decay"


APPLY_3 = {
    "type": "numeric",
    "reference": "w1*h1 + w2*h2 + w3*h3 + w4*h4",
    "rtol": 0.01,
    "misconceptions": [
        {"answer": "(h1 + h2 + h3 + h4)/4", "tag": "unweighted-mean", "feedback": "Weigh them."},
        {"answer": "h1 + h2 + h3 + h4", "tag": "plain-sum", "feedback": "Weights missing."},
        {"answer": "w1*abs(h1) + w2*abs(h2) + w3*abs(h3) + w4*abs(h4)", "tag": "sign-dropped",
         "feedback": "A state is negative."},
    ],
}
APPLY_3_PARAMS = {"w1": 0.1, "w2": 0.6, "w3": 0.2, "w4": 0.1, "h1": 1, "h2": 3, "h3": -1, "h4": 2}
APPLY_3_LISTS = {
    "type": "numeric",
    "reference": "dot(weights, states)",
    "rtol": 0.01,
    "misconceptions": [
        {"answer": "mean(states)", "tag": "unweighted-mean", "feedback": "Weigh them."},
        {"answer": "sum(states)", "tag": "plain-sum", "feedback": "Weights missing."},
        {"answer": "dot(weights, abs(states))", "tag": "sign-dropped", "feedback": "Sign."},
    ],
}
APPLY_3_LIST_PARAMS = {"weights": [0.1, 0.6, 0.2, 0.1], "states": [1, 3, -1, 2]}

APPLY_3_CASES = [
    ("1.9", "correct", None),
    ("1.90", "correct", None),
    ("0.1*1 + 0.6*3 + 0.2*(-1) + 0.1*2", "correct", None),
    ("0.1 + 1.8 - 0.2 + 0.2", "correct", None),
    ("19/10", "correct", None),
    ("1.89", "correct", None),
    ("1.25", "incorrect", "unweighted-mean"),
    ("5/4", "incorrect", "unweighted-mean"),
    ("(1+3-1+2)/4", "incorrect", "unweighted-mean"),
    ("5", "incorrect", "plain-sum"),
    ("1+3-1+2", "incorrect", "plain-sum"),
    ("2.3", "incorrect", "sign-dropped"),
    ("0.1 + 1.8 + 0.2 + 0.2", "incorrect", "sign-dropped"),
    ("2.1", "incorrect", None),
    ("-1.9", "incorrect", None),
    ("0.19", "incorrect", None),
    ("1.8", "incorrect", None),
    ("1", "incorrect", None),
]


@pytest.mark.parametrize(("answer", "outcome", "tag"), APPLY_3_CASES)
def test_apply_3_context_value_with_scalar_parameters(answer, outcome, tag):
    result = grade(answer, APPLY_3, APPLY_3_PARAMS)
    assert (result.outcome, result.misconception) == (outcome, tag)


@pytest.mark.parametrize(("answer", "outcome", "tag"), APPLY_3_CASES)
def test_apply_3_context_value_with_list_parameters(answer, outcome, tag):
    result = grade(answer, APPLY_3_LISTS, APPLY_3_LIST_PARAMS)
    assert (result.outcome, result.misconception) == (outcome, tag)


def spec(**tolerance):
    return {"type": "numeric", "reference": "ref", **tolerance}


TOLERANCE_CASES = [
    # (answer, tolerance keys, reference value, outcome)
    ("1.05", {"rtol": 0.05}, 1, "correct"),  # the float edge: exactly on the boundary
    ("0.95", {"rtol": 0.05}, 1, "correct"),
    ("1.0500001", {"rtol": 0.05}, 1, "incorrect"),
    ("1.1", {"rtol": 0.1}, 1, "correct"),
    ("1.3", {"atol": 0.3}, 1, "correct"),
    ("0.7", {"atol": 0.3}, 1, "correct"),
    ("1.31", {"atol": 0.3}, 1, "incorrect"),
    ("0.3", {"rtol": 0.0, "atol": 0.1}, 0.2, "correct"),
    ("1e-12", {"atol": 1e-9}, 0, "correct"),
    ("1e-12", {"rtol": 0.5}, 0, "incorrect"),
    ("0.0015", {"sigfigs": 2}, "0.85^40", "correct"),
    ("0.00150", {"sigfigs": 3}, "0.85^40", "correct"),
    ("0.0015", {"sigfigs": 3}, "0.85^40", "correct"),
    ("0.00151", {"sigfigs": 3}, "0.85^40", "incorrect"),
    ("0.002", {"sigfigs": 2}, "0.85^40", "incorrect"),
    ("0.002", {"sigfigs": 1}, "0.85^40", "correct"),
    ("3.14", {"sigfigs": 3}, "pi", "correct"),
    ("3.15", {"sigfigs": 3}, "pi", "incorrect"),
    ("3.142", {"sigfigs": 4}, "pi", "correct"),
    ("3.14", {"decimals": 2}, "pi", "correct"),
    ("3.15", {"decimals": 2}, "pi", "incorrect"),
    ("2.72", {"decimals": 2}, "e", "correct"),
    ("0.125", {"decimals": 2}, 0.125, "correct"),
    ("0.13", {"decimals": 2}, 0.125, "correct"),
    ("0.12", {"decimals": 2}, 0.125, "incorrect"),  # 0.125 rounds (half away) to 0.13
    ("0.14", {"decimals": 2}, 0.125, "incorrect"),
    ("1e-5", {"decades": 1}, 3e-5, "correct"),
    ("1e-6", {"decades": 1}, 3e-5, "incorrect"),
    ("1e-4", {"decades": 0.5}, 3e-5, "incorrect"),
    ("1e-4", {"decades": 1}, 3e-5, "correct"),
    ("-3e-5", {"decades": 1}, 3e-5, "incorrect"),
    ("0", {"decades": 1}, 3e-5, "incorrect"),
    ("1e-3", {"decades": 1}, 1e-2, "correct"),  # exactly one decade
    ("2", {}, 2, "correct"),
    ("2.00001", {}, 2, "incorrect"),
    ("2.000000001", {}, 2, "correct"),  # default rtol 1e-9
    ("sqrt(2)^2", {}, 2, "correct"),
    ("1/3", {}, "1/3", "correct"),
    ("0.333333", {}, "1/3", "incorrect"),
    ("0.333333", {"rtol": 1e-5}, "1/3", "correct"),
    ("0.33", {"rtol": 0.1, "sigfigs": 4}, "1/3", "correct"),  # any criterion accepts
    ("log10(2)", {"rtol": 1e-9}, "ln(2)/ln(10)", "correct"),
    ("log(2)", {"rtol": 1e-3}, "log10(2)", "incorrect"),  # natural vs common log
    ("ln(2)", {"rtol": 1e-3}, "log10(2)", "incorrect"),
]


@pytest.mark.parametrize(("answer", "tolerance", "reference", "outcome"), TOLERANCE_CASES)
def test_tolerances(answer, tolerance, reference, outcome):
    spec_ = {"type": "numeric", "reference": str(reference), **tolerance}
    assert grade(answer, spec_, {}).outcome == outcome


def test_one_point_zero_five_against_one_with_five_percent_in_floats_is_correct():
    # exp(ln(1.05)) is not rational, so this goes through the float comparison with slack.
    result = grade("exp(ln(1.05))", {"type": "numeric", "reference": "1", "rtol": 0.05}, {})
    assert result.outcome == "correct"


def test_tolerance_accepts_never_uses_float_equality_on_exact_values():
    tol = Tolerance(rtol=0.05)
    assert tol.accepts(Number(1.05, None), Number(1.0, None))
    assert not tol.accepts(Number(float("nan")), Number(1.0))


WRITTEN = [
    ("0.0015", (2, 2)),
    ("1.5e-3", (2, 2)),
    ("1.50e-3", (3, 3)),
    ("1.5*10^-3", (2, 2)),
    ("-0.00150", (3, 3)),
    ("1500", (2, 4)),
    ("1500.", (2, 4)),  # the trailing point is not kept: read as ambiguous
    ("0.85^40", None),
    ("0", (1, 1)),
]


@pytest.mark.parametrize(("text", "expected"), WRITTEN)
def test_significant_figures_as_written(text, expected):
    assert sigfigs_written(parse(text).node) == expected


WRITTEN_SPEC = {"type": "numeric", "reference": "0.85^40", "rtol": 0.05, "written_sigfigs": 2}


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        ("0.0015", "correct"),
        ("1.5e-3", "correct"),
        ("0.00150", "invalid"),
        ("0.002", "invalid"),
        ("0.85^40", "invalid"),
        ("0.0019", "incorrect"),
    ],
)
def test_written_significant_figures_are_a_format_requirement(answer, outcome):
    assert grade(answer, WRITTEN_SPEC, {}).outcome == outcome


def test_wrong_number_of_written_figures_says_how_many_were_written():
    result = grade("0.00150", WRITTEN_SPEC, {})
    assert "exactly 2 significant figures (you wrote 3)" in result.feedback


INVALID = [
    ("", "empty answer"),
    ("0.15%", "'%' is not allowed"),
    ("sigma^40", "unknown name 'sigma'"),
    ("1/0", "no finite value"),
    ("sqrt(-1)", "is not a real number (it is i): this part takes real numbers"),
    ("ln(0)", "no finite value"),
    ("x = 0.0015", "'=' is not allowed"),
    ("9^9^9^9", "too large"),
    ("0.0015 0.0016", "two numbers side by side"),
]


@pytest.mark.parametrize(("answer", "message"), INVALID)
def test_unreadable_answers_are_invalid_with_a_message(answer, message):
    result = grade(answer, APPLY_1, APPLY_1_PARAMS)
    assert result.outcome == "invalid"
    assert result.score is None
    assert message in result.feedback


def test_thousands_separator_is_accepted_for_a_plain_number():
    assert grade("1,000", {"type": "numeric", "reference": "1000"}, {}).outcome == "correct"


def test_canonical_keeps_the_typed_form_beside_the_value():
    result = grade("0.85^40", APPLY_1, APPLY_1_PARAMS)
    assert result.canonical == "0.85^40 ≈ 0.0015023"
    assert grade("1.5E-3", APPLY_1, APPLY_1_PARAMS).canonical == "1.5e-3"
    assert result.latex == "{0.85}^{40}"


def test_correct_wins_over_a_misconception_that_also_matches():
    spec_ = {**APPLY_1, "misconceptions": [
        {"answer": "0.0015", "tag": "too-close", "feedback": "x"}]}
    assert grade("0.0015", spec_, APPLY_1_PARAMS).outcome == "correct"


def test_sign_and_power_of_ten_hints():
    assert "sign" in grade("-0.0015", APPLY_1, APPLY_1_PARAMS).feedback
    assert "powers of ten" in grade("0.015", APPLY_1, APPLY_1_PARAMS).feedback


def test_feedback_from_the_spec_is_used():
    spec_ = {**APPLY_1, "feedback_correct": "Yes!", "feedback_incorrect": "No."}
    assert grade("0.0015", spec_, APPLY_1_PARAMS).feedback == "Yes!"
    assert grade("0.0099", spec_, APPLY_1_PARAMS).feedback == "No."


def test_numeric_answer_may_use_declared_parameter_names():
    spec_ = {**APPLY_1, "variables": ["sigma", "steps"]}
    assert grade("sigma^steps", spec_, APPLY_1_PARAMS).outcome == "correct"


VALIDATION = [
    ({"type": "numeric"}, "'reference' is missing"),
    ({"type": "numeric", "reference": "x", "rtol": -1}, "'rtol' must be a non-negative number"),
    ({"type": "numeric", "reference": "x", "rtol": 1.5}, "'rtol' is a fraction"),
    ({"type": "numeric", "reference": "x", "sigfigs": 0}, "'sigfigs'"),
    ({"type": "numeric", "reference": "x", "decimals": 1.5}, "'decimals'"),
    ({"type": "numeric", "reference": "x", "tolerance": 0.1}, "unknown key 'tolerance'"),
    ({"type": "numeric", "reference": "x", "misconceptions": [{"answer": "1"}]}, "'tag'"),
    ({"type": "numeric", "reference": "x", "variables": "sigma"}, "'variables'"),
    ({"type": "numeric", "reference": "x", "written_sigfigs": "2"}, "'written_sigfigs'"),
]


@pytest.mark.parametrize(("spec_", "problem"), VALIDATION)
def test_validate_spec_reports_problems(spec_, problem):
    problems = validate_spec(spec_)
    assert any(problem in p for p in problems), problems


def test_valid_spec_has_no_problems_and_its_reference_grades_correct():
    assert validate_spec(APPLY_1) == []
    assert self_check(APPLY_1, APPLY_1_PARAMS) == []
    assert self_check(APPLY_3, APPLY_3_PARAMS) == []
    assert self_check(WRITTEN_SPEC, {}) == []


def test_self_check_reports_a_misconception_that_would_grade_correct():
    spec_ = {**APPLY_1, "misconceptions": [
        {"answer": "sigma^steps * 1.001", "tag": "same", "feedback": "x"}]}
    problems = CHECKERS["numeric"].self_check(spec_, APPLY_1_PARAMS)
    assert any("would be graded correct" in p for p in problems)


def test_self_check_reports_an_uncomputable_reference():
    problems = self_check({"type": "numeric", "reference": "sigma^steps"}, {"sigma": 0.85})
    assert problems and "reference" in problems[0]


def test_a_misconception_may_carry_its_own_tolerance():
    spec = {"type": "numeric", "reference": "0.5", "rtol": 0.02, "misconceptions": [
        {"answer": "1", "atol": 0, "tag": "exactly-one", "feedback": "One?"},
        {"answer": "0.99", "rtol": 0.001, "tag": "near-one", "feedback": "Close to one?"},
    ]}
    assert grade("1", spec, {}).misconception == "exactly-one"
    assert grade("0.9901", spec, {}).misconception == "near-one"
    assert grade("0.995", spec, {}).misconception is None  # 2% would match both; theirs do not


def test_a_misconceptions_tolerance_is_validated():
    spec = {"type": "numeric", "reference": "0.5", "misconceptions": [
        {"answer": "1", "rtol": 3, "tag": "t", "feedback": "f"},
        {"answer": "2", "colour": "red", "tag": "u", "feedback": "g"},
    ]}
    problems = validate_spec(spec)
    assert "'misconceptions' entry 1: 'rtol' is a fraction (0.01 means 1%) and must be below 1" \
        in problems
    assert "'misconceptions' entry 2: unknown key 'colour'" in problems


@pytest.mark.parametrize("typed", ["1.5 × 10−3", "1.5x10-3", "1.5 * 10 - 3", r"1.5 \times 10-3"])
def test_a_power_of_ten_without_its_caret_is_invalid_with_a_hint(typed):
    result = grade(typed, {"type": "numeric", "reference": "0.0015", "rtol": 0.02}, {})
    assert result.outcome == "invalid" and "with ^" in result.feedback


def test_a_negative_irrational_answer_keeps_its_sign():
    # Regression: the high-precision value of -sqrt(2) was read as +sqrt(2) (mpmath's
    # man_exp has no sign), so the right answer was marked wrong.
    spec = {"type": "numeric", "reference": "-sqrt(2)"}
    assert grade("-sqrt(2)", spec, {}).outcome == "correct"
    assert grade("sqrt(2)", spec, {}).outcome == "incorrect"
    assert grade("-sqrt(2)", {**spec, "sigfigs": 3}, {}).outcome == "correct"


APPLY_1_AS_AUTHORED = {**APPLY_1, "rtol": 0.02, "sigfigs": 2}


@pytest.mark.parametrize("answer", ["0.0016", "0.0014", "1.6e-3"])
def test_a_near_miss_is_told_it_is_close_and_the_precision_asked(answer):
    """Issue 25 item 5: 0.0016 where the key is 0.0015 is not just 'Not correct yet'."""
    result = grade(answer, APPLY_1_AS_AUTHORED, APPLY_1_PARAMS)
    assert result.outcome == "incorrect"
    assert "Close, but not within the precision asked" in result.feedback
    assert "within 2% or to 2 significant figures" in result.feedback


@pytest.mark.parametrize("answer", ["0.002", "0.001", "0.15", "0.5"])
def test_an_answer_that_is_not_close_is_not_called_close(answer):
    result = grade(answer, APPLY_1_AS_AUTHORED, APPLY_1_PARAMS)
    assert result.outcome == "incorrect" and "Close" not in result.feedback


def test_a_near_miss_of_an_exact_value_is_told_to_give_more_digits():
    result = grade("0.333", {"type": "numeric", "reference": "1/3"}, {})
    assert result.outcome == "incorrect"
    assert "the exact value is asked: give more digits" in result.feedback
    assert "Close" not in grade("0.3", {"type": "numeric", "reference": "1/3"}, {}).feedback


def test_a_misconception_near_the_key_keeps_its_own_feedback():
    result = grade("0.00177", APPLY_1_AS_AUTHORED, APPLY_1_PARAMS)  # sigma^(steps-1)
    assert result.misconception == "off-by-one" and "Close" not in result.feedback
