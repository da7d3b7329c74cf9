"""A misconception's ``credit`` is scored the same way by every answer type (pipeline.py).

One real case per checker the registry can choose (each type's, each dispatch row's, and
the LaTeX reader): a spec with a misconception, an answer that matches it, and the credit
the teacher gives it. A type that matched the misconception but ignored its credit would
score the answer 0 (or its own partial score), not the credit.
"""

from typing import Any

import pytest

from grading.checkers import CHECKERS, DISPATCH, checker_for, grade, self_check, validate_spec
from grading.checkers.latex_input import LatexInput

CREDIT = 0.4


def _with(spec: dict[str, Any], misconception: dict[str, Any]) -> dict[str, Any]:
    return {**spec, "misconceptions": [misconception]}


def _case(name: str, spec: dict[str, Any], misconception: dict[str, Any], raw: str,
          params: dict[str, Any] | None = None) -> Any:
    return pytest.param(spec, misconception, raw, params or {}, id=name)


CASES = [
    _case("numeric", {"type": "numeric", "reference": "2.5"},
          {"answer": "25", "tag": "power-of-ten", "feedback": "Check the decimal point."},
          "25"),
    _case("symbolic", {"type": "symbolic", "reference": "x^2/2", "variables": ["x"]},
          {"answer": "x^2", "tag": "half-lost", "feedback": "Where did the 1/2 go?"}, "x*x"),
    _case("symbolic-antiderivative", {"type": "symbolic", "reference": "x^3/3",
                                      "variables": ["x"], "arbitrary_constant": True},
          {"answer": "x^3", "tag": "no-division", "feedback": "Divide by the new power."},
          "x^3 + C"),
    _case("vector", {"type": "vector", "reference": ["1.9", "0.7"], "rtol": 0.01},
          {"answer": ["0.7", "1.9"], "tag": "swapped", "feedback": "Order matters."},
          "[0.7, 1.9]"),
    _case("integer", {"type": "integer", "reference": "N"},
          {"answer": "N - 1", "tag": "off-by-one", "feedback": "Count the steps again."},
          "999", {"N": 1000}),
    _case("choice", {"type": "choice", "options": [{"key": k, "text": k.upper()}
                                                   for k in ("a", "b", "c")],
                     "correct": ["a"]},
          {"answer": "b", "tag": "b-for-a", "feedback": "b is the converse."}, "b"),
    _case("text", {"type": "text", "review": "never", "reference": "The gradients vanish.",
                   "rubric": [{"key": "vanishing", "points": 1,
                               "phrasings": ["vanish", "vanishing gradients"]}]},
          {"phrasings": ["exploding"], "tag": "exploding-only",
           "feedback": "Exploding is the lesser half."}, "the gradients are exploding"),
    _case("matrix", {"type": "matrix", "reference": "Q*transpose(K)/sqrt(d)"},
          {"answer": "Q*transpose(K)", "tag": "missing-scale", "feedback": "Divide by sqrt(d)."},
          "[[1, 3], [2, 4]]", {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "d": 4}),
    _case("quantity", {"type": "quantity", "reference": "m*g*h", "unit": "J", "rtol": 0.01},
          {"answer": "m*g", "unit": "N", "tag": "force-not-energy",
           "feedback": "Multiply by the height too."},
          "19.62 N", {"m": 2, "g": 9.81, "h": 10}),
    _case("quantity-unit-only", {"type": "quantity", "unit": "m/s^2", "unit_mode": "only"},
          {"answer": "m/s", "tag": "speed-not-acceleration", "feedback": "That is a speed."},
          "m/s"),
    _case("numeric-with-units", {"type": "numeric", "reference": "9.81", "units": "N/kg"},
          {"answer": "98.1", "tag": "power-of-ten", "feedback": "Check the decimal point."},
          "98.1 N/kg"),
    _case("complex", {"type": "numeric", "reference": "1 + 2i", "imaginary_unit": "i"},
          {"answer": "1 - 2i", "tag": "conjugate", "feedback": "The imaginary part's sign."},
          "1 - 2i"),
    _case("set", {"type": "set", "reference": "(-oo, 0) U (1, oo)"},
          {"answer": "(0, 1)", "tag": "complement", "feedback": "That is the complement."},
          "(0, 1)"),
    _case("set-of-expressions", {"type": "set", "variables": ["x"], "reference": "{a*x, -a*x}"},
          {"answer": "{a*x}", "tag": "one-root", "feedback": "A square has two roots."},
          "{2x}", {"a": 2}),
    _case("list", {"type": "list", "reference": ["2", "-3"]},
          {"answer": ["-2", "3"], "tag": "sign", "feedback": "Check the signs."}, "-2, 3"),
    _case("string", {"type": "string", "reference": "Softmax"},
          {"answer": "sigmoid", "tag": "sigmoid", "feedback": "Sigmoid squashes one value."},
          "Sigmoid"),
    _case("equation", {"type": "equation", "reference": "y = 2x + 1", "variables": ["x", "y"]},
          {"answer": "y = 2x - 1", "tag": "sign", "feedback": "Check the constant's sign."},
          "y = 2x - 1"),
    _case("matching", {"type": "matching", "rows": ["a", "b"], "columns": ["x", "y"],
                       "correct": {"a": "x", "b": "y"}},
          {"answer": "b=x", "tag": "b-as-a", "feedback": "b is not like a."}, "a=x, b=x"),
    _case("logic", {"type": "logic", "reference": "p implies q", "variables": ["p", "q"]},
          {"answer": "q implies p", "tag": "converse", "feedback": "That is the converse."},
          "q implies p"),
    _case("latex", {"type": "symbolic", "reference": "sqrt(x)/2 + x^2", "variables": ["x"],
                    "latex": True},
          {"answer": "sqrt(x) + x^2", "tag": "half-lost", "feedback": "Where did the 1/2 go?"},
          r"\sqrt{x}+x^{2}"),
]


