"""Variants: seeded parameters, exact derived values, references and prompt rendering."""

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.variants import (
    format_value,
    prompt_names,
    reference_value,
    render_prompt,
    seed_for,
    validate_parameters,
    variant_drawer,
    variant_params,
)

APPLY_1 = {
    "sigma": {"default": 0.85, "choices": [0.8, 0.85, 0.9, 0.95]},
    "steps": {"default": 40, "choices": [20, 25, 30, 35, 40, 45, 50, 55, 60]},
}
APPLY_3 = {
    "w1": {"default": 0.1, "choices": [0.1, 0.05]},
    "w2": {"default": 0.6, "choices": [0.5, 0.6]},
    "w3": {"default": 0.2, "choices": [0.2, 0.1]},
    "h1": {"default": 1, "choices": [1, 2]},
    "h2": {"default": 3, "choices": [3, 4]},
    "h3": {"default": -1, "choices": [-1, -2]},
    "h4": {"default": 2, "choices": [2, 1]},
}
APPLY_3_DERIVED = {"w4": "1 - w1 - w2 - w3"}
LISTS = {
    "weights": {"default": [0.1, 0.6, 0.2, 0.1], "choices": [[0.1, 0.6, 0.2, 0.1],
                                                             [0.25, 0.25, 0.25, 0.25]]},
    "states": {"default": [1, 3, -1, 2]},
}


def test_default_variant_reproduces_the_module_numbers():
    assert variant_params(APPLY_1, {}, None) == {"sigma": 0.85, "steps": 40}
    params = variant_params(APPLY_3, APPLY_3_DERIVED, None)
    assert [params[k] for k in ("w1", "w2", "w3", "w4")] == [0.1, 0.6, 0.2, 0.1]
    assert [params[k] for k in ("h1", "h2", "h3", "h4")] == [1, 3, -1, 2]
    assert variant_params({"N": {"default": 1000}}, None, None) == {"N": 1000}


def test_derived_parameters_are_computed_exactly():
    params = variant_params(APPLY_3, APPLY_3_DERIVED, None)
    assert params["w4"] == 0.1  # 1 - 0.1 - 0.6 - 0.2 in floats would be 0.09999999999999992
    assert isinstance(params["w4"], float)
    assert 1 - 0.1 - 0.6 - 0.2 != 0.1


def test_derived_parameters_may_use_each_other_in_any_order():
    params = variant_params({"a": {"default": 2}}, {"c": "b * 2", "b": "a + 1"}, None)
    assert params == {"a": 2, "b": 3, "c": 6}


def test_derived_whole_numbers_stay_integers():
    assert variant_params({"N": {"default": 1000}}, {"M": "N/2"}, None)["M"] == 500


def test_seeded_draws_are_deterministic_and_come_from_the_choices():
    for seed in range(50):
        params = variant_params(APPLY_1, {}, seed)
        assert params == variant_params(APPLY_1, {}, seed)
        assert params["sigma"] in APPLY_1["sigma"]["choices"]
        assert params["steps"] in APPLY_1["steps"]["choices"]


def test_different_seeds_give_different_variants():
    variants = {tuple(sorted(variant_params(APPLY_1, {}, s).items())) for s in range(40)}
    assert len(variants) > 10


def test_draws_use_numpy_default_rng_in_sorted_name_order():
    import numpy as np

    rng = np.random.default_rng(7)
    sigma = APPLY_1["sigma"]["choices"][int(rng.integers(4))]
    steps = APPLY_1["steps"]["choices"][int(rng.integers(9))]
    assert variant_params(APPLY_1, {}, 7) == {"sigma": sigma, "steps": steps}


GRID = {"x": {"default": 0.85, "min": 0.8, "max": 0.95, "step": 0.05},
        "n": {"default": 5, "min": 2, "max": 6}, "N": {"default": 1000}}
#: What each parameter of GRID is drawn from, written out (None: it keeps its default).
GRID_POOLS = {"x": [0.8, 0.85, 0.9, 0.95], "n": [2, 3, 4, 5, 6], "N": None}


def _drawn_by_hand(parameters, pools, seed):
    """The draw rule stated independently: numpy's default_rng(seed), names in sorted order,
    one integer per parameter that has a pool; seed None gives the defaults."""
    import numpy as np

    if seed is None:
        return {name: spec["default"] for name, spec in parameters.items()}
    rng = np.random.default_rng(seed)
    return {name: parameters[name]["default"] if pools[name] is None
            else pools[name][int(rng.integers(len(pools[name])))] for name in sorted(parameters)}


