"""Equivalence up to a factor, sign or constant, renamed variables, and partial-credit rules
for named wrong forms (sign, factor, constant, power of ten)."""

from grading.checkers import grade, validate_spec


def _grade(raw: str, **spec: object):
    return grade(raw, {"type": "symbolic", "variables": ["x", "y"], **spec}, {})


def test_up_to_a_factor_accepts_any_non_zero_multiple_only() -> None:
    spec = {"reference": "x - 2y", "equivalent_up_to": ["factor"]}
    assert _grade("3x - 6y", **spec).outcome == "correct"
    assert _grade("-x/2 + y", **spec).outcome == "correct"
    assert _grade("0", **spec).outcome == "incorrect"
    assert _grade("x^2 - 2x y", **spec).outcome == "incorrect"  # a factor x is not constant


def test_up_to_a_sign_accepts_the_negation() -> None:
    assert _grade("2y - x", reference="x - 2y", equivalent_up_to=["sign"]).outcome == "correct"
    assert _grade("2x - 4y", reference="x - 2y", equivalent_up_to=["sign"]).outcome == \
        "incorrect"


def test_up_to_a_constant_accepts_any_antiderivative() -> None:
    spec = {"reference": "x^3/3", "equivalent_up_to": ["constant"]}
    assert _grade("x^3/3 + 7", **spec).outcome == "correct"
    assert _grade("(x^3 + 1)/3 - ln(2)", **spec).outcome == "correct"
    assert _grade("x^3/3 + x", **spec).outcome == "incorrect"


def test_renamed_variables_are_accepted_only_when_the_spec_says_so() -> None:
    assert grade("t^2 + 1", {"type": "symbolic", "variables": ["x"], "reference": "x^2+1",
                             "rename_variables": True}, {}).outcome == "correct"
    assert grade("t^2 + 1", {"type": "symbolic", "variables": ["x"],
                             "reference": "x^2+1"}, {}).outcome == "invalid"
    two = {"type": "symbolic", "variables": ["x", "y"], "reference": "x^2 + y",
           "rename_variables": True}
    assert grade("b + a^2", two, {}).outcome == "correct"
    assert grade("a + b^2 + c", two, {}).outcome == "incorrect"


def test_partial_credit_rules_give_their_credit_and_feedback() -> None:
    rules = [{"rule": "sign", "credit": 0.5, "feedback": "Check the sign."},
             {"rule": "power_of_ten", "credit": 0.25}]
    sign = _grade("2y - x", reference="x - 2y", partial_credit=rules)
    assert (sign.outcome, sign.score, sign.feedback, sign.misconception) == (
        "partial", 0.5, "Check the sign.", "rule:sign")
    ten = _grade("1000 x", reference="x", partial_credit=rules)
    assert (ten.score, ten.misconception) == (0.25, "rule:power_of_ten")
    assert "power of ten" in ten.feedback
    assert _grade("3x", reference="x", partial_credit=rules).score == 0.0


def test_a_misconception_may_carry_credit() -> None:
    result = _grade("x^2", reference="2x", misconceptions=[
        {"answer": "x^2", "tag": "antiderivative", "feedback": "That integrates.",
         "credit": 0.25}])
    assert (result.outcome, result.score, result.misconception) == (
        "partial", 0.25, "antiderivative")


def test_marking_keys_are_validated() -> None:
    problems = validate_spec({"type": "symbolic", "variables": ["x"], "reference": "x",
                              "equivalent_up_to": ["scale"],
                              "partial_credit": [{"rule": "typo", "credit": 3, "x": 1}]})
    assert any("unknown relation 'scale'" in p for p in problems)
    assert any("'rule' must be one of" in p for p in problems)
    assert any("'credit' must be a number" in p for p in problems)
    assert any("unknown key 'x'" in p for p in problems)
