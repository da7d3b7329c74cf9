"""The 5.6 lab: context value, and the alignment heatmap of an additive score network."""

import math

import numpy as np
import pytest

from labs.simulations import attention


def run(seed: int = 0, **params):
    return attention.run(params, rng=np.random.default_rng(seed))


def test_module_context_example_gives_1_9():
    result = run(weights=[0.1, 0.6, 0.2, 0.1], states=[1.0, 3.0, -1.0, 2.0])
    assert result["weights"] == [0.1, 0.6, 0.2, 0.1]
    assert result["states"] == [1.0, 3.0, -1.0, 2.0]
    assert result["context_value"] == pytest.approx(1.9, abs=1e-12)
    assert result["context_terms"] == pytest.approx([0.1, 1.8, -0.2, 0.2], abs=1e-12)


def test_the_default_inputs_are_not_the_modules_example():
    result = run()
    assert result["weights"] == [0.7, 0.2, 0.1]
    assert result["context_value"] == pytest.approx(0.7 * 2 - 0.2 + 0.4)


def test_context_is_the_weighted_sum_of_the_given_states():
    result = run(weights=[0.25, 0.75], states=[4.0, -8.0])
    assert result["context_value"] == pytest.approx(-5.0)
    assert len(result["context_terms"]) == 2


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize(("sharpness", "noise"), [(2.0, 0.1), (0.0, 0.0), (10.0, 1.0)])
def test_every_attention_row_sums_to_one(seed, sharpness, noise):
    result = run(seed, sharpness=sharpness, noise=noise)
    alpha = np.array(result["alpha"])
    assert alpha.shape == (len(result["target_tokens"]), len(result["source_tokens"]))
    assert np.all(alpha >= 0)
    np.testing.assert_allclose(alpha.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(result["row_sums"], 1.0, atol=1e-12)


def test_tokens_are_the_modules_sentence_pair():
    result = run()
    assert " ".join(result["source_tokens"]) == (
        "The agreement on the European Economic Area was signed in August 1992 ."
    )
    assert " ".join(result["target_tokens"]) == (
        "L' accord sur la zone économique européenne a été signé en août 1992 ."
    )


@pytest.mark.parametrize("seed", range(25))
def test_crossing_is_detected_in_the_default_heatmap(seed):
    result = run(seed)
    assert result["crossing"] is True
    assert result["shape"] == "diagonal-with-crossing"
    pairs = {tuple(pair) for pair in result["aligned_pairs"]}
    assert {("zone", "Area"), ("économique", "Economic"), ("européenne", "European")} <= pairs
    assert result["crossing_rows"] == [5, 6]  # économique and européenne step back


def test_alignment_is_diagonal_outside_the_crossing():
    result = run(0)
    argmax = result["argmax"]
    assert argmax == attention.DESIGNED_ALIGNMENT
    outside = [j for i, j in enumerate(argmax) if i not in (4, 5, 6)]
    assert outside == sorted(outside)


def test_zero_score_scale_gives_uniform_weights():
    result = run(0, sharpness=0.0)
    np.testing.assert_allclose(result["alpha"], 1 / len(result["source_tokens"]))
    assert result["shape"] == "uniform"


@pytest.mark.parametrize(
    ("argmax", "expected"),
    [
        ([0, 1, 2, 3, 4], "diagonal"),
        ([0, 1, 3, 2, 4], "diagonal-with-crossing"),
        ([4, 3, 2, 1, 0], "anti-diagonal"),
        ([2, 2, 2, 2, 2], "one-column"),
        ([0, 4, 1, 0, 3], "scattered"),
    ],
)
def test_shape_is_classified_from_the_matrix(argmax, expected):
    alpha = np.full((5, 5), 0.02)
    for i, j in enumerate(argmax):
        alpha[i, j] = 0.92
    assert attention.classify_shape(alpha) == expected
    assert expected in attention.SHAPES


def test_crossing_means_the_source_position_goes_down_as_the_target_goes_up():
    assert attention.crossings([0, 1, 2, 3]) == []
    assert attention.crossings([0, 1, 1, 2]) == []  # two words reading one is no crossing
    assert attention.crossings([0, 3, 2, 1, 4]) == [2, 3]


def test_additive_scores_match_the_formula_term_by_term():
    rng = np.random.default_rng(0)
    s, h = rng.standard_normal((3, 4)), rng.standard_normal((5, 2))
    w, u, v = rng.standard_normal((6, 4)), rng.standard_normal((6, 2)), rng.standard_normal(6)
    scores = attention.additive_scores(s, h, w, u, v)
    for i in range(3):
        for j in range(5):
            assert scores[i, j] == pytest.approx(v @ np.tanh(w @ s[i] + u @ h[j]))


def test_softmax_is_stable_for_huge_scores():
    alpha = attention.softmax(np.array([[1000.0, 1000.0, -1000.0]]))
    np.testing.assert_allclose(alpha, [[0.5, 0.5, 0.0]])


def test_same_seed_same_heatmap_different_seed_different_heatmap():
    assert run(4) == run(4)
    assert run(4)["alpha"] != run(5)["alpha"]


def test_key_results_show_the_context_and_the_shape():
    rows = dict(attention.KEY_RESULTS(run(0, weights=[0.1, 0.6, 0.2, 0.1], states=[1.0, 3.0, -1.0, 2.0])))
    assert rows["Context value"] == "1.9"
    assert rows["Shape of the alignment"] == "diagonal-with-crossing"
    assert rows["Crossing"] == "yes"
    assert math.isclose(float(rows["Context value"]), 1.9)
