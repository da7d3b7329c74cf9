"""Text answers: concepts found by phrasing, partial credit, review, misconceptions."""

import pytest

from grading.checkers import grade, self_check, validate_spec
from grading.checkers.text import find_phrase, normalize_words

RUBRIC = [
    {
        "key": "no-parallelism",
        "points": 1,
        "phrasings": ["parallel", "sequential", "one token at a time", "one after another",
                      "at the same time"],
        "feedback_missing": "Think about speed on a GPU.",
    },
    {
        "key": "vanishing-gradients",
        "points": 1,
        "phrasings": ["vanish", "long-range dependencies", "gradient shrinks",
                      "gradients get smaller"],
        "feedback_missing": "Think about training over long distances.",
    },
    {
        "key": "recurrence",
        "points": 1,
        "phrasings": ["recurrence", "recurrent connection", "depends on the previous",
                      "previous hidden state", "chain of hidden states"],
        "feedback_missing": "Name the cause they share.",
    },
]
EXPLODING = {
    "phrasings": ["exploding gradient", "exploding gradients"],
    "unless": ["vanishing-gradients"],
    "tag": "exploding-only",
    "feedback": "Exploding is the lesser half; name vanishing too.",
}
CHECK = {
    "type": "text",
    "rubric": RUBRIC,
    "pass_score": 1.0,
    "review": "never",
    "misconceptions": [EXPLODING],
    "reference": "RNNs cannot run in parallel, their gradients vanish over long paths, and "
                 "both come from the recurrence.",
}
CHECK_UNDECIDED = {**CHECK, "review": "undecided"}

FULL = "No parallelism: steps run one after another, gradients vanish, caused by the recurrence."

CHECK_CASES = [
    # (answer, outcome, score, concepts, tag)
    (FULL, "correct", 1.0, ["no-parallelism", "vanishing-gradients", "recurrence"], None),
    ("They are sequential, the gradients vanish, and the cause is recurrence.",
     "correct", 1.0, ["no-parallelism", "vanishing-gradients", "recurrence"], None),
    ("Parallelism is impossible; vanishing gradients; each step depends on the previous one.",
     "correct", 1.0, ["no-parallelism", "vanishing-gradients", "recurrence"], None),
    ("Processing is SEQUENTIAL. Gradients VANISH. Recurrent connections are to blame!",
     "correct", 1.0, ["no-parallelism", "vanishing-gradients", "recurrence"], None),
    ("They process one token at a time and long-range dependencies are hard, because the "
     "previous hidden state is needed", "correct", 1.0,
     ["no-parallelism", "vanishing-gradients", "recurrence"], None),
    ("no parallel training and vanishing gradients", "partial", 0.666667,
     ["no-parallelism", "vanishing-gradients"], None),
    ("The recurrence makes it sequential.", "partial", 0.666667,
     ["no-parallelism", "recurrence"], None),
    ("Exploding gradients.", "incorrect", 0.0, [], "exploding-only"),
    ("exploding gradients and the recurrence", "partial", 0.333333, ["recurrence"],
     "exploding-only"),
    ("exploding and vanishing gradients, no parallelism, from the recurrence", "correct", 1.0,
     ["no-parallelism", "vanishing-gradients", "recurrence"], None),
    ("The fixed-size hidden state is a bottleneck.", "incorrect", 0.0, [], None),
    ("I do not know.", "incorrect", 0.0, [], None),
]


@pytest.mark.parametrize(("answer", "outcome", "score", "concepts", "tag"), CHECK_CASES)
def test_check_exercise_rubric(answer, outcome, score, concepts, tag):
    result = grade(answer, CHECK, {})
    assert result.outcome == outcome
    assert result.score == pytest.approx(score, abs=1e-6)
    assert result.concepts_found == concepts
    assert result.misconception == tag


def test_missing_concepts_get_their_feedback():
    result = grade("no parallel training and vanishing gradients", CHECK, {})
    assert result.feedback == "Name the cause they share."


def test_exploding_only_gets_the_misconception_feedback_first():
    result = grade("exploding gradients and the recurrence", CHECK, {})
    assert result.feedback.startswith("Exploding is the lesser half")
    assert "Think about speed on a GPU." in result.feedback


UNDECIDED_CASES = [
    (FULL, "correct", 1.0),
    ("no parallel training and vanishing gradients", "review", None),
    ("Exploding gradients and the recurrence.", "review", None),
    ("recurrence", "review", None),  # very short
    ("parallel vanishing recurrence", "review", None),  # a list of keywords, not an answer
    ("I have no idea about this question.", "incorrect", 0.0),
    (" ".join([FULL] * 30), "review", None),  # very long
]


