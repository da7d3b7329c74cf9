# ruff: noqa: RUF001 - the labs write sigma_max as the Greek letter
"""The 5.4 lab: gradient norms carried back through a random tanh RNN against sigma_max^k.

Defaults (32 units, 60 steps, input scale 1, sigmas [0.5, 1, 1.5, 3]) were checked over 500
seeds (0..499) when they were chosen: every seed gave the regimes vanishing, near-one,
saturating, saturating; log10 of the norm at k = 40 ranged over [-33.0, -27.4] for sigma 0.5,
[-21.7, -15.8] for 1.0, [-15.1, -9.3] for 1.5 and [-5.5, -0.4] for 3.0 (medians 5.6e-31,
2.6e-19, 8.3e-13, 2.5e-3). The tests below re-check a smaller sample.
"""

import json
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from courses.plain_maths import plain_maths
from labs.simulations import vanishing_gradient as vg

SEEDS = range(12)
ROUNDING = 1e-12


def run(seed: int = 0, **params):
    return vg.run(params, rng=np.random.default_rng(seed))


def assert_measured_within_bound(result):
    for series in result["series"]:
        sigma = series["sigma"]
        for k, (log_measured, measured, bound) in enumerate(
            zip(series["log10_measured"], series["measured"], series["bound"], strict=True)
        ):
            assert measured <= bound * (1 + ROUNDING), (sigma, k, measured, bound)
            if log_measured is not None:
                assert log_measured <= k * math.log10(sigma) + ROUNDING * max(1, k), (sigma, k)


@pytest.mark.parametrize("seed", SEEDS)
def test_measured_norm_never_exceeds_the_bound_for_any_k_or_sigma(seed):
    assert_measured_within_bound(run(seed))


@pytest.mark.parametrize("input_scale", [0.0, 0.3, 5.0])
def test_bound_holds_with_linear_and_saturated_tanh(input_scale):
    for seed in range(4):
        result = run(seed, input_scale=input_scale, sigmas=[0.05, 0.99, 2.0, 10.0])
        assert_measured_within_bound(result)


