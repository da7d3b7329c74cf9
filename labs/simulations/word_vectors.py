"""Section 5.1 lab: direction carries meaning (illustrative 2D word positions chosen by hand).

The positions are not trained embeddings: they are chosen so that cat and dog point nearly the
same way (about 7 degrees apart), cat and carburetor almost opposite (about 177 degrees), and
king - man + woman lands close to queen. Figure 5.1 and the lab share ``POSITIONS``.

The analogy's nearest word is searched among the other words, excluding king, man and woman
as word2vec does (``nearest``), and among all words (``nearest_including_inputs``), both by
Euclidean distance in the plane; ``nearest_by_cosine`` ranks the other words by direction, the
way word2vec does on normalised vectors.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from labs.simulations._common import ParamSchema, Progress, fmt, with_defaults

POSITIONS: dict[str, tuple[float, float]] = {
    "cat": (-2.4, 1.2),
    "dog": (-2.6, 1.7),
    "carburetor": (2.5, -1.1),
    "king": (3.2, 2.0),
    "queen": (2.7, 2.9),
    "man": (2.0, 1.0),
    "woman": (1.4, 1.8),
}

WORDS: list[str] = list(POSITIONS)

ANALOGY = ("king", "man", "woman")  # king - man + woman

PARAMS: ParamSchema = {
    "word_a": {
        "type": "choice",
        "label": "First word",
        "help": "Word whose angle to the second word is measured.",
        "default": "cat",
        "options": WORDS,
    },
    "word_b": {
        "type": "choice",
        "label": "Second word",
        "help": "Word whose angle to the first word is measured.",
        "default": "dog",
        "options": WORDS,
    },
}


def cosine(a: str, b: str) -> float:
    """Cosine of the angle between the position vectors of two words."""
    u, v = np.asarray(POSITIONS[a]), np.asarray(POSITIONS[b])
    return float(np.clip(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)), -1.0, 1.0))


def angle_degrees(a: str, b: str) -> float:
    """Angle between two words' vectors in degrees, in [0, 180]."""
    (ux, uy), (vx, vy) = POSITIONS[a], POSITIONS[b]
    return math.degrees(abs(math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)))


def _nearest(point: np.ndarray, candidates: list[str]) -> tuple[str, float]:
    distances = {w: float(np.linalg.norm(point - np.asarray(POSITIONS[w]))) for w in candidates}
    word = min(distances, key=distances.__getitem__)
    return word, distances[word]


def run(
    params: dict[str, Any],
    *,
    rng: np.random.Generator,
    progress: Progress = None,
) -> dict[str, Any]:
    """Angle and cosine between ``word_a`` and ``word_b``, and the king - man + woman analogy.

    Keys: ``words``, ``positions`` ({word: [x, y]}), ``word_a``, ``word_b``, ``cosine``,
    ``angle_degrees``, ``analogy`` (the expression), ``analogy_offset`` (woman - man),
    ``analogy_point``, ``nearest`` (excluding king, man, woman), ``nearest_distance``,
    ``nearest_including_inputs``, ``nearest_by_cosine``, ``distance_to_queen``.
    Deterministic: ``rng`` is accepted for the common contract and not used.
    """
    p = with_defaults(PARAMS, params)
    a, b = str(p["word_a"]), str(p["word_b"])
    king, man, woman = (np.asarray(POSITIONS[w]) for w in ANALOGY)
    point = king - man + woman
    others = [w for w in WORDS if w not in ANALOGY]
    nearest, nearest_distance = _nearest(point, others)
    nearest_all, _ = _nearest(point, WORDS)
    norm = float(np.linalg.norm(point))
    by_cosine = max(
        others,
        key=lambda w: float(point @ np.asarray(POSITIONS[w])) / np.linalg.norm(POSITIONS[w]) / norm,
    )
    if progress is not None:
        progress(1.0)
    return {
        "words": WORDS,
        "positions": {w: [float(x), float(y)] for w, (x, y) in POSITIONS.items()},
        "word_a": a,
        "word_b": b,
        "cosine": cosine(a, b),
        "angle_degrees": angle_degrees(a, b),
        "analogy": "king - man + woman",
        "analogy_offset": (woman - man).tolist(),
        "analogy_point": point.tolist(),
        "nearest": nearest,
        "nearest_distance": nearest_distance,
        "nearest_including_inputs": nearest_all,
        "nearest_by_cosine": by_cosine,
        "distance_to_queen": float(np.linalg.norm(point - np.asarray(POSITIONS["queen"]))),
    }


def KEY_RESULTS(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The numbers the lab page shows."""
    pair = f"{result['word_a']} and {result['word_b']}"
    return [
        (f"Angle between {pair}", f"{result['angle_degrees']:.1f} degrees"),
        (f"Cosine of {pair}", f"{result['cosine']:.3f}"),
        ("Nearest word to king - man + woman", result["nearest"]),
        ("Distance from king - man + woman to queen", fmt(result["distance_to_queen"])),
    ]
