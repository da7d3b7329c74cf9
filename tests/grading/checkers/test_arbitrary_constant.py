"""Antiderivatives with their arbitrary constant (``arbitrary_constant = true``): the key plus
a*C + b, a != 0, as WeBWorK's FormulaUpToConstant and STACK's AddConst grade them."""

import pytest

from grading.checkers import grade, self_check, validate_spec

SPEC = {"type": "symbolic", "reference": "x^3/3", "variables": ["x"],
        "arbitrary_constant": True}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("x^3/3 + C", "correct"),
    ("C + x^3/3", "correct"),
    ("x^3/3 + c + 1", "correct"),        # any letter, any added number
    ("x^3/3 - K", "correct"),            # any non-zero multiple of the constant
    ("(x^3 + C)/3", "correct"),
    ("x^3/3", "incorrect"),              # not the most general solution
    ("x^3/3 + 5", "incorrect"),
    ("x^3/3 + 0*C", "incorrect"),
    ("x^3/3 + C^2", "incorrect"),        # not linear in the constant
    ("x^3/3 * C", "incorrect"),
    ("x^3 + C", "incorrect"),
    ("x^3/3 + C + K", "invalid"),        # one constant only
    ("x^3/3 + CK", "invalid"),           # an unknown longer name stays an error
])
def test_the_key_plus_a_multiple_of_one_arbitrary_constant(answer, outcome):
    assert grade(answer, SPEC, {}).outcome == outcome


def test_the_messages_say_what_is_missing():
    assert "arbitrary constant" in grade("x^3/3", SPEC, {}).feedback
    assert "most general" in grade("x^3/3 + 2", SPEC, {}).feedback
    assert "linear in the constant C" in grade("x^3/3 + C^2", SPEC, {}).feedback
    assert grade("x^3/3", SPEC, {}).misconception == "no-constant"


def test_parameters_and_other_variable_names():
    spec = {**SPEC, "reference": "a*t^2/2", "variables": ["t"]}
    assert grade("2 t^2/2 + C", spec, {"a": 2}).outcome == "correct"
    assert grade("t^2 + k", spec, {"a": 2}).outcome == "correct"
    assert grade("t^2", spec, {"a": 2}).outcome == "incorrect"


def test_an_answer_without_the_constant_is_graded_as_usual_when_it_is_not_the_key():
    spec = {**SPEC, "misconceptions": [{"answer": "x^2/2", "tag": "power",
                                        "feedback": "Raise the power by one."}]}
    assert grade("x^2/2", spec, {}).misconception == "power"
    assert grade("x^2/2 + C", spec, {}).misconception == "power"


def test_validation_and_self_check_write_the_key_with_a_constant():
    assert validate_spec(SPEC) == []
    assert self_check(SPEC, {}) == []
    assert self_check({**SPEC, "variables": ["C"], "reference": "C^3/3"}, {}) == []
    assert "true or false" in " ".join(validate_spec({**SPEC, "arbitrary_constant": "yes"}))
    assert "cannot be combined" in " ".join(validate_spec({**SPEC, "rename_variables": True}))
