"""Section 5.4 lab: how a gradient shrinks travelling back through a random tanh RNN.

The maths. A tanh RNN without bias, ``h_t = tanh(W_hh h_{t-1} + W_xh x_t)`` with ``h_0 = 0``,
runs forward for ``steps`` steps on random inputs ``x_t ~ N(0, I)`` scaled by ``input_scale``
(``W_xh`` is a random ``units x units`` matrix with entries ``N(0, 1/units)``, so each unit
receives a drive of standard deviation about ``input_scale``). ``W_hh`` is one random Gaussian
matrix rescaled so that its largest singular value is exactly each of the four ``sigmas``; the
four networks share every other draw and run batched.

A gradient of size 1 (a random unit vector ``g_0``, the same for the four sigmas) is put on
``h_T`` and carried back with the transposed Jacobian of each step::

    g_k = W_hh^T diag(1 - h_{T-k+1}^2) g_{k-1}        k = 1 .. steps

so ``g_k = (dh_T / dh_{T-k})^T g_0``. The lab reports ``||g_k||``, the size of the gradient that
actually arrives k steps back. Because ``||W_hh^T|| = sigma_max`` and every tanh slope lies in
[0, 1], each step multiplies the norm by at most ``sigma_max``, so
``||g_k|| <= sigma_max^k`` for every k is a theorem (up to floating-point rounding, relative
1e-12), which the tests check. ``||g_k||`` never exceeds the spectral norm of the Jacobian
product either, and is what training really carries back.

Numbers. The carried vector is renormalised at every step and its norm accumulated as a sum of
log10, so nothing under- or overflows however long the run: ``log10_measured`` is exact and
finite (None only when a tanh slope is exactly 0 in float64 and the gradient becomes exactly
zero). The linear values ``measured`` and ``bound`` are clamped to [0, MAX_REPORTED = 1e300]
(``clamped`` says whether that happened), since JSON has no infinity.

Random draws. ``rng`` is used once, for one block of standard normals split in a fixed order:
``W_hh`` (before rescaling), ``W_xh``, the inputs ``x_1 .. x_T``, then ``g_0``.

Regimes, decided per sigma from the measurement and the bound of the same run: "exploding"
when the gradient that arrives after all ``steps`` is at least 1; otherwise it vanished, and
the label says why the bound ``sigma_max^steps`` did not already promise it: "near-one" when
the bound is within a factor NEAR_ONE_FACTOR of 1, "vanishing" when it is below that (sigma_max
< 1: the bound vanishes too), and above it (sigma_max > 1) "saturating" when the tanh is
saturated (mean slope < SATURATED_SLOPE) or "misaligned" when the tanh stayed nearly linear
(the repeated steps shrink the gradient although the matrix stretches some direction).
``regime_phrase`` words each in the run's own numbers.

Defaults. 32 units, 60 steps, input scale 1, sigmas [0.5, 1.0, 1.5, 3.0]: 0.5 vanishes clearly,
1.0 is the "near-one" case whose bound stays flat while the gradient still vanishes, and 1.5
and 3.0 are stretching matrices whose bound explodes but whose gradient vanishes because the
tanh saturates (mean slope about 0.57 and 0.46). Checked over 500 seeds, see the numbers in
tests/labs/simulations/test_vanishing_gradient.py. With ``input_scale = 0`` the states stay at
0, the tanh stays linear and sigma_max = 3 explodes instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labs.simulations._common import (
    MAX_REPORTED,
    ParamSchema,
    Progress,
    fmt,
    with_defaults,
)

PARAMS: ParamSchema = {
    "units": {
        "type": "int",
        "label": "Hidden units",
        "help": r"Size of the hidden state $\mathbf{h}_t$.",
        "default": 32,
        "min": 2,
        "max": 256,
    },
    "steps": {
        "type": "int",
        "label": "Steps",
        "help": "How many steps the RNN runs forward, and the gradient travels back.",
        "default": 60,
        "min": 1,
        "max": 500,
    },
    "sigmas": {
        "type": "float_list",
        "label": r"$\sigma_{\max}$ values",
        "help": "Four values of the largest singular value of $W_{hh}$, one curve each.",
        "default": [0.5, 1.0, 1.5, 3.0],
        "length": 4,
        "min": 0.05,
        "max": 10.0,
    },
    "input_scale": {
        "type": "float",
        "label": "Input scale",
        "help": r"Size of the random inputs; 0 keeps the tanh linear ($\mathbf{h}$ stays 0).",
        "default": 1.0,
        "min": 0.0,
        "max": 5.0,
    },
}

#: The step count of the section's Apply exercise ("40 RNN steps").
PREDICTION_K = 40

#: A mean tanh slope below this counts as a saturated tanh.
SATURATED_SLOPE = 0.95

#: The bound sigma_max^steps within this factor of 1 counts as "staying near 1".
NEAR_ONE_FACTOR = 2.0

#: The maths the texts name, in the module's LaTeX (pages typeset it, plain text spells it).
SIGMA_MAX = r"$\sigma_{\max}$"
W_HH = "$W_{hh}$"

REGIMES: dict[str, str] = {
    "vanishing": f"{SIGMA_MAX} below 1: the bound already forces the gradient to vanish.",
    "near-one": (
        r"The bound $\sigma_{\max}^k$ stays near 1 and promises nothing, yet the measured "
        "gradient vanishes (tanh slopes below 1, gradient not aligned with the largest stretch)."
    ),
    "saturating": (
        f"{SIGMA_MAX} above 1: the bound explodes, but the tanh saturates, its slopes collapse, "
        "and the measured gradient vanishes anyway."
    ),
    "misaligned": (
        f"{SIGMA_MAX} above 1 and a nearly linear tanh, yet the measured gradient vanishes: the "
        f"direction {W_HH} stretches most is not one the repeated steps keep the gradient on."
    ),
    "exploding": "The gradient that arrives is at least as large as the one sent back.",
}


def regime_phrase(series: dict[str, Any], steps: int) -> str:
    """What one sigma's run did, in words true of its own numbers (final size, bound, mean
    tanh slope): the phrase the page and the plot show beside the measurement, its maths in
    `$...$` LaTeX."""
    regime = series["regime"]
    final, slope = series["final_norm"], series["mean_tanh_slope"]
    bound = series["bound"][-1] if series.get("bound") else float(series["sigma"]) ** steps
    if regime == "exploding":
        return (f"exploding: {fmt(final)} after {steps} steps, at least as large as the "
                "gradient sent back")
    if regime == "vanishing":
        return f"vanishing ({SIGMA_MAX} below 1: the bound, {fmt(bound)}, forces it down too)"
    if regime == "near-one":
        return (f"vanishing, although the bound stays near 1 ({fmt(bound)} after {steps} "
                "steps)")
    if regime == "saturating":
        return (f"vanishing, although {SIGMA_MAX} is above 1 (the tanh saturates: mean slope "
                f"{slope:.2f})")
    if regime == "misaligned":
        return (f"vanishing, although {SIGMA_MAX} is above 1 and the tanh is nearly linear "
                f"(mean slope {slope:.2f}): the gradient does not stay on the direction "
                f"{W_HH} stretches most")
    return str(regime)


def rescale_to_sigma(w: np.ndarray, sigma: float) -> np.ndarray:
    """Return ``w`` scaled so that its largest singular value is ``sigma``."""
    return w * (sigma / np.linalg.norm(w, 2))


def draw(units: int, steps: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Draw the random quantities of one run, in the documented fixed order (one rng call)."""
    n = units
    block = rng.standard_normal(2 * n * n + steps * n + n)
    w_hh, w_xh, x, g0 = np.split(block, np.cumsum([n * n, n * n, steps * n]))
    return {
        "w_hh": w_hh.reshape(n, n),
        "w_xh": w_xh.reshape(n, n) / np.sqrt(n),
        "x": x.reshape(steps, n),
        "g0": g0 / np.linalg.norm(g0),
    }


