"""A variant's key is a digest of its drawn parameters: equal draws share it, a change of
the definitions changes it, an exercise without parameters has none."""

import pytest

from grading.variant_keys import parameter_definitions, variant_key
from grading.variants import variant_params

FIRST = {"sigma": {"default": 0.85, "choices": [0.8, 0.85, 0.9, 0.95]}}
SECOND = {"sigma": {"default": 2, "choices": [1, 2, 3]}}


@pytest.mark.parametrize("seed", [None, 1, 12345678901234])
def test_a_remembered_key_follows_the_parameter_definitions(seed):
    keys = {}
    for parameters in (FIRST, SECOND, FIRST):
        key = variant_key(parameter_definitions(parameters), seed)
        drawn = repr(variant_params(parameters, None, seed))
        assert keys.setdefault(drawn, key) == key and len(key) == 32
    assert len(set(keys.values())) == len(keys)


def test_seeds_that_draw_the_same_parameters_share_a_key():
    definitions = parameter_definitions(FIRST)
    by_draw: dict[str, set[str]] = {}
    for seed in range(200):
        drawn = repr(variant_params(FIRST, None, seed))
        by_draw.setdefault(drawn, set()).add(variant_key(definitions, seed))
    assert len(by_draw) == 4 and all(len(keys) == 1 for keys in by_draw.values())


def test_an_exercise_without_parameters_has_no_key():
    assert variant_key(parameter_definitions(None), 7) == ""
    assert variant_key(parameter_definitions({}), None) == ""
