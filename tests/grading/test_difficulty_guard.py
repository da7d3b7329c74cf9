"""Difficulty guards checked by sync over every variant, and the key's spread."""

import pytest

from grading.content_checks import part_spec_problems
from grading.difficulty_guard import key_spread

PARAMETERS = {"sigma": {"default": 0.85, "choices": [0.85, 0.95]},
              "steps": {"default": 40, "choices": [30, 40]}}
SPEC = {"type": "numeric", "reference": "sigma^steps", "rtol": 0.01,
        "misconceptions": [{"answer": "sigma*steps", "tag": "linear-decay", "feedback": "Not linear."},
                           {"answer": "sigma^(steps-1)", "tag": "one-step-short",
                            "feedback": "Count the steps."}]}


def _problems(guard: dict) -> list[str]:
    return part_spec_problems({"spec": {**SPEC, "difficulty_guard": guard},
                               "parameters": PARAMETERS, "derived": {}})


def test_a_part_whose_key_keeps_its_guards_syncs() -> None:
    assert _problems({"key_within": [0.001, 1], "key_spread_at_most": 200,
                      "misconception_margin": 0.03}) == []


def test_a_key_outside_its_band_names_the_variant() -> None:
    first, second = _problems({"key_within": [0.01, 1]})
    # 0.85^40 = 0.0015 in the default variant (and variant 2, its twin); 0.85^30 = 0.0076.
    assert first == ("'difficulty_guard': the key 0.0015023 is outside 'key_within' [0.01, 1], "
                     "in variant 0 (sigma=0.85, steps=40) (and in 1 other variant)")
    assert "the key 0.00763076" in second and "variant 1 (sigma=0.85, steps=30)" in second


def test_a_spread_wider_than_declared_is_refused() -> None:
    [problem] = _problems({"key_spread_at_most": 100})
    assert "from 0.0015023 to 0.214639" in problem and "spread of 143" in problem


def test_a_misconception_near_the_key_in_some_variant_is_refused() -> None:
    # sigma^(steps-1) = key / sigma: 5.3% above the key when sigma = 0.95, 17.6% at 0.85.
    problems = _problems({"misconception_margin": 0.1})
    assert problems == [
        "'difficulty_guard': misconception 'one-step-short' gives 0.225936, within 0.1 of the "
        "key 0.214639, in variant 3 (sigma=0.95, steps=30)",
        "'difficulty_guard': misconception 'one-step-short' gives 0.135276, within 0.1 of the "
        "key 0.128512, in variant 4 (sigma=0.95, steps=40)"]


@pytest.mark.parametrize(("guard", "message"), [
    ({"key_within": [2, 1]}, "'key_within' must be [low, high]"),
    ({"key_spread_at_most": 0.5}, "'key_spread_at_most' must be a number of at least 1"),
    ({"misconception_margin": -1}, "'misconception_margin' must be a positive number"),
    ({"key_band": [0, 1]}, "unknown key 'key_band'"),
])
def test_a_malformed_guard_is_refused_before_any_variant(guard: dict, message: str) -> None:
    problems = _problems(guard)
    assert any(message in p for p in problems), problems


def test_a_key_that_is_not_one_number_cannot_carry_a_guard() -> None:
    spec = {"type": "symbolic", "reference": "sigma*x", "variables": ["x"],
            "difficulty_guard":
            {"key_within": [0, 100]}}
    problems = part_spec_problems({"spec": spec, "parameters": PARAMETERS, "derived": {}})
    assert any("needs a key that is one number" in p for p in problems), problems


def test_key_spread_reports_the_range_median_and_ratio() -> None:
    spread = key_spread([2.0, 8.0, 4.0, 4.0])
    assert spread is not None
    assert (spread.variants, spread.distinct, spread.low, spread.median, spread.high,
            spread.ratio) == (4, 3, 2.0, 4.0, 8.0, 4.0)
    assert key_spread([0.0, 1.0]).ratio is None  # type: ignore[union-attr]
    assert key_spread([]) is None