def _regime(sigma: float, steps: int, log10_final: float | None, mean_slope: float) -> str:
    # From the measurement and the bound of this run: exploding when what arrives after all
    # the steps is at least 1; otherwise it vanished, and the label says why the bound
    # sigma_max^steps did not already promise it (below 1/2: it did; within a factor 2 of 1:
    # near one; above 2: sigma_max > 1 and the tanh saturated, or stayed linear).
    if log10_final is not None and log10_final >= 0.0:
        return "exploding"
    log10_bound = steps * np.log10(sigma)
    if abs(log10_bound) <= np.log10(NEAR_ONE_FACTOR):
        return "near-one"
    if log10_bound < 0.0:
        return "vanishing"
    return "saturating" if mean_slope < SATURATED_SLOPE else "misaligned"


def run(
    params: dict[str, Any],
    *,
    rng: np.random.Generator,
    progress: Progress = None,
) -> dict[str, Any]:
    """Run the lab on validated ``params`` (missing ones take their default).

    Returns JSON-serialisable data: ``k`` (0..steps) and, per sigma, the measured gradient
    norm ``||g_k||``, its log10, the bound ``sigma^k``, the mean tanh slope, the norm at
    k = 40 (None when steps < 40) and the regime; see the module docstring.
    """
    p = with_defaults(PARAMS, params)
    n, steps = int(p["units"]), int(p["steps"])
    sigmas = np.asarray(p["sigmas"], dtype=float)
    d = draw(n, steps, rng)

    w = rescale_to_sigma(d["w_hh"], 1.0)  # network i uses W_hh = sigmas[i] * w
    w_t = w.T
    scale = sigmas[:, None]
    drive = float(p["input_scale"]) * (d["x"] @ d["w_xh"].T)

    # Forward: the four networks as the rows of h.
    states = np.empty((steps, sigmas.size, n))
    h = np.zeros((sigmas.size, n))
    for t in range(steps):
        h = np.tanh(scale * (h @ w_t) + drive[t], out=states[t])
    slopes = 1.0 - states * states
    if progress is not None:
        progress(0.5)

    # Backward: carry g_0, renormalising each step and summing log10 of the norms.
    log10_norm = np.empty((steps + 1, sigmas.size))
    log10_norm[0] = 0.0
    g = np.broadcast_to(d["g0"], (sigmas.size, n))
    with np.errstate(divide="ignore"):
        for k in range(1, steps + 1):
            g = scale * ((slopes[steps - k] * g) @ w)
            size = np.sqrt(np.einsum("ij,ij->i", g, g))
            log10_norm[k] = log10_norm[k - 1] + np.log10(size)
            g = g / np.where(size > 0.0, size, 1.0)[:, None]
    if progress is not None:
        progress(0.9)

    ks = np.arange(steps + 1)
    with np.errstate(over="ignore", divide="ignore"):
        measured = np.power(10.0, log10_norm)
        bound = np.power(sigmas[None, :], ks[:, None].astype(float))
    clamped = bool((measured > MAX_REPORTED).any() or (bound > MAX_REPORTED).any())
    measured = np.minimum(measured, MAX_REPORTED)
    bound = np.minimum(bound, MAX_REPORTED)
    mean_slopes = slopes.mean(axis=(0, 2))

    series = []
    for i, sigma in enumerate(sigmas.tolist()):
        logs = log10_norm[:, i].tolist()
        log10_final = logs[-1] if np.isfinite(logs[-1]) else None
        at_40 = float(measured[PREDICTION_K, i]) if steps >= PREDICTION_K else None
        series.append(
            {
                "sigma": sigma,
                "measured": measured[:, i].tolist(),
                "log10_measured": [v if v != -np.inf else None for v in logs],
                "bound": bound[:, i].tolist(),
                "mean_tanh_slope": float(mean_slopes[i]),
                "norm_at_40": at_40,
                "bound_at_40": float(bound[PREDICTION_K, i]) if steps >= PREDICTION_K else None,
                "final_norm": float(measured[-1, i]),
                "regime": _regime(sigma, steps, log10_final, float(mean_slopes[i])),
            }
        )
    if progress is not None:
        progress(1.0)
    return {
        "units": n,
        "steps": steps,
        "input_scale": float(p["input_scale"]),
        "sigmas": sigmas.tolist(),
        "k": ks.tolist(),
        "gradient_start": "random unit vector",
        "prediction_k": PREDICTION_K,
        "norm_at_40": [s["norm_at_40"] for s in series],
        "regimes": [s["regime"] for s in series],
        "series": series,
        "clamped": clamped,
        "max_reported": MAX_REPORTED,
    }