def _item_list(misconception: dict[str, Any]) -> dict[str, Any]:
    """An item list whose one item carries the misconception: the item's credit is its
    score, and the list's score is its items' (item_list grades each item by the pipeline)."""
    return {"type": "item_list", "items": [
        {"type": "string", "reference": "parabola", "misconceptions": [misconception]}]}


CASES.append(pytest.param(
    _item_list({"answer": "hyperbola", "tag": "conic-mixup", "feedback": "Not a hyperbola."}),
    None, "hyperbola", {}, id="item_list"))


def _spec(spec: dict[str, Any], misconception: dict[str, Any] | None,
          credit: float | None) -> dict[str, Any]:
    if misconception is None:  # item_list: the credit goes on its item's misconception
        item = spec["items"][0]
        entry = {**item["misconceptions"][0]}
        if credit is not None:
            entry["credit"] = credit
        return {**spec, "items": [{**item, "misconceptions": [entry]}]}
    return _with(spec, misconception if credit is None else {**misconception, "credit": credit})


def _tag(spec: dict[str, Any], misconception: dict[str, Any] | None) -> str:
    entry = misconception or spec["items"][0]["misconceptions"][0]
    return str(entry["tag"])


@pytest.mark.parametrize(("spec", "misconception", "raw", "params"), CASES)
def test_a_misconception_scores_its_credit_in_every_answer_type(spec, misconception, raw,
                                                                 params):
    without = _spec(spec, misconception, None)
    with_credit = _spec(spec, misconception, CREDIT)
    assert validate_spec(with_credit) == []
    assert self_check(with_credit, params) == []
    plain = grade(raw, without, params)
    assert plain.misconception == _tag(spec, misconception)
    assert plain.score != pytest.approx(CREDIT)  # so the credit below is the credit's doing

    result = grade(raw, with_credit, params)
    assert (result.outcome, result.score, result.misconception) == \
        ("partial", pytest.approx(CREDIT), _tag(spec, misconception))
    assert result.feedback == plain.feedback  # the misconception's feedback is kept


@pytest.mark.parametrize(("spec", "misconception", "raw", "params"), CASES)
def test_a_misconception_with_credit_0_is_wrong_whatever_the_type_would_give(
        spec, misconception, raw, params):
    result = grade(raw, _spec(spec, misconception, 0), params)
    assert (result.outcome, result.score) == ("incorrect", 0.0)


@pytest.mark.parametrize(("spec", "misconception", "raw", "params"), CASES)
def test_a_misconception_credit_of_1_or_two_credits_for_one_tag_are_refused(
        spec, misconception, raw, params):
    whole = validate_spec(_spec(spec, misconception, 1))
    assert any("'credit' must be a number from 0 to below 1" in p for p in whole)
    if misconception is not None:
        twice = {**spec, "misconceptions": [{**misconception, "credit": 0.2},
                                             {**misconception, "credit": 0.3}]}
        assert "'misconceptions' entry 2: tag '" + str(misconception["tag"]) + \
            "' is given another 'credit' by an earlier entry (one credit per tag)" \
            in validate_spec(twice)


def test_every_checker_the_registry_can_choose_has_a_credit_case():
    chosen = {type(checker_for(case.values[0])) for case in CASES}
    expected = {type(c) for c in CHECKERS.values()} | {type(r.checker) for r in DISPATCH}
    assert expected | {LatexInput} <= chosen
