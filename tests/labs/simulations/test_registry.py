"""The simulation registry: the common contract, parameter validation, JSON-safe results."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from courses.plain_maths import plain_maths
from labs.simulations import LAB_SIMULATIONS, SIMULATIONS, InvalidParams, run_simulation, validate_params

ROOT = Path(__file__).resolve().parents[3]
KEYS = sorted(LAB_SIMULATIONS)


def test_registry_names_the_four_labs():
    assert set(LAB_SIMULATIONS) == {"vanishing-gradient", "rnn", "attention", "word-vectors",
                                     "self-attention"}


@pytest.mark.parametrize("key", KEYS)
def test_every_schema_entry_is_well_formed(key):
    for name, spec in SIMULATIONS[key].PARAMS.items():
        assert spec["type"] in {"int", "float", "float_list", "choice"}, name
        assert isinstance(spec["label"], str) and spec["label"], name
        if spec["type"] == "choice":
            assert spec["default"] in spec["options"], name
        else:
            assert spec["min"] < spec["max"], name
        if spec["type"] == "float_list":
            assert "length" in spec or ("min_length" in spec and "max_length" in spec), name
    json.dumps(SIMULATIONS[key].PARAMS, allow_nan=False)


@pytest.mark.parametrize("key", KEYS)
def test_missing_params_are_filled_with_defaults_that_validate(key):
    clean, errors = validate_params(key, {})
    assert errors == {}
    assert clean == {name: spec["default"] for name, spec in SIMULATIONS[key].PARAMS.items()}
    assert validate_params(key, clean) == (clean, {})
    assert validate_params(key, None) == (clean, {})


@pytest.mark.parametrize("key", KEYS)
def test_default_result_is_json_serialisable_without_nan(key):
    result = SIMULATIONS[key].run(validate_params(key, {})[0], rng=np.random.default_rng(0))
    assert json.loads(json.dumps(result, allow_nan=False)) == result  # plain types only


@pytest.mark.parametrize("key", KEYS)
def test_same_seed_gives_the_same_result(key):
    params = validate_params(key, {})[0]
    first = SIMULATIONS[key].run(params, rng=np.random.default_rng(42))
    second = SIMULATIONS[key].run(params, rng=np.random.default_rng(42))
    assert json.dumps(first) == json.dumps(second)


@pytest.mark.parametrize("key", ["vanishing-gradient", "rnn", "attention"])
def test_a_different_seed_gives_different_numbers(key):
    params = validate_params(key, {})[0]
    first = SIMULATIONS[key].run(params, rng=np.random.default_rng(1))
    second = SIMULATIONS[key].run(params, rng=np.random.default_rng(2))
    assert json.dumps(first) != json.dumps(second)


@pytest.mark.parametrize("key", KEYS)
def test_key_results_are_label_value_strings(key):
    result = SIMULATIONS[key].run(validate_params(key, {})[0], rng=np.random.default_rng(0))
    rows = SIMULATIONS[key].KEY_RESULTS(result)
    assert rows
    for label, value in rows:
        assert isinstance(label, str) and label
        assert isinstance(value, str) and value


def test_out_of_bounds_values_are_refused_with_the_label_and_bounds():
    _, errors = validate_params("vanishing-gradient", {"units": 300, "steps": 0})
    assert errors == {
        "units": "Hidden units must be between 2 and 256",
        "steps": "Steps must be between 1 and 500",
    }
    _, errors = validate_params("vanishing-gradient", {"input_scale": 5.5})
    assert errors == {"input_scale": "Input scale must be between 0 and 5"}
    _, errors = validate_params("rnn", {"units": 65})
    assert errors == {"units": "Hidden units must be between 2 and 64"}


def test_each_value_of_a_list_is_bound_checked():
    _, errors = validate_params("vanishing-gradient", {"sigmas": [0.5, 1, 12, 3]})
    assert plain_maths(errors["sigmas"]) == (
        "Each of the \u03c3_max values must be between 0.05 and 10 (value 3 is 12)"
    )
    _, errors = validate_params("vanishing-gradient", {"sigmas": [0.5, 1, 0.01, 3]})
    assert "between 0.05 and 10" in errors["sigmas"]


def test_list_length_is_enforced():
    _, errors = validate_params("vanishing-gradient", {"sigmas": [0.5, 1.0]})
    assert plain_maths(errors["sigmas"]) == "\u03c3_max values: give exactly 4 numbers (got 2)"
    _, errors = validate_params("attention", {"weights": [], "states": []})
    assert errors["weights"] == "Attention weights: give between 1 and 12 numbers (got 0)"


@pytest.mark.parametrize(
    ("params", "name", "message"),
    [
        ({"units": 12.5}, "units", "Hidden units must be a whole number"),
        ({"units": "many"}, "units", "Hidden units must be a whole number"),
        ({"units": True}, "units", "Hidden units must be a whole number"),
        ({"units": [3]}, "units", "Hidden units must be a whole number"),
        ({"input_scale": "big"}, "input_scale", "Input scale must be a finite number"),
        ({"input_scale": float("nan")}, "input_scale", "Input scale must be a finite number"),
        ({"input_scale": float("inf")}, "input_scale", "Input scale must be a finite number"),
        ({"sigmas": 3}, "sigmas", "\u03c3_max values must be a list of numbers"),
        (
            {"sigmas": [0.5, "x", 1, 2]},
            "sigmas",
            "\u03c3_max values: value 2 ('x') is not a finite number",
        ),
    ],
)
def test_wrong_types_are_refused_with_a_clear_message(params, name, message):
    _, errors = validate_params("vanishing-gradient", params)
    # (a label's maths is LaTeX, as the page typesets it; the service spells it out)
    assert {key: plain_maths(text) for key, text in errors.items()} == {name: message}


def test_numbers_given_as_text_are_coerced():
    clean, errors = validate_params(
        "vanishing-gradient",
        {"units": "16", "steps": 40.0, "sigmas": "0.5, 1, 1.5, 3", "input_scale": "0.5"},
    )
    assert errors == {}
    assert clean == {"units": 16, "steps": 40, "sigmas": [0.5, 1.0, 1.5, 3.0], "input_scale": 0.5}
    assert type(clean["units"]) is int and type(clean["steps"]) is int
    clean, errors = validate_params("attention", {"weights": "[0.5 0.5]", "states": "1;2"})
    assert errors == {}
    assert clean["weights"] == [0.5, 0.5] and clean["states"] == [1.0, 2.0]


def test_empty_form_fields_take_the_default():
    clean, errors = validate_params("rnn", {"units": "", "sentence": None})
    assert errors == {}
    assert clean == validate_params("rnn", {})[0]


def test_unknown_parameters_are_refused_by_name():
    _, errors = validate_params("rnn", {"units": 4, "layers": 2})
    assert errors == {"layers": "Unknown parameter 'layers'; this lab takes: sentence, units"}


def test_choices_outside_the_options_are_refused():
    _, errors = validate_params("word-vectors", {"word_a": "horse"})
    assert errors["word_a"].startswith("First word must be one of: 'cat', 'dog'")


def test_params_that_are_not_a_mapping_are_refused():
    assert validate_params("rnn", ["units", 4]) == (
        {},
        {"__all__": "Parameters must be given as name/value pairs"},
    )


def test_attention_weights_must_match_states_and_sum_to_one():
    _, errors = validate_params("attention", {"weights": [0.5, 0.4], "states": [1, 2]})
    assert errors == {"weights": "Attention weights must sum to 1 (they sum to 0.9)"}
    _, errors = validate_params("attention", {"weights": [0.5, 0.5], "states": [1, 2, 3]})
    assert errors == {"states": "Give one encoder state per weight (2 weights, 3 states)"}


def test_unknown_simulation_key_raises_key_error():
    with pytest.raises(KeyError):
        validate_params("transformer", {})


def test_run_simulation_validates_then_runs():
    result = run_simulation("attention", {}, rng=np.random.default_rng(0))
    assert result["context_value"] == pytest.approx(1.6)  # the lab's defaults: 0.7*2 + 0.2*(-1) + 0.1*4
    with pytest.raises(InvalidParams) as raised:
        run_simulation("rnn", {"units": 1}, rng=np.random.default_rng(0))
    assert raised.value.errors == {"units": "Hidden units must be between 2 and 64"}


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(KEYS),
    params=st.dictionaries(
        st.sampled_from(
            [
                "units",
                "steps",
                "sigmas",
                "input_scale",
                "sentence",
                "weights",
                "states",
                "sharpness",
                "noise",
                "word_a",
                "word_b",
                "other",
            ]
        ),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(10**6), 10**6),
            st.floats(allow_nan=True, allow_infinity=True),
            st.text(max_size=12),
            st.lists(st.floats(-20, 20), max_size=14),
        ),
        max_size=5,
    ),
)
def test_validation_never_crashes_and_clean_params_always_run(key, params):
    clean, errors = validate_params(key, params)
    assert all(isinstance(m, str) and m for m in errors.values())
    if not errors:
        result = SIMULATIONS[key].run(clean, rng=np.random.default_rng(0))
        json.dumps(result, allow_nan=False)


def test_simulations_and_plots_import_without_django():
    code = (
        "import sys, labs.simulations, labs.plots; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
