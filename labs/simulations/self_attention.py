"""Module 6 lab: scaled dot-product self-attention on random queries, keys and values.

Each of ``tokens`` tokens gets a query, a key and a value: ``Q`` and ``K`` are
``tokens x d`` with independent standard normal entries (as a trained layer's projections
are, roughly, at initialisation), ``V`` is ``tokens x 2`` (two numbers per value, so the
output can be read). The scores are ``S = Q K^T / d^power`` (``power = 0.5`` is the
transformer's ``1/sqrt(d)``, 0 no scaling, 1 dividing by ``d``), the weights
``A = softmax(S)`` over each **row** (every row sums to 1) and the output ``Z = A V``.

The dot product of a query and a key is a sum of ``d`` products of unit variance, so its
standard deviation is ``sqrt(d)``: without the scaling, large ``d`` gives large scores and the
softmax puts nearly all of a row's weight on one key. ``peak`` classifies the rows (see
``classify_peak``) and is what a student's prediction is graded against.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from labs.simulations._common import ParamSchema, Progress, fmt, with_defaults

#: Names of the tokens, in order (the first ``tokens`` of them are used).
TOKEN_NAMES: list[str] = ["the", "cat", "sat", "on", "the", "warm", "mat", "today"]

#: Rows are "one-hot" when their largest weights average at least this. Unscaled scores at
#: d = 512 give some rows a near tie by chance (8% of rows have a largest weight below 0.8),
#: so a bar of 0.8 on the average called 0.26% of such runs "spread" and marked a right
#: prediction wrong; at 0.7 that happens in about 2 runs in 100,000 (measured over 300,000).
ONE_HOT_AT = 0.7
#: Rows are "uniform" when their largest weight is at most this multiple of 1/tokens.
UNIFORM_WITHIN = 1.25

PEAKS: dict[str, str] = {
    "one-hot": "Most of each row's weight sits on one key (the largest weights average 0.7 "
               "or more).",
    "spread": "Each row spreads its weight over several keys, some more than others.",
    "uniform": "Every key gets almost the same weight: the scores barely matter.",
}

PARAMS: ParamSchema = {
    "tokens": {
        "type": "int",
        "label": "Tokens",
        "help": "How many tokens attend to each other (the matrix is tokens by tokens).",
        "default": 6,
        "min": 2,
        "max": len(TOKEN_NAMES),
    },
    "d": {
        "type": "int",
        "label": "Dimension $d$ of the queries and keys",
        "help": "Entries per query and key.",
        "default": 64,
        "min": 1,
        "max": 1024,
    },
    "power": {
        "type": "float",
        "label": "Scale the scores by $1/d^p$, with $p$ =",
        "help": r"0.5 is the transformer's $1/\sqrt{d}$; 0 is no scaling; 1 divides by $d$.",
        "default": 0.5,
        "min": 0.0,
        "max": 1.0,
    },
}


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """The softmax of each row of ``scores`` (shifted by the row's maximum: no overflow)."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    weights: np.ndarray = exp / exp.sum(axis=1, keepdims=True)
    return weights


def classify_peak(weights: np.ndarray) -> str:
    """``one-hot`` when the rows' largest weights average at least ``ONE_HOT_AT``,
    ``uniform`` when every row's largest weight is within ``UNIFORM_WITHIN`` of 1/n,
    otherwise ``spread``."""
    n = weights.shape[1]
    largest = weights.max(axis=1)
    if float(largest.mean()) >= ONE_HOT_AT:
        return "one-hot"
    if float(largest.max()) <= UNIFORM_WITHIN / n:
        return "uniform"
    return "spread"


def run(params: dict[str, Any], *, rng: np.random.Generator, progress: Progress = None) -> dict[str, Any]:
    """Self-attention on validated ``params``, as one flat JSON-serialisable dict.

    ``tokens`` (their names), ``d``, ``power``, ``scale`` (the factor ``1/d^power``),
    ``scores`` and ``weights`` (tokens x tokens, rows = queries), ``values`` and ``output``
    (tokens x 2), ``row_sums``, ``largest`` (each row's largest weight), ``argmax`` (the key
    each row looks at most), ``mean_largest``, ``score_std`` (the standard deviation of the
    scaled scores), ``peak`` (one of ``peaks``).
    """
    p = with_defaults(PARAMS, params)
    n, d, power = int(p["tokens"]), int(p["d"]), float(p["power"])
    queries = rng.standard_normal((n, d))
    keys = rng.standard_normal((n, d))
    values = np.round(rng.uniform(-2.0, 2.0, (n, 2)), 2)
    scale = 1.0 / d**power
    scores = queries @ keys.T * scale
    weights = softmax_rows(scores)
    output = weights @ values
    largest = weights.max(axis=1)
    result = {
        "tokens": TOKEN_NAMES[:n],
        "d": d,
        "power": power,
        "scale": scale,
        "scores": np.round(scores, 4).tolist(),
        "weights": np.round(weights, 4).tolist(),
        "values": values.tolist(),
        "output": np.round(output, 4).tolist(),
        "row_sums": [round(math.fsum(row), 6) for row in weights.tolist()],
        "largest": np.round(largest, 4).tolist(),
        "argmax": [int(i) for i in weights.argmax(axis=1)],
        "mean_largest": round(float(largest.mean()), 4),
        "score_std": round(float(scores.std()), 4),
        "peak": classify_peak(weights),
        "peaks": list(PEAKS),
    }
    if progress is not None:
        progress(1.0)
    return result


def KEY_RESULTS(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The numbers the lab page shows."""
    return [
        ("Spread of the scores (standard deviation)", fmt(result["score_std"], 3)),
        ("Largest weight in a row, on average", fmt(result["mean_largest"], 3)),
        ("Shape of the rows", result["peak"]),
    ]
