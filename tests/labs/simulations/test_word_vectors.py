"""The 5.1 lab: hand-chosen 2D word positions, angles, and king - man + woman."""

import numpy as np
import pytest

from labs.simulations import word_vectors as wv


def run(**params):
    return wv.run(params, rng=np.random.default_rng(0))


def test_cat_and_dog_point_nearly_the_same_way():
    result = run(word_a="cat", word_b="dog")
    assert result["cosine"] > 0.98
    assert result["angle_degrees"] < 10


def test_cat_and_carburetor_point_almost_opposite():
    result = run(word_a="cat", word_b="carburetor")
    assert result["cosine"] < -0.99
    assert result["angle_degrees"] > 170


def test_analogy_lands_nearest_queen():
    result = run()
    assert result["nearest"] == "queen"
    assert result["nearest_by_cosine"] == "queen"
    assert result["nearest_including_inputs"] == "queen"
    assert result["distance_to_queen"] < 0.25
    king, man, woman = (np.array(wv.POSITIONS[w]) for w in ("king", "man", "woman"))
    np.testing.assert_allclose(result["analogy_point"], king - man + woman)
    np.testing.assert_allclose(result["analogy_offset"], woman - man)


def test_the_nearest_word_excludes_the_analogy_inputs_as_word2vec_does(monkeypatch):
    # Put king right where the analogy lands: word2vec-style nearest must still skip it.
    positions = dict(wv.POSITIONS)
    positions["man"] = (0.0, 0.0)
    positions["woman"] = (0.01, 0.0)
    monkeypatch.setattr(wv, "POSITIONS", positions)
    result = run()
    assert result["nearest_including_inputs"] == "king"
    assert result["nearest"] not in ("king", "man", "woman")


@pytest.mark.parametrize("a", wv.WORDS)
@pytest.mark.parametrize("b", wv.WORDS)
def test_angle_and_cosine_agree_for_every_pair(a, b):
    result = run(word_a=a, word_b=b)
    assert np.cos(np.radians(result["angle_degrees"])) == pytest.approx(result["cosine"], abs=1e-9)
    assert 0 <= result["angle_degrees"] <= 180


def test_positions_are_exposed_for_the_figure():
    assert set(wv.POSITIONS) == {"cat", "dog", "carburetor", "king", "queen", "man", "woman"}
    assert run()["positions"] == {w: list(p) for w, p in wv.POSITIONS.items()}


def test_result_does_not_depend_on_the_seed():
    assert wv.run({}, rng=np.random.default_rng(1)) == wv.run({}, rng=np.random.default_rng(2))


def test_key_results_name_the_nearest_word():
    rows = dict(wv.KEY_RESULTS(run()))
    assert rows["Nearest word to king - man + woman"] == "queen"
    assert rows["Angle between cat and dog"].endswith("degrees")
