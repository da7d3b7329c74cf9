"""Required forms, decided on our own tree: each form accepts its own shape and refuses the
equal answer written otherwise (STACK's Expanded, FacForm, LowestTerms, SingleFrac, PartFrac,
CompSquare, EqualComAss, and WeBWorK's limited contexts)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check, validate_spec
from grading.checkers.forms import FORMS, form_check
from grading.checkers.mathparse import parse

V = ["x", "y"]


def _meets(text: str, form: str, key: str | None = None) -> bool:
    node = parse(text, variables=V).node
    key_node = parse(key, variables=V).node if key else None
    return form_check(node, [form], V, key_node) is None


@pytest.mark.parametrize(("form", "meets", "fails"), [
    ("expanded", ["x^2 + 2x + 1", "x^2 - 1", "2x + 2", "1/(x+1)", "x y + 3", "(x y)^2"],
     ["(x+1)^2", "(x+1)(x-1)", "2(x+1)", "(x+1)/2", "sin((x+1)^2)"]),
    ("factored", ["(x+1)^2", "2(x-1)(x+3)", "(x^2+1)(x-1)", "x(x+1)", "(x-y)(x+y)", "x^4+1",
                  "-(x-1)(x+1)"],
     ["x^2+2x+1", "(2x-2)(x+3)", "x^2-1", "x^2-y^2", "x^4+4", "(x^2-4)(x+1)"]),
    ("factored_rationals", ["(x-1/2)(x+3)", "(2x-2)(x+3)", "x^2+1"], ["x^2-4", "(x^2-1/4)"]),
    ("lowest_terms", ["3/4", "(x+1)/(x-1)", "x/2", "-3/4 x"], ["6/8", "(x^2-1)/(x-1)", "4/2"]),
    ("single_fraction", ["(x+1)/(x-1)", "x/2", "-(x+1)/(x y)"], ["1 + 2/(x-1)", "(x/2)/3"]),
    ("simplified", ["2x + 1", "3/4 x", "2 sqrt(2)", "x^2 + 2x + 1", "-x + 1"],
     ["x + x + 1", "2 + 3 + x", "x*x", "x^1", "1*x", "0 + x", "6/8 x", "2*3x", "-(-x)"]),
    ("partial_fractions", ["1/(x-1) - 1/(x+1)", "x + 1/(x^2+1)", "(x+1)/(x^2+1)",
                           "1/(x-1)^2 + 1/(x-1)"],
     ["2/(x^2-1)", "1/(x-1) + 1/(x-1)", "(x^2+1)/(x-1)"]),
    ("no_decimals", ["1/2 x", "3x"], ["0.5x", "1e3 x"]),
    ("rationalised", ["sqrt(2)/2", "(1 - sqrt(3))/(-2)"],
     ["1/sqrt(2)", "1/(1+sqrt(3))", "x^(-1/2)"]),
    ("completed_square", ["(x-3)^2 + 1", "2(x-3)^2 + 1", "-(x+1)^2"], ["x^2 - 6x + 10"]),
])
def test_each_form_accepts_its_shape_and_refuses_the_equal_answer_written_otherwise(
        form: str, meets: list[str], fails: list[str]) -> None:
    assert [t for t in meets if not _meets(t, form)] == []
    assert [t for t in fails if _meets(t, form)] == []


@pytest.mark.parametrize(("form", "meets", "fails"), [
    # STACK's Expanded: a product of sums of numbers with an irrational part would expand.
    ("expanded", ["3+2*sqrt(3)", "3+sqrt(12)", "2*(3+1)", "x*sqrt(2) + 1"],
     ["(1+sqrt(5))*(1-sqrt(3))", "(1+sqrt(2))^2", "x*(1+sqrt(2))"]),
    # STACK's SingleFrac: a number as exponent is not a fraction of the expression.
    ("single_fraction", ["(5^(3/2)+6)/15", "x^(1/2)/2", "((sqrt(5))^3 + 6)/15"],
     ["x^(1/2)/2 + 1/3", "(x/2)/3"]),
    # STACK's PartFrac: numbers may stand in a denominator or before the whole sum.
    ("partial_fractions", ["-5/(16*x)+1/(2*(x-1))-1/(8*(x-1)^2)",
                           "3*(1/(x+1) + 1/(x+2))", "(1/(x-1) - 1/(x+1))/2",
                           "125/(34*(5*x-2))+5/(51*(x+3))-5/(6*x)"],
     ["(3*x+3)*(1/(x+1) + 2/(x+2))", "1/(2*(x-1)) + 1/(x-1)", "1/(2*(x^2-1))"]),
])
def test_numbers_in_a_form_are_read_as_stack_reads_them(
        form: str, meets: list[str], fails: list[str]) -> None:
    assert [t for t in meets if not _meets(t, form)] == []
    assert [t for t in fails if _meets(t, form)] == []


def test_equal_up_to_commutativity_and_associativity_only() -> None:
    assert _meets("1 + x", "equal_com_ass", "x + 1")
    assert _meets("y (x 2)", "equal_com_ass", "2 x y")
    assert not _meets("2x - x + 1", "equal_com_ass", "x + 1")
    assert not _meets("x + 1", "equal_com_ass", "x + 2 - 1")


@pytest.mark.parametrize(("answer", "key", "meets"), [
    # STACK's EqualComAss fixtures: minus and division are the inverses of + and *.
    ("x*(-y)", "-x*y", True),
    ("x*(-y)", "-(x*y)", True),
    ("(-x)/y", "-(x/y)", True),
    ("(x*y)/2", "x*(y/2)", True),
    ("((x+1)/(x*(x-1)))*(x-1)", "((x+1)*(x-1))/(x*(x-1))", True),
    ("-1*2+3*4", "3*4-1*2", True),
    ("exp(x)", "e^x", True),
    ("exp(x)^2", "(e^x)^2", True),
    ("x/(-y)", "-(x/y)", False),        # the reciprocal of a negation stays one
    ("(-x)*(-x)", "x*x", False),        # negations are counted, never cancelled
    ("1/2*1/x", "1/(2*x)", False),
    ("(1/2)*(x+y)", "(x+y)/2", False),
    ("x^2/y^3", "x^2*y^(-3)", False),
    ("exp(x)^2", "e^(2*x)", False),
    ("-1/(1-x)", "1/(x-1)", False),
])
def test_equal_com_ass_reads_minus_as_a_factor_and_division_as_a_reciprocal(
        answer: str, key: str, meets: bool) -> None:
    assert _meets(answer, "equal_com_ass", key) is meets


def test_as_written_ignores_only_spacing_and_implicit_products() -> None:
    assert _meets("2 x+1", "as_written", "2*x + 1")
    assert not _meets("1 + 2x", "as_written", "2x + 1")


def _grade(raw: str, **spec: object):
    return grade(raw, {"type": "symbolic", "variables": ["x"], **spec}, {})


def test_an_equal_answer_in_the_wrong_form_gets_the_form_credit_and_message() -> None:
    result = _grade("x^2+2x+1", reference="(x+1)^2", form="factored", form_credit=0.5)
    assert (result.outcome, result.score, result.misconception) == (
        "partial", 0.5, "form:factored")
    assert "x^2 + 2*x + 1" in result.feedback and "factored" in result.feedback
    assert "Not correct yet" not in result.feedback


def test_the_wrong_form_defaults_to_no_credit() -> None:
    result = _grade("(x+1)^2", reference="x^2+2x+1", form=["expanded"])
    assert (result.outcome, result.score, result.misconception) == (
        "incorrect", 0.0, "form:expanded")


def test_a_form_never_accepts_an_answer_that_is_not_equal_to_the_key() -> None:
    result = _grade("(x+2)^2", reference="(x+1)^2", form="factored")
    assert result.outcome == "incorrect" and result.misconception is None


def test_forbidden_operators_and_functions_make_the_answer_invalid() -> None:
    assert _grade("x!", reference="gamma(x+1)", forbidden_operators=["!"]).outcome == "invalid"
    assert _grade("abs(x)", reference="sqrt(x^2)", forbidden_functions=["abs"]).outcome == \
        "invalid"
    assert _grade("sqrt(x^2)", reference="sqrt(x^2)", forbidden_functions=["abs"]).outcome == \
        "correct"


def test_a_required_function_is_a_form_of_the_equal_answer() -> None:
    result = _grade("x^2", reference="exp(2 log(x))", required_functions=["log"])
    assert result.misconception == "form:required_functions"
    assert _grade("exp(2 log(x))", reference="x^2", required_functions=["log"]).outcome == \
        "correct"


def test_the_key_must_meet_its_own_form_in_every_variant() -> None:
    spec = {"type": "symbolic", "variables": ["x"], "reference": "2*(x+a)", "form": "factored"}
    assert self_check(spec, {"a": 3}) == []  # sympy would write 2*x + 6
    bad = {"type": "symbolic", "variables": ["x"], "reference": "x^2+2x+1", "form": "factored"}
    assert self_check(bad, {})


def test_unknown_forms_and_operators_are_spec_errors() -> None:
    problems = validate_spec({"type": "symbolic", "variables": ["x"], "reference": "x",
                              "form": "tidy", "forbidden_operators": ["%"],
                              "required_functions": ["nosuch"], "form_credit": 2})
    assert any("unknown form 'tidy'" in p for p in problems)
    assert any("unknown operator '%'" in p for p in problems)
    assert any("unknown function 'nosuch'" in p for p in problems)
    assert any("'form_credit'" in p for p in problems)


def test_every_form_is_documented_in_the_checkers_readme() -> None:
    from pathlib import Path

    import grading.checkers

    readme = (Path(grading.checkers.__file__).parent / "README.md").read_text()
    assert [name for name in FORMS if f"`{name}`" not in readme] == []


def test_the_preview_says_which_required_form_it_sees() -> None:
    from grading.preview import answer_preview

    spec = {"type": "symbolic", "variables": ["x"], "reference": "(x+1)^2", "form": "factored"}
    assert answer_preview(raw="(x+1)^2", spec=spec).form == \
        "In the required form: fully factored over the integers."
    assert answer_preview(raw="x^2+2x+1", spec=spec).form == \
        "Not yet fully factored over the integers."
    assert answer_preview(raw="x^2", spec={**spec, "form": "as_written"}).form == ""


# Issue 41 item 10: a form never fails the author's own key; factoring "in" an expression.
def test_a_constant_key_meets_completed_square():
    spec = {"type": "symbolic", "reference": "5", "variables": ["x"], "form": "completed_square"}
    assert self_check(spec, {}) == []
    assert grade("5", spec).outcome == "correct"


@pytest.mark.parametrize(("answer", "outcome"), [
    ("(sin(x)-1)(sin(x)+1)", "correct"),
    ("(sin(x)+1)*(sin(x)-1)", "correct"),
    ("sin(x)^2 - 1", "incorrect"),
])
def test_factored_in_sin_x(answer, outcome):
    # STACK doc/en/Authoring/Answer_Tests/Form.md, FacForm: factored with respect to an
    # expression; here sin(x) plays the variable.
    spec = {"type": "symbolic", "reference": "(sin(x)-1)*(sin(x)+1)", "variables": ["x"],
            "form": "factored"}
    assert self_check(spec, {}) == []
    result = grade(answer, spec)
    assert result.outcome == outcome
    if outcome == "incorrect":
        assert result.misconception == "form:factored"
        assert "not fully factored" in result.feedback


def test_factored_in_an_exponential_knows_its_powers():
    spec = {"type": "symbolic", "reference": "(e^x-2)*(e^x+2)", "variables": ["x"],
            "form": "factored"}
    assert self_check(spec, {}) == []
    assert grade("(e^x+2)(e^x-2)", spec).outcome == "correct"
    assert grade("e^(2x) - 4", spec).outcome == "incorrect"  # (e^x)^2 - 4 factors further


def test_over_the_integers_and_over_the_rationals_are_two_choices():
    spec = {"type": "symbolic", "reference": "2*(x-1)*(x+3)", "variables": ["x"],
            "form": "factored"}
    assert grade("(2x-2)(x+3)", spec).outcome == "incorrect"
    assert grade("(2x-2)(x+3)", {**spec, "form": "factored_rationals"}).outcome == "correct"
    assert grade("2(x-1)(x+3)", spec).outcome == "correct"


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=-9, max_value=9), st.integers(min_value=-9, max_value=9))
def test_a_product_of_linear_factors_in_cos_x_is_factored_and_its_expansion_is_not(a, b):
    key = f"(cos(x) - ({a}))*(cos(x) - ({b}))"
    spec = {"type": "symbolic", "reference": key, "variables": ["x"], "form": "factored"}
    assert grade(key, spec).outcome == "correct"
    expanded = f"cos(x)^2 - ({a + b})*cos(x) + ({a * b})"
    assert grade(expanded, spec).outcome == "incorrect"


def test_a_long_product_of_functions_is_refused_and_a_shorter_one_read():
    spec = {"type": "symbolic", "reference": "(sin(x)+1)^40", "variables": ["x"],
            "form": "factored"}
    assert grade("*".join(["(sin(x)+1)"] * 80), spec).outcome == "invalid"
    assert grade("*".join(["(sin(x)+1)"] * 40), spec).outcome == "correct"
