"""The fairness statistics on counts: intervals, the exact test, Benjamini-Hochberg, and the
acceptance simulation (600 students, 8 variants, 200 seeded classes)."""

from math import comb

import numpy as np
import pytest

from grading.fairness_statistics import (
    MIN_ANSWERS,
    VariantCounts,
    benjamini_hochberg,
    harder_p_value,
    variant_tests,
    wilson_interval,
)

STUDENTS, VARIANTS, RUNS = 600, 8, 200


def test_wilson_interval_matches_published_values() -> None:
    low, high = wilson_interval(5, 10)  # type: ignore[misc]
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)  # type: ignore[misc]
    assert low == 0.0
    assert high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) is None
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)


def _brute_mid_p(s1: int, n1: int, s2: int, n2: int) -> float:
    """The mid-p by exact integer arithmetic (the definition, term by term)."""
    good, total = s1 + s2, n1 + n2
    pmf = [comb(good, x) * comb(total - good, n1 - x) for x in range(0, s1 + 1)]
    return (sum(pmf[:-1]) + pmf[-1] / 2) / comb(total, n1)


@pytest.mark.parametrize("counts", [(1, 10, 9, 10), (34, 75, 367, 525), (70, 75, 300, 525),
                                    (0, 3, 0, 40), (12, 40, 12, 40)])
def test_harder_p_value_is_the_exact_mid_p(counts: tuple[int, int, int, int]) -> None:
    assert harder_p_value(*counts) == pytest.approx(_brute_mid_p(*counts), rel=1e-9)
    assert harder_p_value(1, 10, 9, 10) == pytest.approx(51 / 184756)


def test_benjamini_hochberg_steps_up_to_the_largest_rank_under_its_line() -> None:
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.2]) == [True, False, False, False]
    assert benjamini_hochberg([0.01, 0.02, 0.03, 0.04]) == [True, True, True, True]
    assert benjamini_hochberg([0.2, 0.3]) == [False, False]
    assert benjamini_hochberg([]) == []


def test_a_variant_with_too_few_answers_is_shown_but_never_tested() -> None:
    counts = [VariantCounts("p", "hard", MIN_ANSWERS - 1, 0),
              VariantCounts("p", "easy", 400, 400), VariantCounts("p", "third", 400, 380)]
    hard, easy, third = variant_tests(counts)
    assert hard.rate == 0.0 and hard.p_value is None and not hard.flagged
    assert hard.high is not None and hard.high < 0.15
    assert easy.tested and third.tested and not easy.flagged


def test_flags_are_controlled_across_the_parts_of_a_course() -> None:
    """A p-value that flags alone is not flagged among many parts of equal variants."""
    one = [VariantCounts("a", 0, 60, 27), VariantCounts("a", 1, 60, 40)]
    p_value = variant_tests(one)[0].p_value
    assert p_value is not None and p_value < 0.02
    assert variant_tests(one)[0].flagged
    many = one + [VariantCounts(f"b{i}", v, 60, 36) for i in range(40) for v in (0, 1)]
    assert not variant_tests(many)[0].flagged


def _class(rng: np.random.Generator, rates: list[float]) -> list[VariantCounts]:
    variant = rng.integers(VARIANTS, size=STUDENTS)
    right = rng.random(STUDENTS) < np.array(rates)[variant]
    answered = np.bincount(variant, minlength=VARIANTS)
    correct = np.bincount(variant, weights=right, minlength=VARIANTS)
    return [VariantCounts("part", v, int(answered[v]), int(correct[v])) for v in range(VARIANTS)]


def test_simulation_finds_the_harder_variant_in_95_percent_of_classes() -> None:
    rates = [0.45] + [0.7] * (VARIANTS - 1)
    found = 0
    for seed in range(RUNS):
        tests = variant_tests(_class(np.random.default_rng(seed), rates))
        found += tests[0].flagged
    assert found >= 0.95 * RUNS, found


def test_simulation_flags_equal_variants_in_at_most_5_percent_of_classes() -> None:
    rates = [0.7] * VARIANTS
    alarms = 0
    for seed in range(RUNS):
        tests = variant_tests(_class(np.random.default_rng(10_000 + seed), rates))
        alarms += any(t.flagged for t in tests)
    assert alarms <= 0.05 * RUNS, alarms