@settings(max_examples=50, deadline=None)
@given(seed=st.one_of(st.none(), st.integers(min_value=0, max_value=2**63 - 1)))
def test_variant_drawer_draws_what_variant_params_draws(seed):
    cases = [(GRID, GRID_POOLS), ({}, {})] + [
        (p, {name: spec.get("choices") for name, spec in p.items()})
        for p in (APPLY_1, APPLY_3, LISTS)]
    for parameters, pools in cases:
        expected = _drawn_by_hand(parameters, pools, seed)
        assert variant_drawer(parameters)(seed) == expected
        assert variant_params(parameters, None, seed) == expected


def test_variant_drawer_rejects_invalid_definitions_at_once():
    with pytest.raises(ValueError):
        variant_drawer({"x": {"choices": [1, 2]}})


def test_min_max_step_grid_gives_clean_decimals():
    spec = {"x": {"default": 0.85, "min": 0.8, "max": 0.95, "step": 0.05}}
    seen = {variant_params(spec, {}, seed)["x"] for seed in range(200)}
    assert seen == {0.8, 0.85, 0.9, 0.95}


def test_integer_grid_without_step_gives_integers():
    spec = {"n": {"default": 5, "min": 2, "max": 6}}
    seen = {variant_params(spec, {}, seed)["n"] for seed in range(200)}
    assert seen == {2, 3, 4, 5, 6}
    assert all(isinstance(v, int) for v in seen)


def test_a_parameter_without_choices_keeps_its_default():
    assert variant_params({"N": {"default": 1000}}, {}, 123) == {"N": 1000}


def test_list_parameters_are_drawn_whole():
    for seed in range(20):
        params = variant_params(LISTS, {}, seed)
        assert params["weights"] in LISTS["weights"]["choices"]
        assert params["states"] == [1, 3, -1, 2]


def test_seed_for_is_deterministic_and_uses_every_part():
    seed = seed_for(1, "6507faaa-dbef-4ffc-810f-9455c69a3005", 42)
    assert seed == seed_for(1, "6507faaa-dbef-4ffc-810f-9455c69a3005", 42)
    assert 0 <= seed < 2**63
    assert seed != seed_for(1, "6507faaa-dbef-4ffc-810f-9455c69a3005", 43)
    assert seed != seed_for(2, "6507faaa-dbef-4ffc-810f-9455c69a3005", 42)
    assert seed != seed_for(1, "8a5a01ab-f24f-45c9-812f-fdd50a767e79", 42)


def test_seed_for_is_stable_across_processes():
    # sha256 of "1:abc:2", first 8 bytes, top bit cleared: fixed forever.
    import hashlib

    digest = hashlib.sha256(b"1:abc:2").digest()
    assert seed_for(1, "abc", 2) == int.from_bytes(digest[:8], "big") & (2**63 - 1)


def test_reference_value_is_exact():
    assert reference_value("sigma^steps", {"sigma": 0.85, "steps": 40}) == \
        sympy.Rational(17, 20) ** 40
    value = reference_value("w1*h1 + w2*h2 + w3*h3 + w4*h4",
                            variant_params(APPLY_3, APPLY_3_DERIVED, None))
    assert value == sympy.Rational(19, 10)


LIST_REFERENCES = [
    ("dot(weights, states)", Fraction(19, 10)),
    ("sum(states)", Fraction(5)),
    ("mean(states)", Fraction(5, 4)),
    ("len(states)", Fraction(4)),
    ("dot(weights, abs(states))", Fraction(23, 10)),
    ("sum(weights)", Fraction(1)),
    ("sum(weights*states)", Fraction(19, 10)),
    ("sum(2*states)", Fraction(10)),
]


@pytest.mark.parametrize(("expr", "expected"), LIST_REFERENCES)
def test_list_parameters_support_dot_sum_mean_len_and_elementwise_abs(expr, expected):
    value = reference_value(expr, {"weights": [0.1, 0.6, 0.2, 0.1], "states": [1, 3, -1, 2]})
    assert value == sympy.Rational(expected.numerator, expected.denominator)


