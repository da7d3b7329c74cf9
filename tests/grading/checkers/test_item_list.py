"""Lists of words and mixed items: each item its own comparer (MITx SingleListGrader)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade, self_check, validate_spec
from grading.checkers.item_list import best_assignment


def words(*keys: str, **extra) -> dict:
    return {"type": "item_list", "items": [{"type": "string", "reference": k} for k in keys],
            **extra}


# mitodl/mitx-grading-library tests/test_singlelistgrader.py, with StringGrader subgraders.
ANIMALS = {"type": "item_list", "items": [
    {"type": "string", "reference": "tiger",
     "alternatives": [{"answer": "lion", "credit": 0.5, "feedback": "lion_msg"}]},
    {"type": "string", "reference": "skunk"},
    {"type": "string", "reference": "zebra", "alternatives": [
        {"answer": "horse", "credit": 0},
        {"answer": "unicorn", "credit": 0.75, "feedback": "unicorn_msg"}]},
]}


@pytest.mark.parametrize(("answer", "spec", "score"), [
    ("cat, fish, dog", words("cat", "dog", "unicorn"), 2 / 3),            # test_order_not_matter
    ("skunk, lion, unicorn", ANIMALS, (1 + 0.5 + 0.75) / 3),        # partial_credit_assigment
    ("hawk, moose", words("moose", "eagle"), 0.5),                  # partial_credit_override
    ("hawk, moose", words("moose", "eagle", partial=False), 0.0),
    ("skunk, fish, lion, unicorn, bear", ANIMALS, (1 + 0.5 + 0.75) / 3 - 2 / 3),  # too many
    ("tiger, skunk, horse", words("tiger", "skunk"), 0.5),          # ordered_wrong_number
    ("tiger", words("tiger", "skunk"), 0.5),
    ("skunk, fish, dragon, dog, lion, unicorn, bear", ANIMALS, 0.0),  # way too many
    ("skunk, unicorn", ANIMALS, (1 + 0.75) / 3),                    # too few
    ("cat, fish, moose", words("cat", "dog", "fish", ordered=True), 1 / 3),  # order_matters
    ("cat, dog", words("cat", "dog"), 1.0),                         # test_docs
    ("dog, cat", words("cat", "dog"), 1.0),
    ("cat, octopus", words("cat", "dog"), 0.5),
    ("dog", words("cat", "dog", ordered=True), 0.0),
    ("cat; dog", words("cat", "dog", delimiter=";"), 1.0),
    ("cat, dog", words("cat", "dog", delimiter=";"), 0.0),
])
def test_the_mitx_single_list_grader_fixtures(answer, spec, score):
    result = grade(answer, spec)
    assert result.score == pytest.approx(score)


def test_partial_alternatives_pass_their_messages_on():
    result = grade("skunk, lion, unicorn", ANIMALS)
    assert "lion_msg" in result.feedback
    assert "unicorn_msg" in result.feedback


MIXED = {"type": "item_list", "items": [
    {"type": "numeric", "reference": "2", "rtol": 0.01},
    {"type": "symbolic", "reference": "x^2", "variables": ["x"]},
    {"type": "quantity", "reference": "3 m"},
    {"type": "string", "reference": "parabola", "misconceptions": [
        {"answer": "hyperbola", "tag": "conic-mixup", "feedback": "Not a hyperbola."}]},
]}


@pytest.mark.parametrize(("answer", "outcome"), [
    ("2, x^2, 3 m, parabola", "correct"),
    ("parabola, 300 cm, x*x, 2.01", "correct"),
    ("2, x^2, 3 m", "partial"),
    ("2, x^3, 3 m, parabola", "partial"),
])
def test_mixed_items_each_with_its_own_comparer(answer, outcome):
    assert grade(answer, MIXED).outcome == outcome


def test_a_misconception_of_an_item_is_counted():
    result = grade("2, x^2, 3 m, hyperbola", MIXED)
    assert result.misconception == "conic-mixup"
    assert "Not a hyperbola." in result.feedback


def test_an_entry_no_item_can_read_is_refused_at_its_place_with_a_suggestion():
    maths = {**MIXED, "items": MIXED["items"][:3]}  # a string item would read anything
    result = grade("2, y^2, 3 m", maths)
    assert result.outcome == "invalid"
    assert result.position == 4
    assert "may use: x" in result.feedback
    result = grade("2,, x^2", MIXED)
    assert (result.outcome, result.position) == ("invalid", 3)


def test_several_boxes_are_one_list_in_any_order():
    # The answer form joins several answer values with commas (grading/answer_form.py).
    spec = words("red", "green", "blue")
    assert grade(",".join(["blue", "red", "green"]), spec).outcome == "correct"


def test_whole_list_alternatives_as_mitx_answers_tuples():
    spec = {**words("cat", "meow"), "alternatives": [
        {"items": [{"type": "string", "reference": "dog"},
                   {"type": "string", "reference": "woof"}]}]}
    assert grade("dog, woof", spec).outcome == "correct"
    assert grade("cat, woof", spec).score == pytest.approx(0.5)


def test_spec_checks():
    assert self_check(MIXED, {}) == []
    assert validate_spec({"type": "item_list", "items": []})
    problems = validate_spec({"type": "item_list", "items": [{"type": "numeric"}]})
    assert any(p.startswith("'items' entry 1:") for p in problems)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.floats(min_value=0, max_value=1), min_size=4, max_size=4),
                min_size=1, max_size=4))
def test_the_assignment_is_the_best_one(weights):
    import itertools

    pairs = best_assignment(weights)
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    got = sum(weights[i][j] for i, j in pairs)
    best = max(sum(weights[i][p[i]] for i in range(len(weights)))
               for p in itertools.permutations(range(4), len(weights)))
    assert got == pytest.approx(best)


def test_pathological_lists_are_refused():
    assert grade(", ".join(["cat"] * 100), words("cat")).outcome == "invalid"
    assert grade("x" * 5000, words("cat")).outcome == "invalid"
