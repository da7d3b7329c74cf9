"""Section 5.6 lab: Bahdanau additive attention, a context value and an alignment heatmap.

Context. With attention weights ``alpha_j`` and scalar encoder states ``h_j`` given directly,
the context is ``c = sum_j alpha_j h_j``. The sum is taken with ``math.fsum``. The default
inputs (weights [0.7, 0.2, 0.1], states [2, -1, 4]) are deliberately not the numbers of any
exercise, and ``printed_numbers`` tells the service which number a run would print, so a
student cannot read the key of an unsolved part (Apply 3's context value, within its
tolerance) off the lab (see ``labs.answer_guard``).

Alignment. A real additive score network, ``e_ij = v^T tanh(W s_{i-1} + U h_j)``,
``alpha_ij = softmax_j(e_ij)``, scores every English encoder state ``h_j`` for every French
decoder state ``s_{i-1}``. The states are constructed, not trained: with ``M`` source words,
``h_j`` is the one-hot vector of position ``j`` plus ``NEIGHBOUR_MIX`` of its two neighbours
(as a bidirectional encoder would blend them) plus Gaussian noise; ``s_{i-1}`` is the one-hot
vector of the source position the French word ``i`` translates (``DESIGNED_ALIGNMENT``), plus
noise, plus a constant last coordinate 1. The network has one hidden unit per source
position: ``W = beta [I | -1.5]``, ``U = beta I``, ``v = sharpness * 1``, so unit ``p`` fires
only when both the decoder and the encoder state point at position ``p``. The pattern runs
along the diagonal and crosses where French puts the adjectives after the noun:
zone-Area, économique-Economic, européenne-European.

``shape`` classifies the matrix (see ``classify_shape``) and is what a student's prediction is
graded against; ``crossing`` says whether the argmax source position ever goes down while the
target position goes up.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from labs.simulations._common import ParamSchema, Progress, fmt, with_defaults

SOURCE_TOKENS: list[str] = [
    "The", "agreement", "on", "the", "European", "Economic", "Area",
    "was", "signed", "in", "August", "1992", ".",
]  # fmt: skip
TARGET_TOKENS: list[str] = [
    "L'", "accord", "sur", "la", "zone", "économique", "européenne",
    "a", "été", "signé", "en", "août", "1992", ".",
]  # fmt: skip
#: For each French word, the index of the English word it translates.
DESIGNED_ALIGNMENT: list[int] = [0, 1, 2, 3, 6, 5, 4, 7, 7, 8, 9, 10, 11, 12]

NEIGHBOUR_MIX = 0.3
BETA = 4.0

SHAPES: dict[str, str] = {
    "diagonal": "Each row looks at one source word, moving steadily left to right.",
    "diagonal-with-crossing": (
        "Mostly along the diagonal, but somewhere the source position goes back while the "
        "target goes forward: the word order differs."
    ),
    "anti-diagonal": "The source is read backwards.",
    "one-column": "Every row looks at the same source word.",
    "uniform": "Every row spreads its weight almost evenly: no word stands out.",
    "scattered": "Rows focus, but with no overall order.",
}

PARAMS: ParamSchema = {
    "weights": {
        "type": "float_list",
        "label": "Attention weights",
        "help": "Weights over the source words; they must sum to 1.",
        "default": [0.7, 0.2, 0.1],
        "min_length": 1,
        "max_length": 12,
        "min": 0.0,
        "max": 1.0,
    },
    "states": {
        "type": "float_list",
        "label": "Encoder states",
        "help": "One scalar encoder state per weight.",
        "default": [2.0, -1.0, 4.0],
        "min_length": 1,
        "max_length": 12,
        "min": -1000.0,
        "max": 1000.0,
    },
    "sharpness": {
        "type": "float",
        "label": "Score scale (length of v)",
        "help": "Multiplies every score; 0 gives uniform weights.",
        "default": 2.0,
        "min": 0.0,
        "max": 10.0,
    },
    "noise": {
        "type": "float",
        "label": "Noise on the encoder and decoder states",
        "help": "Standard deviation of the noise added to the constructed states.",
        "default": 0.1,
        "min": 0.0,
        "max": 1.0,
    },
}

WEIGHT_SUM_TOLERANCE = 1e-6


def check_params(params: dict[str, Any]) -> dict[str, str]:
    """Cross-parameter checks: as many weights as states, weights summing to 1."""
    weights, states = params["weights"], params["states"]
    if len(weights) != len(states):
        return {
            "states": (
                f"Give one encoder state per weight ({len(weights)} weights, {len(states)} states)"
            )
        }
    total = math.fsum(weights)
    if abs(total - 1.0) > WEIGHT_SUM_TOLERANCE:
        return {"weights": f"Attention weights must sum to 1 (they sum to {total:.6g})"}
    return {}


def context(weights: list[float], states: list[float]) -> dict[str, Any]:
    """The context value ``sum_j alpha_j h_j``, its terms and the sum written out."""
    pairs = list(zip(weights, states, strict=True))
    terms = [w * h for w, h in pairs]
    return {
        "weights": [float(w) for w in weights],
        "states": [float(h) for h in states],
        "context_terms": terms,
        "context_value": math.fsum(terms),
        "context_expression": " + ".join(f"{fmt(w, 6)} x {fmt(h, 6)}" for w, h in pairs),
    }


def softmax(scores: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable for large scores."""
    shifted = np.exp(scores - scores.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def additive_scores(
    decoder: np.ndarray, encoder: np.ndarray, w: np.ndarray, u: np.ndarray, v: np.ndarray
) -> np.ndarray:
    """``e_ij = v^T tanh(W s_i + U h_j)`` for decoder rows ``s_i`` and encoder rows ``h_j``."""
    hidden = np.tanh((decoder @ w.T)[:, None, :] + (encoder @ u.T)[None, :, :])
    return hidden @ v


def crossings(argmax: list[int]) -> list[int]:
    """Target rows ``i`` whose aligned source position is lower than row ``i - 1``'s."""
    return [i for i in range(1, len(argmax)) if argmax[i] < argmax[i - 1]]


def classify_shape(alpha: np.ndarray) -> str:
    """Name the pattern of an attention matrix (rows = target, columns = source), see SHAPES.

    "uniform" when the rows' largest weights average below 2 / (number of columns); otherwise
    by the argmax per row: all equal is "one-column"; a correlation of at least 0.8 between row
    and argmax position is "diagonal" (or "diagonal-with-crossing" when the argmax ever goes
    down); at most -0.8 is "anti-diagonal"; anything else "scattered".
    """
    rows, cols = alpha.shape
    if float(alpha.max(axis=1).mean()) < 2.0 / cols:
        return "uniform"
    argmax = alpha.argmax(axis=1)
    if rows < 2 or np.all(argmax == argmax[0]):
        return "one-column"
    corr = float(np.corrcoef(np.arange(rows), argmax)[0, 1])
    if corr >= 0.8:
        return "diagonal-with-crossing" if crossings(argmax.tolist()) else "diagonal"
    if corr <= -0.8:
        return "anti-diagonal"
    return "scattered"


def alignment(sharpness: float, noise: float, rng: np.random.Generator) -> dict[str, Any]:
    """The heatmap of the English-French example computed by the additive score network."""
    m, t = len(SOURCE_TOKENS), len(TARGET_TOKENS)
    eye = np.eye(m)
    encoder = eye + NEIGHBOUR_MIX * (np.roll(eye, 1, axis=1) + np.roll(eye, -1, axis=1))
    encoder[0, -1] = encoder[-1, 0] = 0.0  # no wrap-around between the first and last word
    decoder = np.hstack([eye[DESIGNED_ALIGNMENT], np.ones((t, 1))])
    draws = rng.standard_normal((m + t, m))
    encoder = encoder + noise * draws[:m]
    decoder[:, :m] += noise * draws[m:]
    w = BETA * np.hstack([eye, np.full((m, 1), -1.5)])
    u = BETA * eye
    v = np.full(m, float(sharpness))
    scores = additive_scores(decoder, encoder, w, u, v)
    alpha = softmax(scores)
    contexts = alpha @ encoder
    argmax = alpha.argmax(axis=1).tolist()
    crossed = crossings(argmax)
    return {
        "source_tokens": SOURCE_TOKENS,
        "target_tokens": TARGET_TOKENS,
        "scores": scores.tolist(),
        "alpha": alpha.tolist(),
        "contexts": contexts.tolist(),
        "row_sums": alpha.sum(axis=1).tolist(),
        "argmax": argmax,
        "aligned_pairs": [[TARGET_TOKENS[i], SOURCE_TOKENS[j]] for i, j in enumerate(argmax)],
        "crossing": bool(crossed),
        "crossing_rows": crossed,
        "shape": classify_shape(alpha),
        "designed_alignment": DESIGNED_ALIGNMENT,
    }


def run(
    params: dict[str, Any],
    *,
    rng: np.random.Generator,
    progress: Progress = None,
) -> dict[str, Any]:
    """Both parts of the lab on validated ``params``, in one flat JSON-serialisable dict.

    Context part: ``weights``, ``states``, ``context_terms``, ``context_value``,
    ``context_expression``. Alignment part: ``source_tokens``, ``target_tokens``, ``scores``
    (``e_ij``), ``alpha`` (rows = French, columns = English), ``contexts`` (row ``i`` is the
    context vector ``c_i = sum_j alpha_ij h_j``), ``row_sums``, ``argmax``, ``aligned_pairs``,
    ``crossing``, ``crossing_rows``, ``shape`` (one of ``shapes``), ``designed_alignment``.
    """
    p = with_defaults(PARAMS, params)
    result = {
        **context(list(p["weights"]), list(p["states"])),
        **alignment(float(p["sharpness"]), float(p["noise"]), rng),
        "sharpness": float(p["sharpness"]),
        "noise": float(p["noise"]),
        "shapes": list(SHAPES),
    }
    if progress is not None:
        progress(1.0)
    return result


def per_word(result: dict[str, Any]) -> list[tuple[str, str]]:
    """For each output word: the source word it attends to most, that word's score and
    weight, the largest other weight, and the context vector's coordinate on that word."""
    rows = []
    source = result["source_tokens"]
    contexts = result.get("contexts") or [[] for _ in result["alpha"]]
    scores = result.get("scores") or [[] for _ in result["alpha"]]
    for word, e_row, a_row, c_row, j in zip(result["target_tokens"], scores, result["alpha"],
                                            contexts, result["argmax"], strict=True):
        others = max((a for k, a in enumerate(a_row) if k != j), default=0.0)
        text = f"looks at {_quoted(source[j])}: weight {fmt(a_row[j], 3)}"
        if e_row:
            text += f" (score {fmt(e_row[j], 3)})"
        text += f", next largest weight {fmt(others, 3)}"
        if c_row:
            text += f"; context = {fmt(c_row[j], 3)} on {_quoted(source[j])}"
        rows.append((f"Writing {_quoted(word)}", text))
    return rows


def _quoted(word: str) -> str:
    """A word in curly double quotes: French words end in an apostrophe ("L'"), which
    straight single quotes would run into ('L'')."""
    return f"\u201c{word}\u201d"


def KEY_RESULTS(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The numbers the lab page shows: the context value, the alignment's shape, and the
    score, weight and context of each output word."""
    return [
        ("Context value", fmt(result["context_value"], 6)),
        ("Shape of the alignment", result["shape"]),
        ("Crossing", "yes" if result["crossing"] else "no"),
        *per_word(result),
    ]


def printed_numbers(params: dict[str, Any]) -> list[str]:
    """The numbers a run with validated ``params`` prints that the parameters alone decide,
    as printed: the context value (see ``labs.answer_guard``: a run that would print the
    answer to an unsolved part, such as Apply 3's context value, is refused)."""
    p = with_defaults(PARAMS, params)
    value = context(list(p["weights"]), list(p["states"]))["context_value"]
    return [fmt(value, 6)]
