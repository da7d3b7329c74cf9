"""The checker registry's helpers: what counts as the same answer twice."""

import pytest

from grading.checkers import answer_key

NUMERIC = {"type": "numeric", "reference": "0.5", "rtol": 0.01}
INTEGER = {"type": "integer", "reference": "1000"}
CHOICE = {"type": "choice", "options": [{"key": "a", "text": "A"}, {"key": "b", "text": "B"}],
          "correct": ["a"]}


@pytest.mark.parametrize(("spec", "same", "different"), [
    (NUMERIC, ["0.5", "0.50", "1/2", "5e-1", " 0.5 "], "0.51"),
    (INTEGER, ["1000", "1,000", "1e3", "10^3"], "1001"),
    (CHOICE, ["a", " a "], "b"),
])
def test_answers_with_the_same_value_share_a_key(spec, same, different):
    keys = {answer_key(typed, spec) for typed in same}
    assert len(keys) == 1 and None not in keys
    assert answer_key(different, spec) not in keys


def test_an_unreadable_answer_has_no_key():
    assert answer_key("0.5.5", NUMERIC) is None


def test_answers_beyond_the_float_range_keep_distinct_keys():
    spec = {"type": "numeric", "reference": "1"}
    assert answer_key("10^400", spec) != answer_key("10^401", spec)
    assert answer_key("10^400", spec) == answer_key("1e400", spec)
    assert answer_key("1e-320", spec) != answer_key("2e-320", spec)
    assert answer_key("0.5", spec) == answer_key("1/2", spec)
