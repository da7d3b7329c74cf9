"""Speed of the 5.4 lab against a minimal hand-written numpy loop of the same maths.

Timing tests are opt-in (they are sensitive to a busy machine): RUN_BENCHMARKS=1.
"""

import os
import time

import numpy as np
import pytest

from labs.simulations import vanishing_gradient as vg

pytestmark = [
    pytest.mark.benchmark,
    pytest.mark.skipif(not os.environ.get("RUN_BENCHMARKS"), reason="set RUN_BENCHMARKS=1"),
]


def minimal_loop(units, steps, sigmas, input_scale, rng):
    """The same maths written plainly: one network per sigma, matrix-vector products."""
    n = units
    w0 = rng.standard_normal((n, n))
    w_xh = rng.standard_normal((n, n)) / np.sqrt(n)
    x = rng.standard_normal((steps, n))
    g0 = rng.standard_normal(n)
    g0 /= np.linalg.norm(g0)
    w0 /= np.linalg.norm(w0, 2)
    drive = input_scale * x @ w_xh.T
    norms = []
    for sigma in sigmas:
        w = sigma * w0
        h = np.zeros(n)
        states = []
        for t in range(steps):
            h = np.tanh(w @ h + drive[t])
            states.append(h)
        g, out = g0, [1.0]
        for k in range(1, steps + 1):
            g = w.T @ ((1 - states[steps - k] ** 2) * g)
            out.append(float(np.linalg.norm(g)))
        norms.append(out)
    return norms


def best_time(fn, repeats=7, inner=20):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(inner):
            fn(i)
        best = min(best, (time.perf_counter() - start) / inner)
    return best


@pytest.mark.parametrize(("units", "steps"), [(32, 60), (64, 200), (256, 500)])
def test_simulation_is_within_1_5x_of_a_minimal_numpy_loop(units, steps):
    sigmas = [0.5, 1.0, 1.5, 3.0]
    params = {"units": units, "steps": steps, "sigmas": sigmas, "input_scale": 1.0}
    inner = 20 if units < 256 else 2
    lab = best_time(lambda i: vg.run(params, rng=np.random.default_rng(i)), inner=inner)
    plain = best_time(
        lambda i: minimal_loop(units, steps, sigmas, 1.0, np.random.default_rng(i)), inner=inner
    )
    assert lab <= 1.5 * plain, f"lab {lab * 1e3:.2f} ms, minimal loop {plain * 1e3:.2f} ms"


def test_default_run_is_fast_enough_for_50_runs_per_second_on_two_workers():
    seconds = best_time(lambda i: vg.run({}, rng=np.random.default_rng(i)))
    assert seconds < 0.01  # leaves > 80% of each 40 ms per-run budget for storage