@settings(max_examples=25, deadline=None)
@given(
    units=st.integers(2, 40),
    steps=st.integers(1, 80),
    sigmas=st.lists(st.floats(0.05, 10.0), min_size=4, max_size=4),
    input_scale=st.floats(0.0, 5.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_bound_holds_for_any_valid_parameters(units, steps, sigmas, input_scale, seed):
    result = run(seed, units=units, steps=steps, sigmas=sigmas, input_scale=input_scale)
    assert_measured_within_bound(result)
    json.dumps(result, allow_nan=False)


@pytest.mark.parametrize("seed", SEEDS)
def test_with_sigma_below_one_the_norm_falls_at_least_as_fast_as_the_bound(seed):
    result = run(seed, sigmas=[0.3, 0.5, 0.8, 0.95])
    for series in result["series"]:
        logs = series["log10_measured"]
        step = math.log10(series["sigma"])
        for k in range(1, len(logs)):
            # each step shrinks the norm by at least the factor sigma
            assert logs[k] - logs[k - 1] <= step + 1e-9
        assert logs[-1] < 0


@pytest.mark.parametrize("units", [2, 5, 32, 100])
@pytest.mark.parametrize("sigma", [0.05, 0.5, 1.0, 3.0, 10.0])
def test_rescaled_w_hh_has_largest_singular_value_exactly_sigma(units, sigma):
    w = vg.draw(units, 10, np.random.default_rng(units))["w_hh"]
    direct = vg.rescale_to_sigma(w, sigma)
    as_run = sigma * vg.rescale_to_sigma(w, 1.0)  # how run() builds the four matrices
    for scaled in (direct, as_run):
        assert abs(np.linalg.svd(scaled, compute_uv=False)[0] - sigma) <= 1e-9


def test_first_backward_step_reaches_sigma_when_tanh_is_linear_and_gradient_aligned():
    # Sanity check of the Jacobian transpose: with h = 0 (no input) the step is g -> W^T g,
    # whose largest gain sigma is reached exactly along W's top left singular vector.
    d = vg.draw(6, 3, np.random.default_rng(4))
    w = vg.rescale_to_sigma(d["w_hh"], 2.0)
    u, s, _ = np.linalg.svd(w)
    assert np.linalg.norm(w.T @ u[:, 0]) == pytest.approx(2.0, rel=1e-12)
    assert s[0] == pytest.approx(2.0, rel=1e-12)


def test_same_seed_gives_the_same_numbers_and_another_seed_different_ones():
    assert run(7) == run(7)
    assert run(7)["series"][0]["measured"] != run(8)["series"][0]["measured"]


def test_defaults_show_vanishing_near_one_and_saturating_regimes():
    for seed in range(20):
        result = run(seed)
        assert result["sigmas"] == [0.5, 1.0, 1.5, 3.0]
        assert result["regimes"] == ["vanishing", "near-one", "saturating", "saturating"]
        slopes = [s["mean_tanh_slope"] for s in result["series"]]
        assert slopes[3] < 0.55  # the tanh of the sigma = 3 network is saturated
        bounds_at_40 = [s["bound_at_40"] for s in result["series"]]
        assert bounds_at_40[2] > 1e6 and bounds_at_40[3] > 1e18  # the bounds explode ...
        norms = result["norm_at_40"]
        assert norms[2] < 1e-6 and norms[3] < 1.0  # ... yet the gradients vanish
        assert norms[0] < norms[1] < norms[2] < norms[3]


def test_a_stretching_matrix_explodes_when_the_tanh_stays_linear():
    # input_scale 0 keeps every state at 0, so all tanh slopes are 1: no saturation.
    for seed in range(5):
        result = run(seed, input_scale=0.0)
        assert result["regimes"][3] == "exploding"
        assert result["series"][3]["mean_tanh_slope"] == 1.0
        assert result["series"][3]["final_norm"] > 1e6


def test_norm_at_40_is_reported_per_sigma_and_none_for_shorter_runs():
    result = run(0)
    assert result["norm_at_40"] == [s["measured"][40] for s in result["series"]]
    short = run(0, steps=39)
    assert short["norm_at_40"] == [None] * 4
    assert all(s["bound_at_40"] is None for s in short["series"])


def test_reports_k_from_zero_to_steps_starting_from_a_unit_gradient():
    result = run(3, steps=25)
    assert result["k"] == list(range(26))
    for series in result["series"]:
        assert series["measured"][0] == 1.0
        assert series["bound"][0] == 1.0
        assert len(series["measured"]) == len(series["bound"]) == 26


def test_huge_norms_are_clamped_not_infinite():
    result = run(0, units=8, steps=500, sigmas=[10.0, 10.0, 10.0, 10.0], input_scale=0.0)
    assert result["clamped"] is True
    json.dumps(result, allow_nan=False)
    series = result["series"][0]
    assert max(series["bound"]) == vg.MAX_REPORTED
    assert all(v is not None and math.isfinite(v) for v in series["log10_measured"])
    assert series["log10_measured"][-1] > 300  # the exact size survives in log10


def test_tiny_norms_underflow_to_zero_but_keep_their_log10():
    result = run(0, steps=500, sigmas=[0.05, 0.05, 0.05, 0.05])
    series = result["series"][0]
    assert series["measured"][-1] == 0.0
    assert series["log10_measured"][-1] < -600
    json.dumps(result, allow_nan=False)


def test_progress_is_reported_up_to_one():
    seen: list[float] = []
    run_result = vg.run({}, rng=np.random.default_rng(0), progress=seen.append)
    assert run_result["steps"] == 60
    assert seen == sorted(seen) and seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)


def test_key_results_show_the_norm_at_40_and_the_regime_per_sigma():
    rows = vg.KEY_RESULTS(run(0))
    assert len(rows) == 4
    assert all(isinstance(label, str) and isinstance(value, str) for label, value in rows)
    assert "40 steps back" in rows[0][0] and "vanishing" in rows[0][1]
    short_rows = vg.KEY_RESULTS(run(0, steps=10))
    assert "10 steps back" in short_rows[0][0]


def _claims_hold(series: dict, steps: int) -> list[str]:
    """Every claim the run's phrase makes, checked against the run's own numbers."""
    phrase = plain_maths(vg.regime_phrase(series, steps))
    final, sigma = series["final_norm"], series["sigma"]
    slope, bound = series["mean_tanh_slope"], sigma ** steps
    wrong = []
    claims = {
        "exploding": final >= 1.0,
        "vanishing": final < 1.0,
        "σ_max below 1": sigma < 1.0 and bound < 1.0,
        "σ_max is above 1": sigma > 1.0 and bound > 1.0,
        "bound stays near 1": 1 / vg.NEAR_ONE_FACTOR <= bound <= vg.NEAR_ONE_FACTOR,
        "the tanh saturates": slope < vg.SATURATED_SLOPE,
        "nearly linear": slope >= vg.SATURATED_SLOPE,
        "forces it down": bound < 1.0,
    }
    for words, true in claims.items():
        if words in phrase and not true:
            wrong.append(f"{phrase!r}: {words!r} is false (sigma {sigma}, steps {steps}, "
                         f"final {final:.3g}, bound {bound:.3g}, slope {slope:.3f})")
    if ("exploding" in phrase) == ("vanishing" in phrase):
        wrong.append(f"{phrase!r} says neither or both")
    return wrong


@pytest.mark.parametrize("input_scale", [0.0, 0.3, 1.0, 3.0])
@pytest.mark.parametrize("steps", [1, 5, 40, 120])
def test_every_regime_phrase_is_true_of_the_run_it_describes(steps, input_scale):
    # A grid of the lab's parameters: each sigma's label is checked against its numbers.
    wrong: list[str] = []
    for sigmas in ([0.5, 0.95, 1.0, 1.05], [1.2, 1.5, 2.0, 3.0], [0.05, 0.9, 4.0, 10.0]):
        for units in (4, 32):
            result = run(1, units=units, steps=steps, sigmas=sigmas, input_scale=input_scale)
            for series in result["series"]:
                wrong += _claims_hold(series, steps)
    assert not wrong, "\n".join(wrong[:10])


def test_a_linear_tanh_with_sigma_above_one_is_never_called_below_one():
    # The run: input scale 0, sigma_max = 1.5, the gradient vanished all the same.
    result = run(0, input_scale=0.0, sigmas=[0.5, 1.0, 1.5, 3.0])
    series = result["series"][2]
    assert series["final_norm"] < 1.0 and series["mean_tanh_slope"] == 1.0
    assert series["regime"] == "misaligned"
    phrase = vg.KEY_RESULTS(result)[2][1]
    assert "below 1" not in phrase and "above 1" in phrase and "nearly linear" in phrase


def test_the_texts_write_their_maths_as_the_module_does():
    """Issue 25 item 12: sigma_max, W_hh and h_t in `$...$` LaTeX (typeset on pages, spelt
    out as plain text where no MathML can go), never as sigma_max or W_hh in plain text."""
    result = run(0, input_scale=0.0, sigmas=[0.5, 1.0, 1.5, 3.0])
    texts = [text for row in vg.KEY_RESULTS(result) for text in row]
    texts += [str(spec.get(key, "")) for spec in vg.PARAMS.values() for key in ("label", "help")]
    for text in texts:
        assert not re.search(r"sigma_max|σ_max|W_hh|h_t\b", text), text
    assert r"$\sigma_{\max} = 0.5$" in vg.KEY_RESULTS(result)[0][0]
    assert plain_maths(vg.KEY_RESULTS(result)[2][1]).endswith(
        "the gradient does not stay on the direction W_hh stretches most")
