"""Integer answers: exact counts in the forms people write them."""

import pytest

from grading.checkers import grade, self_check, validate_spec

RNN_STEPS = {
    "type": "integer",
    "reference": "N",
    "misconceptions": [
        {"answer": "1", "tag": "rnn-parallel", "feedback": "Step t needs h_{t-1}."},
        {"answer": "N - 1", "tag": "off-by-one", "feedback": "Count the steps again."},
    ],
}
ATTENTION_STEPS = {
    "type": "integer",
    "reference": "1",
    "misconceptions": [
        {"answer": "N", "tag": "attention-sequential", "feedback": "No chain."},
        {"answer": "N^2", "tag": "attention-pairs", "feedback": "Pairs run at once."},
    ],
}
N = {"N": 1000}

RNN_CASES = [
    ("1000", "correct", None),
    ("1,000", "correct", None),
    ("1 000", "correct", None),
    ("1\u202f000", "correct", None),
    ("1e3", "correct", None),
    ("1E3", "correct", None),
    ("10^3", "correct", None),
    ("10**3", "correct", None),
    ("1000.0", "correct", None),
    ("2*500", "correct", None),
    ("  1000  ", "correct", None),
    ("+1000", "correct", None),
    ("1", "incorrect", "rnn-parallel"),
    ("999", "incorrect", "off-by-one"),
    ("1001", "incorrect", None),
    ("100", "incorrect", None),
    ("10000", "incorrect", None),
    ("1000000", "incorrect", None),
    ("-1000", "incorrect", None),
    ("1000.5", "invalid", None),
    ("1e-3", "invalid", None),
    ("0.5", "invalid", None),
    ("10^-3", "invalid", None),
    ("1,00", "invalid", None),
    ("1,000,00", "invalid", None),
    ("1 000 000 0", "invalid", None),
    ("N", "invalid", None),
    ("thousand", "invalid", None),
    ("", "invalid", None),
]


@pytest.mark.parametrize(("answer", "outcome", "tag"), RNN_CASES)
def test_sequential_steps_of_an_rnn(answer, outcome, tag):
    result = grade(answer, RNN_STEPS, N)
    assert (result.outcome, result.misconception) == (outcome, tag)


ATTENTION_CASES = [
    ("1", "correct", None),
    ("1.0", "correct", None),
    ("10^0", "correct", None),
    ("1000", "incorrect", "attention-sequential"),
    ("1,000", "incorrect", "attention-sequential"),
    ("1000000", "incorrect", "attention-pairs"),
    ("10^6", "incorrect", "attention-pairs"),
    ("1 000 000", "incorrect", "attention-pairs"),
    ("0", "incorrect", None),
    ("2", "incorrect", None),
]


@pytest.mark.parametrize(("answer", "outcome", "tag"), ATTENTION_CASES)
def test_sequential_steps_of_self_attention(answer, outcome, tag):
    result = grade(answer, ATTENTION_STEPS, N)
    assert (result.outcome, result.misconception) == (outcome, tag)


def test_a_fraction_is_invalid_with_a_whole_number_message():
    result = grade("1000.5", RNN_STEPS, N)
    assert result.feedback.startswith("a whole number is expected")
    assert result.score is None


def test_canonical_shows_the_value_of_an_expression():
    assert grade("10^3", RNN_STEPS, N).canonical == "10^3 = 1000"
    assert grade("1,000", RNN_STEPS, N).canonical == "1000"


def test_reference_follows_the_variant():
    assert grade("4000", RNN_STEPS, {"N": 4000}).outcome == "correct"
    assert grade("1000", RNN_STEPS, {"N": 4000}).outcome == "incorrect"


def test_integer_spec_validation_and_self_check():
    assert validate_spec(RNN_STEPS) == []
    assert self_check(RNN_STEPS, N) == []
    assert self_check(ATTENTION_STEPS, N) == []
    assert any("not a whole number" in p
               for p in self_check({"type": "integer", "reference": "N/3"}, N))
    assert any("equals the reference" in p for p in self_check(
        {**RNN_STEPS, "misconceptions": [{"answer": "N", "tag": "t", "feedback": "f"}]}, N))
    assert any("unknown key 'rtol'" in p
               for p in validate_spec({"type": "integer", "reference": "N", "rtol": 0.1}))


@pytest.mark.parametrize("typed", ["1.000", "12.500", " 1.000.000 "])
def test_a_point_that_may_be_a_thousands_separator_is_invalid_with_a_hint(typed):
    result = grade(typed, {"type": "integer", "reference": "1000"}, {})
    assert result.outcome == "invalid" and "thousands separator" in result.feedback
