"""Section 5.2 lab: an Elman RNN reads a short sentence one token at a time.

``h_t = tanh(W_hh h_{t-1} + W_xh x_t + b)`` with ``h_0 = 0``. Weights are random (seeded):
``W_hh`` entries ``N(0, 1/units)``, ``W_xh`` entries ``N(0, 1/EMBEDDING_DIM)``, ``b`` entries
``N(0, 0.1^2)``. Tokens are the sentence's words, lower-cased, split on spaces. Each word is
embedded by a random vector that depends only on the run's seed and the word itself (a
per-word generator seeded from one number drawn from ``rng`` and a stable hash of the word),
so a repeated word gets the same vector, whatever sentence it is in.

The result shows the two facts of 5.2 and 5.3: the state has ``units`` numbers whatever the
sentence length, and reading N tokens takes N sequential steps. It also measures how much the
first token still influences the last state, ``||dh_N/dh_1||`` (spectral norm of the product
of the step Jacobians ``diag(1 - h_t^2) W_hh``, section 5.4), and the same for every t.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from labs.simulations._common import ParamSchema, Progress, fmt, with_defaults

SENTENCES: list[str] = [
    "the cat sat",
    "the cat sat on the mat",
    "the meaning of a word depends on the words around it",
    "the agreement on the european economic area was signed in august 1992",
]

EMBEDDING_DIM = 8

PARAMS: ParamSchema = {
    "sentence": {
        "type": "choice",
        "label": "Sentence",
        "help": "The sentence the RNN reads, one word per step.",
        "default": SENTENCES[1],
        "options": SENTENCES,
    },
    "units": {
        "type": "int",
        "label": "Hidden units",
        "help": "Size of the hidden state, the same whatever the sentence length.",
        "default": 4,
        "min": 2,
        "max": 64,
    },
}


def tokenize(sentence: str) -> list[str]:
    """The sentence's tokens: lower-cased words split on whitespace."""
    return sentence.lower().split()


def _word_key(word: str) -> int:
    return int.from_bytes(hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest(), "big")


def embed(tokens: list[str], base_seed: int) -> np.ndarray:
    """One EMBEDDING_DIM vector per token, a function of (base_seed, word) only."""
    table: dict[str, np.ndarray] = {}
    rows = []
    for token in tokens:
        if token not in table:
            table[token] = np.random.default_rng([base_seed, _word_key(token)]).standard_normal(
                EMBEDDING_DIM
            )
        rows.append(table[token])
    return np.array(rows)


def run(
    params: dict[str, Any],
    *,
    rng: np.random.Generator,
    progress: Progress = None,
) -> dict[str, Any]:
    """Run the RNN over the sentence of validated ``params``; returns JSON-serialisable data.

    Keys: ``tokens``, ``states`` (one list of ``units`` numbers per token), ``state_norms``,
    ``state_size``, ``sequential_steps`` (= number of tokens), ``influence`` (``||dh_N/dh_t||``
    for t = 1..N, 1.0 for t = N) and ``first_token_influence`` (``||dh_N/dh_1||``).
    """
    p = with_defaults(PARAMS, params)
    n = int(p["units"])
    tokens = tokenize(str(p["sentence"]))
    base_seed = int(rng.integers(0, 2**63 - 1))
    w_hh = rng.standard_normal((n, n)) / np.sqrt(n)
    w_xh = rng.standard_normal((n, EMBEDDING_DIM)) / np.sqrt(EMBEDDING_DIM)
    b = 0.1 * rng.standard_normal(n)
    x = embed(tokens, base_seed)

    states = np.empty((len(tokens), n))
    h = np.zeros(n)
    for t in range(len(tokens)):
        h = np.tanh(w_hh @ h + w_xh @ x[t] + b)
        states[t] = h
    if progress is not None:
        progress(0.5)

    # Jacobian products dh_N/dh_t, from t = N (identity) down to t = 1.
    jacobian = np.eye(n)
    influence = [1.0]
    for t in range(len(tokens) - 1, 0, -1):
        jacobian = jacobian @ ((1.0 - states[t] ** 2)[:, None] * w_hh)
        influence.append(float(np.linalg.norm(jacobian, 2)))
    influence.reverse()
    if progress is not None:
        progress(1.0)
    return {
        "sentence": str(p["sentence"]),
        "tokens": tokens,
        "units": n,
        "embedding_dim": EMBEDDING_DIM,
        "states": states.tolist(),
        "state_norms": np.linalg.norm(states, axis=1).tolist(),
        "state_size": n,
        "sequential_steps": len(tokens),
        "influence": influence,
        "first_token_influence": influence[0],
        "w_hh_sigma_max": float(np.linalg.norm(w_hh, 2)),
    }


def KEY_RESULTS(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The numbers the lab page shows."""
    return [
        ("Tokens read", str(len(result["tokens"]))),
        ("Sequential steps", str(result["sequential_steps"])),
        ("Numbers in the state", str(result["state_size"])),
        ("Influence of the first token on the last state", fmt(result["first_token_influence"])),
    ]
