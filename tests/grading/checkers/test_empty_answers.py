"""An empty answer where the author allows one (STACK's "allow empty" input option)."""

from grading.checkers import answer_key, grade, validate_spec

# STACK tests/fixtures/answertestfixtures.class.php: an empty student answer fails the test
# ("Empty SA") unless the input allows it.
SPEC = {"type": "symbolic", "reference": "(x-1)^2", "variables": ["x"]}


def test_an_empty_answer_is_invalid_unless_allowed():
    assert grade("", SPEC).outcome == "invalid"
    result = grade("  ", {**SPEC, "allow_empty": True})
    assert (result.outcome, result.score, result.misconception) == ("incorrect", 0.0, "empty")


def test_the_author_says_what_an_empty_answer_is_worth():
    assert grade("", {**SPEC, "allow_empty": True, "empty_credit": 1}).outcome == "correct"
    result = grade("", {**SPEC, "allow_empty": True, "empty_credit": 0.25,
                        "empty_feedback": "Is there really no such value?"})
    assert (result.outcome, result.score) == ("partial", 0.25)
    assert result.feedback == "Is there really no such value?"


def test_an_allowed_empty_answer_is_one_answer_and_others_are_graded_as_usual():
    spec = {**SPEC, "allow_empty": True}
    assert answer_key("", spec) == answer_key(" ", spec) == "empty"
    assert grade("x^2-2x+1", spec).outcome == "correct"


def test_the_keys_are_checked():
    problems = validate_spec({**SPEC, "allow_empty": "yes", "empty_credit": 2})
    assert "'allow_empty' must be true or false" in problems
    assert "'empty_credit' must be a number from 0 to 1" in problems
