"""Error carried forward: a later part is marked against the student's own earlier answer,
with the author's credit, never for a trivial earlier answer, and invalid when the earlier
answer is missing."""

from grading.checkers.carried import (
    Earlier,
    answer_value,
    carried_keys,
    grade_carried,
    grade_carried_kept,
    key_value,
)
from grading.content_checks import part_spec_problems

SCORES = {"type": "vector", "key": "scores", "reference": ["2*a", "a", "0"], "rtol": 0.01}
# the weight of the first state: softmax(scores)[1], written with the scores' dot products
WEIGHTS = {"type": "numeric", "key": "weights",
           "reference": "exp(dot(answer(\"scores\"), e1)) / ("
                        "exp(dot(answer(\"scores\"), e1)) + "
                        "exp(dot(answer(\"scores\"), e2)) + "
                        "exp(dot(answer(\"scores\"), e3)))",
           "rtol": 0.01, "carried_credit": 0.8}
PARAMS = {"a": 1.0, "e1": [1, 0, 0], "e2": [0, 1, 0], "e3": [0, 0, 1]}


def _earlier(raw: str | None) -> dict[str, Earlier]:
    value = None if raw is None else answer_value(raw, SCORES, PARAMS)
    return {"scores": Earlier("(a) scores", value, key_value(SCORES, PARAMS))}


def test_the_spec_names_the_earlier_parts_it_uses() -> None:
    assert carried_keys(WEIGHTS) == ["scores"]
    assert carried_keys({"reference": "answer(x) + answer('y') + answer(x)"}) == ["x", "y"]


def test_a_correct_answer_is_correct_whatever_the_earlier_answer() -> None:
    result = grade_carried("0.665", WEIGHTS, PARAMS, _earlier("[1, 1, 1]"))
    assert (result.outcome, result.score) == ("correct", 1.0)


def test_an_answer_right_for_the_students_own_earlier_answer_gets_the_carried_credit() -> None:
    # scores answered [1, 1, 2] (wrong): softmax([1, 1, 2]) starts with 0.212
    result = grade_carried("0.212", WEIGHTS, PARAMS, _earlier("[1, 1, 2]"))
    assert (result.outcome, result.score, result.misconception) == ("partial", 0.8, "carried")
    assert result.feedback.startswith("Marked using your answer to (a) scores")


def test_a_trivial_earlier_answer_gives_no_carried_credit() -> None:
    assert grade_carried("0.3333", WEIGHTS, PARAMS, _earlier("[0, 0, 0]")).outcome == \
        "incorrect"  # right for scores of zero, which give no carried credit
    assert grade_carried("0.5761", WEIGHTS, PARAMS, _earlier("[1, 0, 0]")).outcome == \
        "incorrect"  # [1, 0, 0] is a value the question gives (e1)


def test_a_refused_carried_credit_says_why() -> None:
    given = grade_carried("0.5761", WEIGHTS, PARAMS, _earlier("[1, 0, 0]"))
    assert (given.outcome, given.score) == ("incorrect", 0.0)
    assert "right given your answer to (a) scores is [1, 0, 0], a value the question gives " \
        "(e1)" in given.feedback
    assert "earns no carried credit" in given.feedback
    zero = grade_carried("0.3333", WEIGHTS, PARAMS, _earlier("[0, 0, 0]"))
    assert "your answer to (a) scores is zero" in zero.feedback
    plain = grade_carried("0.5", WEIGHTS, PARAMS, _earlier("[1, 0, 0]"))
    assert "carried credit" not in plain.feedback  # wrong whatever: nothing to explain


def test_a_later_answer_keeps_the_better_of_its_marks_then_and_now() -> None:
    # (b) was right for (a) = [1, 1, 2]; (a) has since been corrected to the key.
    kept = grade_carried_kept("0.212", WEIGHTS, PARAMS, _earlier("[2, 1, 0]"),
                              then=_earlier("[1, 1, 2]"))
    assert (kept.outcome, kept.score, kept.misconception) == ("partial", 0.8, "carried")
    assert kept.feedback.startswith("Kept from your answer to (a) scores when you answered "
                                    "this part ([1, 1, 2]): you have changed it since")
    # A mark that is better now is the one given; unchanged answers grade once.
    now = grade_carried_kept("0.665", WEIGHTS, PARAMS, _earlier("[2, 1, 0]"),
                             then=_earlier("[1, 1, 2]"))
    assert (now.outcome, now.score) == ("correct", 1.0) and "Kept" not in now.feedback
    same = grade_carried_kept("0.212", WEIGHTS, PARAMS, _earlier("[1, 1, 2]"),
                              then=_earlier("[1, 1, 2]"))
    assert same.feedback.startswith("Marked using your answer to (a) scores")


def test_a_missing_earlier_answer_makes_the_part_invalid_with_a_message() -> None:
    result = grade_carried("0.3", WEIGHTS, PARAMS, _earlier(None))
    assert result.outcome == "invalid"
    assert "Answer (a) scores first" in result.feedback


def test_a_plain_wrong_answer_stays_wrong() -> None:
    result = grade_carried("0.5", WEIGHTS, PARAMS, _earlier("[1, 1, 2]"))
    assert (result.outcome, result.score) == ("incorrect", 0.0)


def test_sync_checks_the_key_with_the_earlier_keys_and_the_part_names() -> None:
    context = {"spec": WEIGHTS, "parameters": {"a": {"default": 1.0, "choices": [1.0, 2.0]},
                                               "e1": {"default": [1, 0, 0]},
                                               "e2": {"default": [0, 1, 0]},
                                               "e3": {"default": [0, 0, 1]}}, "derived": {},
               "parts": [SCORES, WEIGHTS]}
    assert part_spec_problems(context) == []
    wrong = {**WEIGHTS, "reference": "softmax(answer(\"nope\"))"}
    problems = part_spec_problems({**context, "spec": wrong, "parts": [SCORES, wrong]})
    assert any("names no earlier part" in p for p in problems)
    later = part_spec_problems({**context, "parts": [WEIGHTS, SCORES]})
    assert any("names no earlier part" in p for p in later)