@pytest.mark.parametrize(("answer", "outcome", "score"), UNDECIDED_CASES)
def test_undecided_answers_go_to_review(answer, outcome, score):
    result = grade(answer, CHECK_UNDECIDED, {})
    assert (result.outcome, result.score) == (outcome, score)


def test_pending_answer_still_reports_concepts_and_misconception():
    result = grade("Exploding gradients and the recurrence.", CHECK_UNDECIDED, {})
    assert result.concepts_found == ["recurrence"]
    assert result.misconception == "exploding-only"
    assert "reviewed by a teacher" in result.feedback


def test_an_answer_left_for_review_shows_the_hints_of_the_concepts_it_misses():
    """Issue 25 item 5: a short answer waiting for a teacher still says what to think about."""
    short = grade("recurrence", CHECK_UNDECIDED, {})
    assert short.outcome == "review" and "reviewed by a teacher" in short.feedback
    assert "Think about speed on a GPU." in short.feedback
    assert "Think about training over long distances." in short.feedback
    assert "Name the cause they share." not in short.feedback  # the concept it has
    always = grade("no parallel training and vanishing gradients", {**CHECK, "review": "always"},
                   {})
    assert always.outcome == "review" and "Name the cause they share." in always.feedback
    assert "Think about speed" not in always.feedback


def test_always_reviewed_answers_are_pending_with_concepts_found():
    spec = {**CHECK, "review": "always"}
    result = grade(FULL, spec, {})
    assert (result.outcome, result.score) == ("review", None)
    assert result.concepts_found == ["no-parallelism", "vanishing-gradients", "recurrence"]


def test_pass_score_below_one_passes_with_some_concepts():
    spec = {**CHECK, "pass_score": 0.6}
    assert grade("no parallel training and vanishing gradients", spec, {}).outcome == "correct"
    assert grade("recurrence is the problem here", spec, {}).outcome == "partial"


PHRASES = [
    # (answer text, phrasing, found)
    ("parallelism", "parallel", True),
    ("parallelization is impossible", "parallel", True),
    ("Non-parallel", "parallel", True),
    ("the gradient vanishes", "vanish", True),
    ("vanishing", "vanish", True),
    ("vanished", "vanishing", True),
    ("long range dependency", "long-range dependencies", True),
    ("long-range dependencies", "long range dependency", True),
    ("the gradient shrinks", "gradient shrinks", True),
    ("the gradients shrink fast", "gradient shrinks", True),
    ("the gradient quickly shrinks", "gradient shrinks", True),
    ("the gradient, after many many steps, shrinks", "gradient shrinks", False),
    ("shrinks the gradient", "gradient shrinks", False),
    ("one token at a time", "one token at a time", True),
    ("one token at the time", "one token at a time", False),
    ("it's sequential", "sequential", True),
    ("sequentially", "sequential", True),
    ("sequence", "sequential", False),
    ("state", "states", True),
    ("states", "state", True),
    ("dependencies", "dependency", True),
    ("each step depends only on the previous", "depends on the previous", True),
    ("the recurrent network", "recurrence", False),
    ("RECURRENCE!", "recurrence", True),
    ("idle", "idle", True),
    ("idler", "idle", False),
    ("didn't learn", "didn't learn", True),
    ("did not learn", "didn't learn", False),
]


@pytest.mark.parametrize(("text", "phrase", "found"), PHRASES)
def test_phrase_matching(text, phrase, found):
    assert find_phrase(normalize_words(text), normalize_words(phrase)) is found


def test_normalisation_lowercases_and_drops_punctuation():
    assert normalize_words("Long-range, DEPENDENCIES! (5.4)") == [
        "long", "range", "dependencies", "5", "4"]
    assert normalize_words("don\u2019t") == ["dont"]


def test_invalid_text_answers():
    assert grade("", CHECK, {}).outcome == "invalid"
    assert grade("  ...  ", CHECK, {}).outcome == "invalid"
    assert grade("x" * 5001, CHECK, {}).outcome == "invalid"


def test_text_spec_validation_and_self_check():
    assert validate_spec(CHECK) == []
    assert self_check(CHECK, {}) == []
    bad = {**CHECK, "review": "sometimes", "pass_score": 2,
           "misconceptions": [{**EXPLODING, "unless": ["nope"]}]}
    problems = validate_spec(bad)
    assert any("'review'" in p for p in problems)
    assert any("'pass_score'" in p for p in problems)
    assert any("'unless' names 'nope'" in p for p in problems)
    weak = {**CHECK, "reference": "It is slow."}
    assert any("does not contain the rubric concepts" in p for p in self_check(weak, {}))
    no_words = {**CHECK, "rubric": [{**RUBRIC[0], "phrasings": ["..."]}]}
    assert any("has no words" in p for p in validate_spec(no_words))
