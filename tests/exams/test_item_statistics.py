"""Item statistics against a hand-computed example: four students, three items scored
1,1,1 / 1,1,0 / 1,0,0 / 0,0,0.

By hand (population variances): items 0.1875, 0.25, 0.1875 (sum 0.625); totals 3, 2, 1, 0
have variance 1.25; alpha = 3/2 (1 - 0.625/1.25) = 0.75. Item 1 against the rest (2, 1, 0,
0): covariance sum 0.75, squares 0.75 and 2.75, r = 0.75/sqrt(2.0625) = 0.52223; item 2
against 2, 1, 1, 0: r = 1/sqrt(2) = 0.70711; item 3 against 2, 2, 1, 0: r = 0.52223."""

import pytest

from exams.item_statistics import (
    Taken,
    cronbach_alpha,
    item_statistics,
    pearson,
    score_distribution,
)

PAPERS = [[1, 1, 1], [1, 1, 0], [1, 0, 0], [0, 0, 0]]


def _taken() -> list[Taken]:
    return [Taken(item=f"item{i + 1}", variant="v1", score=row[i], rest=sum(row) - row[i])
            for row in PAPERS for i in range(3)]


def test_cronbach_alpha_of_the_hand_example_is_three_quarters():
    assert cronbach_alpha(PAPERS) == pytest.approx(0.75)


def test_point_biserial_against_the_rest_of_the_paper_matches_the_hand_values():
    found = {s.item: s for s in item_statistics(_taken()) if s.variant == ""}
    assert found["item1"].discrimination == pytest.approx(0.52223, abs=1e-5)
    assert found["item2"].discrimination == pytest.approx(0.70711, abs=1e-5)
    assert found["item3"].discrimination == pytest.approx(0.52223, abs=1e-5)
    assert [found[f"item{i}"].facility for i in (1, 2, 3)] == [0.75, 0.5, 0.25]
    assert found["item1"].students == 4


def test_items_are_flagged_for_negative_discrimination_or_facility_out_of_range():
    # Everyone who does well overall misses this item: negative discrimination.
    taken = [Taken("odd", "", s, r) for s, r in ((0, 3), (0, 2), (1, 1), (1, 0))]
    taken += [Taken("easy", "", 1, r) for r in (0, 1, 2, 3)]
    stats = {s.item: s for s in item_statistics(taken) if s.variant == ""}
    assert stats["odd"].flags == ["negative discrimination"]
    assert stats["easy"].flags == ["too easy"] and stats["easy"].discrimination is None


def test_degenerate_inputs_give_none_not_a_division_by_zero():
    assert pearson([1, 1], [0, 1]) is None and pearson([1], [1]) is None
    assert cronbach_alpha([[1, 1], [1, 1]]) is None and cronbach_alpha([[1, 0]]) is None


def test_the_score_distribution_counts_each_tenth_and_one_in_the_last():
    assert score_distribution([0, 0.05, 0.5, 0.99, 1.0]) == [2, 0, 0, 0, 0, 1, 0, 0, 0, 2]
