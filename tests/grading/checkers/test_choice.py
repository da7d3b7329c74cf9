"""Choice answers: single and multiple choice, partial credit, misconception options."""

import pytest

from grading.checkers import grade, self_check, validate_spec

SHAPE = {
    "type": "choice",
    "options": [
        {"key": "diagonal", "text": "A clean diagonal"},
        {"key": "diagonal-with-crossing", "text": "Mostly diagonal, with a local crossing"},
        {"key": "anti-diagonal", "text": "An anti-diagonal"},
        {"key": "uniform", "text": "Roughly uniform"},
    ],
    "correct": ["diagonal-with-crossing"],
    "multiple": False,
    "partial": False,
    "lab": "attention",
    "measure": "shape",
    "feedback_correct": "Matches the lab.",
    "feedback_incorrect": "Compare with the grid.",
    "misconceptions": [
        {"answer": "diagonal", "tag": "word-order-ignored", "feedback": "Look at the swap."},
    ],
}

PROBLEMS = {
    "type": "choice",
    "options": [{"key": k, "text": k.upper()} for k in ("a", "b", "c", "d", "e")],
    "correct": ["a", "c", "d"],
    "multiple": True,
    "partial": True,
    "misconceptions": [{"answer": "e", "tag": "exploding-only", "feedback": "Vanishing too."}],
}

SINGLE_CASES = [
    ("diagonal-with-crossing", "correct", 1.0, None),
    ("Diagonal-With-Crossing", "correct", 1.0, None),
    (" diagonal-with-crossing ", "correct", 1.0, None),
    ("diagonal", "incorrect", 0.0, "word-order-ignored"),
    ("anti-diagonal", "incorrect", 0.0, None),
    ("uniform", "incorrect", 0.0, None),
    ("diagonal, uniform", "invalid", None, None),
    ("crossing", "invalid", None, None),
    ("", "invalid", None, None),
]


@pytest.mark.parametrize(("answer", "outcome", "score", "tag"), SINGLE_CASES)
def test_single_choice_prediction(answer, outcome, score, tag):
    result = grade(answer, SHAPE, {})
    assert (result.outcome, result.score, result.misconception) == (outcome, score, tag)


MULTIPLE_CASES = [
    ("a, c, d", "correct", 1.0, None),
    ("d,c,a", "correct", 1.0, None),
    ("a c d", "correct", 1.0, None),
    ("a;c;d", "correct", 1.0, None),
    ("A, C, D", "correct", 1.0, None),
    ("a, a, c, d", "correct", 1.0, None),
    ("a, c", "partial", 2 / 3, None),
    ("a", "partial", 1 / 3, None),
    ("a, c, d, b", "partial", 2 / 3, None),
    ("a, b", "incorrect", 0.0, None),
    ("b", "incorrect", 0.0, None),
    ("a, b, e", "incorrect", 0.0, "exploding-only"),
    ("a, c, e", "partial", 1 / 3, "exploding-only"),
    ("a, z", "invalid", None, None),
]


@pytest.mark.parametrize(("answer", "outcome", "score", "tag"), MULTIPLE_CASES)
def test_multiple_choice_with_partial_credit(answer, outcome, score, tag):
    result = grade(answer, PROBLEMS, {})
    assert result.outcome == outcome
    assert result.misconception == tag
    if score is None:
        assert result.score is None
    else:
        assert result.score == pytest.approx(score)


def test_multiple_choice_without_partial_credit_is_all_or_nothing():
    spec = {**PROBLEMS, "partial": False}
    assert grade("a, c", spec, {}).score == 0.0
    assert grade("a, c", spec, {}).outcome == "incorrect"


def test_unknown_option_lists_the_options():
    result = grade("crossing", SHAPE, {})
    assert result.feedback == (
        "unknown option 'crossing': choose from diagonal, diagonal-with-crossing, "
        "anti-diagonal, uniform"
    )


def test_spec_feedback_is_used():
    assert grade("diagonal-with-crossing", SHAPE, {}).feedback == "Matches the lab."
    assert grade("uniform", SHAPE, {}).feedback == "Compare with the grid."


def test_lab_keys_are_accepted_and_ignored_by_the_checker():
    assert grade("uniform", SHAPE, {"shape": "uniform"}).outcome == "incorrect"
    assert validate_spec({**SHAPE, "lab_params": {"units": "units"}}) == []
    assert any("'lab_params'" in p for p in validate_spec({**SHAPE, "lab_params": [1]}))


def test_choice_spec_validation():
    assert validate_spec(SHAPE) == []
    assert self_check(SHAPE, {}) == []
    assert self_check(PROBLEMS, {}) == []
    bad = {**SHAPE, "correct": ["nope"], "misconceptions": [
        {"answer": "missing", "tag": "t", "feedback": "f"}]}
    problems = validate_spec(bad)
    assert any("'correct' names 'nope'" in p for p in problems)
    assert any("not an option key" in p for p in problems)
    assert any("'options'" in p for p in validate_spec({"type": "choice", "correct": ["a"]}))
    two = {**SHAPE, "correct": ["diagonal", "uniform"]}
    assert any("'multiple' is false" in p for p in validate_spec(two))
