"""Every Module 5 part grades its own key 1.0 and tags each anticipated wrong answer,
for the default variant (the module's numbers) and for 50 seeded variants."""

from typing import Any

import pytest

from courses.content_files import read_module_folder
from grading.checkers import CHECKERS, grade
from grading.checkers.refs import reference_number
from grading.variants import variant_params
from labs.predictions import spec_against_measurement
from tests.conftest import CONTENT_ROOT

EXERCISES = read_module_folder(CONTENT_ROOT / "module-05").exercises
CASES = [
    pytest.param(source.data, part, id=f"{source.data['slug']}/{part['key']}")
    for source in EXERCISES for part in source.data["parts"]
]
SEEDS = [None, *range(1, 51)]


def _variant(exercise: dict[str, Any], seed: int | None) -> dict[str, Any]:
    return variant_params(exercise.get("parameters", {}), exercise.get("derived", {}), seed)


def _gradable(part: dict[str, Any]) -> dict[str, Any]:
    """A prediction's spec as it is graded once its lab has measured the expected value."""
    if "lab" in part and part["type"] == "choice":
        return spec_against_measurement(part, part["correct"][0])
    return part


def _misconception_answer(part: dict[str, Any], wrong: dict[str, Any], params: dict[str, Any]) -> str:
    """The anticipated wrong answer written as a student would type it."""
    if "phrasings" in wrong:
        return f"I think the problem is {wrong['phrasings'][0]}."
    if part["type"] in ("choice",):
        return str(wrong["answer"])
    value = reference_number(wrong["answer"], params).value
    return str(round(value)) if part["type"] == "integer" else repr(value)


def test_module_05_has_parts_to_check():
    assert len(CASES) == 9


@pytest.mark.parametrize(("exercise", "part"), CASES)
def test_reference_answer_grades_one_in_the_default_and_50_variants(exercise, part):
    spec = _gradable(part)
    checker = CHECKERS[spec["type"]]
    for seed in SEEDS:
        params = _variant(exercise, seed)
        key = checker.reference_answer(spec, params)
        result = grade(key, spec, params)
        if spec["type"] == "text" and spec.get("review") == "always":
            assert result.outcome == "pending", (seed, key, result)
            continue
        assert (result.outcome, result.score) == ("correct", 1.0), (seed, key, result)


WITH_MISCONCEPTIONS = [
    pytest.param(source.data, part, id=f"{source.data['slug']}/{part['key']}")
    for source in EXERCISES for part in source.data["parts"] if part.get("misconceptions")
]


@pytest.mark.parametrize(("exercise", "part"), WITH_MISCONCEPTIONS)
def test_each_anticipated_wrong_answer_gets_its_tag_in_every_variant(exercise, part):
    spec = _gradable(part)
    for seed in SEEDS:
        params = _variant(exercise, seed)
        for wrong in part["misconceptions"]:
            answer = _misconception_answer(part, wrong, params)
            result = grade(answer, spec, params)
            assert result.misconception == wrong["tag"], (seed, answer, result)
            assert result.score in (0.0, None), (seed, answer, result)


def test_default_variants_reproduce_the_module_numbers():
    by_slug = {s.data["slug"]: s.data for s in EXERCISES}
    assert _variant(by_slug["apply-1-gradient-bound"], None) == {"sigma": 0.85, "steps": 40}
    assert _variant(by_slug["apply-2-sequential-steps"], None) == {"N": 1000}
    apply_3 = _variant(by_slug["apply-3-context-value"], None)
    assert [apply_3[f"w{i}"] for i in range(1, 5)] == [0.1, 0.6, 0.2, 0.1]
    assert [apply_3[f"h{i}"] for i in range(1, 5)] == [1, 3, -1, 2]
    context = reference_number("w1*h1 + w2*h2 + w3*h3 + w4*h4", apply_3).value
    assert context == pytest.approx(1.9, abs=1e-12)


APPLY_1 = next(source.data for source in EXERCISES
               if source.data["slug"] == "apply-1-gradient-bound")


def test_apply_1_accepts_the_bound_rounded_to_two_significant_figures_in_every_variant():
    spec = APPLY_1["parts"][0]
    for seed in SEEDS:
        params = _variant(APPLY_1, seed)
        rounded = f"{reference_number(spec['reference'], params).value:.1e}"
        assert grade(rounded, spec, params).outcome == "correct", (seed, rounded)


def test_apply_1_answer_of_one_is_told_nothing_decayed_not_that_it_counted_the_loss():
    spec = APPLY_1["parts"][0]
    for seed in SEEDS:
        params = _variant(APPLY_1, seed)
        assert grade("1", spec, params).misconception == "no-decay", seed
        assert grade("0.97", spec, params).misconception is None, seed


@pytest.mark.parametrize("answer", [
    "RNNs process tokens serially, gradients vanish over long paths, and both come from "
    "their recurrent nature.",
    "They cannot be parallelised and their gradients vanish, because the recurrent hidden "
    "state is carried from step to step.",
    "Training is sequential and gradients vanish over long distances because RNNs are "
    "recurrent.",
])
def test_check_accepts_other_clear_wordings_of_the_three_ideas(answer):
    spec = next(source.data for source in EXERCISES
                if source.data["slug"] == "check-two-problems")["parts"][0]
    assert grade(answer, spec, {}).outcome == "correct", grade(answer, spec, {})