def test_reference_value_keeps_declared_variables_symbolic():
    value = reference_value("c*sigma^(T-t)", {"sigma": 0.85}, variables=["c", "T", "t"])
    c, T, t = sympy.symbols("c T t", positive=True)
    assert sympy.simplify(value - c * sympy.Rational(17, 20) ** (T - t)) == 0


def test_reference_value_refuses_unknown_names():
    with pytest.raises(ValueError, match="unknown name 'sigm'"):
        reference_value("sigm^steps", {"sigma": 0.85, "steps": 40})


FORMATS = [
    (0.85, "0.85"),
    (40, "40"),
    (40.0, "40"),
    (1000, "1,000"),
    (1000000, "1,000,000"),
    (999, "999"),
    (-1, "-1"),
    (0.1, "0.1"),
    (0.0015, "0.0015"),
    (1e-05, "0.00001"),
    (1.5e-07, "1.5e-7"),
    (2.5e20, "2.5e20"),
    ([0.1, 0.6, 0.2, 0.1], "[0.1, 0.6, 0.2, 0.1]"),
    ([1, 3, -1, 2], "[1, 3, -1, 2]"),
]


@pytest.mark.parametrize(("value", "expected"), FORMATS)
def test_format_value_for_prompts(value, expected):
    assert format_value(value) == expected


def test_render_prompt_replaces_placeholders_with_nice_numbers():
    template = ("A gradient passes back through {{ steps }} RNN steps, each scaling it by at "
                "most $\\sigma_{\\max} = {{sigma}}$.")
    assert render_prompt(template, {"sigma": 0.85, "steps": 40}) == (
        "A gradient passes back through 40 RNN steps, each scaling it by at most "
        "$\\sigma_{\\max} = 0.85$."
    )


def test_render_prompt_uses_a_latex_safe_thousands_separator_inside_maths():
    template = "a {{ N }}-token sequence, $N = {{ N }}$"
    assert render_prompt(template, {"N": 1000}) == "a 1,000-token sequence, $N = 1{,}000$"


def test_render_prompt_renders_list_parameters():
    assert render_prompt("weights {{ weights }}", {"weights": [0.1, 0.6, 0.2, 0.1]}) == (
        "weights [0.1, 0.6, 0.2, 0.1]"
    )


def test_render_prompt_refuses_unknown_names():
    with pytest.raises(ValueError, match="unknown parameters: stepz"):
        render_prompt("{{ stepz }}", {"steps": 40})
    assert prompt_names("{{ a }} and {{b}} and {{ a }}") == {"a", "b"}


PARAMETER_PROBLEMS = [
    ({"x": {"choices": [1, 2]}}, None, "needs a 'default'"),
    ({"x": {"default": "a"}}, None, "'default' must be a number"),
    ({"x": {"default": 1, "choices": []}}, None, "'choices' must be a non-empty list"),
    ({"x": {"default": 1, "min": 0.1, "max": 0.5}}, None, "needs a 'step'"),
    ({"x": {"default": 1, "min": 5, "max": 1}}, None, "'min' must not exceed 'max'"),
    ({"x": {"default": 1, "choice": [1]}}, None, "unknown key 'choice'"),
    ({"x": {"default": 1}}, {"y": "x +"}, "derived 'y'"),
    ({"x": {"default": 1}}, {"y": "z"}, "unknown name 'z'"),
    ({"x": {"default": 1}}, {"y": "w", "w": "y"}, "cycle"),
    ({"x": {"default": 1}}, {"x": "2"}, "has the name of a parameter"),
]


@pytest.mark.parametrize(("parameters", "derived", "problem"), PARAMETER_PROBLEMS)
def test_validate_parameters_reports_problems(parameters, derived, problem):
    problems = validate_parameters(parameters, derived)
    assert any(problem in p for p in problems), problems
    with pytest.raises(ValueError):
        variant_params(parameters, derived, None)


def test_module_parameters_are_valid():
    assert validate_parameters(APPLY_1, {}) == []
    assert validate_parameters(APPLY_3, APPLY_3_DERIVED) == []
    assert validate_parameters(LISTS, {}) == []


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**63 - 1))
def test_every_seed_gives_a_valid_apply_3_variant(seed):
    params = variant_params(APPLY_3, APPLY_3_DERIVED, seed)
    total = sum(Fraction(repr(params[k])) for k in ("w1", "w2", "w3", "w4"))
    assert total == 1
    assert params["w4"] > 0
