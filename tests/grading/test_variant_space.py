"""Variants numbered for authors: 0 the module's numbers, 1..N every combination of a small
space, or seeded draws 1..200 of a large one."""

import pytest

from grading.variant_space import SAMPLE_SIZE, variant_count, variant_numbered, variants_all
from grading.variants import variant_params

SMALL = {"sigma": {"default": 0.85, "choices": [0.8, 0.9]}, "steps": {"default": 40,
                                                                      "min": 10, "max": 30,
                                                                      "step": 10}}


def test_a_small_space_is_listed_completely_in_product_order():
    assert variant_count(SMALL) == (6, True)
    listed = [(v.number, v.params["sigma"], v.params["steps"]) for v in variants_all(SMALL, {})]
    assert listed == [(0, 0.85, 40), (1, 0.8, 10), (2, 0.8, 20), (3, 0.8, 30), (4, 0.9, 10),
                      (5, 0.9, 20), (6, 0.9, 30)]


def test_a_numbered_variant_equals_its_place_in_the_listing_and_computes_derived():
    derived = {"total": "sigma*steps"}
    for variant in variants_all(SMALL, derived):
        assert variant_numbered(SMALL, derived, variant.number) == variant
    assert variant_numbered(SMALL, derived, 4).params["total"] == pytest.approx(9.0)


def test_a_large_space_is_sampled_by_the_seeds_1_to_200():
    large = {"n": {"default": 5, "min": 0, "max": 10_000}}
    assert variant_count(large) == (SAMPLE_SIZE, False)
    assert variant_numbered(large, {}, 7).params == variant_params(large, {}, 7)
    assert sum(1 for _ in variants_all(large, {})) == SAMPLE_SIZE + 1


def test_an_exercise_without_parameters_has_only_variant_0_and_no_other():
    assert [v.number for v in variants_all({}, {})] == [0]
    with pytest.raises(ValueError, match="no variant 1"):
        variant_numbered({}, {}, 1)


def test_a_variant_describes_itself_by_number_and_values():
    assert variant_numbered(SMALL, {}, 2).describe() == "variant 2 (sigma=0.8, steps=20)"
