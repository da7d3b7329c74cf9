"""A diagnostic workload, not course content: keeps a worker busy for a set time.

Operators use it to measure the queue's overhead and to rehearse failures (a worker killed
mid-run) with a run long enough to be caught in the act. Content files cannot name it
(`DIAGNOSTIC = True`); it does real numpy work and reports progress like a lab does.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from labs.simulations._common import ParamSchema, Progress, fmt, with_defaults

DIAGNOSTIC = True

PARAMS: ParamSchema = {
    "seconds": {
        "type": "float",
        "label": "Duration in seconds",
        "help": "How long the workload runs.",
        "default": 0.0,
        "min": 0.0,
        "max": 60.0,
    },
}


def run(params: dict[str, Any], *, rng: np.random.Generator, progress: Progress = None
        ) -> dict[str, Any]:
    """Multiply random 64x64 matrices until `seconds` have passed; report how many."""
    seconds = float(with_defaults(PARAMS, params)["seconds"])
    matrix = rng.standard_normal((64, 64)) / 8.0
    state = np.eye(64)
    started = time.perf_counter()
    products = 0
    while True:
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
        state = np.tanh(matrix @ state)
        products += 1
        if progress is not None and products % 64 == 0:
            progress(min(1.0, elapsed / seconds))
    return {"seconds": seconds, "products": products, "checksum": float(np.abs(state).sum())}


def KEY_RESULTS(result: dict[str, Any]) -> list[tuple[str, str]]:
    """Duration and the number of matrix products done."""
    return [("Seconds", fmt(result["seconds"])), ("Matrix products", str(result["products"]))]
