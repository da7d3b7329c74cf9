"""The attempt penalty in words (issue 25, item 5): never spoken of at a zero score."""

from grading.answer_display import penalty_note


def test_a_zero_score_says_nothing_of_a_penalty() -> None:
    assert penalty_note(outcome="incorrect", attempt=3, penalty=0.1, score=0.0) == ""


def test_a_penalised_score_says_why() -> None:
    assert penalty_note(outcome="correct", attempt=3, penalty=0.1, score=0.8) == (
        "correct on attempt 3, 10% off per earlier attempt")
    assert penalty_note(outcome="correct", attempt=1, penalty=0.1, score=1.0) == ""