def KEY_RESULTS(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The numbers the lab page shows: the gradient 40 steps back and the regime, per sigma
    (maths in `$...$` LaTeX)."""
    rows: list[tuple[str, str]] = []
    for s in result["series"]:
        sigma = rf"$\sigma_{{\max}} = {fmt(s['sigma'])}$"
        if s["norm_at_40"] is not None:
            label = f"Gradient size {PREDICTION_K} steps back, {sigma}"
            value = f"{fmt(s['norm_at_40'])} (bound {fmt(s['bound_at_40'])})"
        else:
            label = f"Gradient size {result['steps']} steps back, {sigma}"
            value = fmt(s["final_norm"])
        rows.append((label, f"{value}: {regime_phrase(s, result['steps'])}"))
    return rows


def printed_numbers(params: dict[str, Any]) -> list[str]:
    """The numbers a run with validated ``params`` prints that the parameters alone decide,
    as printed: each sigma's bound ``sigma_max^k`` after ``PREDICTION_K`` steps and after all
    the steps (clamped as the run clamps it). See ``labs.answer_guard``: a run that would
    print the answer to an unsolved part, such as Apply 1's bound, is refused."""
    p = with_defaults(PARAMS, params)
    steps = int(p["steps"])
    ks = [PREDICTION_K, steps] if steps >= PREDICTION_K else [steps]
    out: list[str] = []
    for sigma in p["sigmas"]:
        for k in ks:
            try:
                bound = min(float(sigma) ** k, MAX_REPORTED)
            except OverflowError:
                bound = MAX_REPORTED
            text = fmt(bound)
            if text not in out:
                out.append(text)
    return out
