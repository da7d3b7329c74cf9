"""Speed of the 5.4 lab against a minimal hand-written numpy loop of the same maths.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_lab_simulation_speed.py -s
Prints figures and the ratio against the baseline measured in the same run; asserts no time.
"""

import time

import numpy as np
import pytest

from labs.simulations import vanishing_gradient as vg

pytestmark = pytest.mark.benchmark


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
def test_simulation_against_a_minimal_numpy_loop(units, steps):
    sigmas = [0.5, 1.0, 1.5, 3.0]
    params = {"units": units, "steps": steps, "sigmas": sigmas, "input_scale": 1.0}
    inner = 20 if units < 256 else 2
    lab = best_time(lambda i: vg.run(params, rng=np.random.default_rng(i)), inner=inner)
    plain = best_time(
        lambda i: minimal_loop(units, steps, sigmas, 1.0, np.random.default_rng(i)), inner=inner
    )
    print(f"\nvanishing-gradient {units}x{steps}: simulation {lab * 1e3:.2f} ms, "
          f"minimal loop {plain * 1e3:.2f} ms, ratio {lab / plain:.2f} (target <= 1.5)")


def test_default_run_compute_time():
    seconds = best_time(lambda i: vg.run({}, rng=np.random.default_rng(i)))
    print(f"\nvanishing-gradient default run: {seconds * 1e3:.2f} ms compute "
          f"(a 50 runs/s target on 2 workers leaves 40 ms per run for compute and storage)")
