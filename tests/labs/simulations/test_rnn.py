"""The 5.2 lab: an Elman RNN reads a sentence; fixed state size, one step per token."""

import numpy as np
import pytest

from labs.simulations import rnn


def run(seed: int = 0, **params):
    return rnn.run(params, rng=np.random.default_rng(seed))


@pytest.mark.parametrize("units", [2, 4, 17, 64])
def test_state_size_is_fixed_whatever_the_sentence_length(units):
    for sentence in rnn.SENTENCES:
        result = run(units=units, sentence=sentence)
        assert result["state_size"] == units
        assert all(len(state) == units for state in result["states"])


def test_number_of_sequential_steps_equals_number_of_tokens():
    lengths = set()
    for sentence in rnn.SENTENCES:
        result = run(sentence=sentence)
        n = len(sentence.split())
        assert result["tokens"] == sentence.lower().split()
        assert result["sequential_steps"] == n == len(result["states"])
        assert len(result["state_norms"]) == n == len(result["influence"])
        lengths.add(n)
    assert len(lengths) == len(rnn.SENTENCES)  # the choices really differ in length


def test_states_follow_the_elman_recurrence_and_stay_inside_tanh_range():
    result = run(3, units=8)
    states = np.array(result["states"])
    assert np.all(np.abs(states) < 1)
    np.testing.assert_allclose(result["state_norms"], np.linalg.norm(states, axis=1))


def test_a_repeated_word_gets_the_same_embedding_in_any_sentence():
    a = rnn.embed(["the", "cat", "the"], base_seed=11)
    b = rnn.embed(["a", "cat"], base_seed=11)
    np.testing.assert_array_equal(a[0], a[2])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], a[1])
    assert not np.array_equal(rnn.embed(["cat"], 11), rnn.embed(["cat"], 12))


def test_first_token_influence_is_the_jacobian_norm_back_to_step_one():
    result = run(0)
    assert result["influence"][-1] == 1.0  # dh_N/dh_N is the identity
    assert result["first_token_influence"] == result["influence"][0]
    assert result["first_token_influence"] > 0
    # tanh slopes never exceed 1, so each step back multiplies by at most ||W_hh||
    bound = result["w_hh_sigma_max"] ** (result["sequential_steps"] - 1)
    assert result["first_token_influence"] <= bound * (1 + 1e-12)


def test_first_token_influence_matches_a_finite_difference():
    # Perturb h_1 and re-run the recurrence from step 2: ||dh_N|| / ||dh_1|| <= ||dh_N/dh_1||.
    seed, units = 5, 4
    result = run(seed, units=units)
    rng = np.random.default_rng(seed)
    base_seed = int(rng.integers(0, 2**63 - 1))
    w_hh = rng.standard_normal((units, units)) / np.sqrt(units)
    w_xh = rng.standard_normal((units, rnn.EMBEDDING_DIM)) / np.sqrt(rnn.EMBEDDING_DIM)
    b = 0.1 * rng.standard_normal(units)
    x = rnn.embed(result["tokens"], base_seed)
    h1 = np.array(result["states"][0])

    def last_state(h):
        for t in range(1, len(x)):
            h = np.tanh(w_hh @ h + w_xh @ x[t] + b)
        return h

    np.testing.assert_allclose(last_state(h1), result["states"][-1], rtol=1e-12)
    eps = 1e-6
    gains = [np.linalg.norm(last_state(h1 + eps * e) - last_state(h1)) / eps for e in np.eye(units)]
    assert max(gains) <= result["first_token_influence"] * (1 + 1e-4)
    assert max(gains) >= result["first_token_influence"] / np.sqrt(units) * (1 - 1e-4)


def test_same_seed_same_states_different_seed_different_states():
    assert run(1) == run(1)
    assert run(1)["states"] != run(2)["states"]


def test_key_results_show_steps_and_state_size():
    rows = dict(rnn.KEY_RESULTS(run(0, units=6)))
    assert rows["Sequential steps"] == "6"
    assert rows["Numbers in the state"] == "6"
