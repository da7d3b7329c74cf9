"""SVG plots of lab results: one function per simulation, ``plot_for`` dispatches by key.

Matplotlib runs on the Agg backend (set before anything could import pyplot) and this module
never touches pyplot: every plot is its own ``Figure``, freed when the function returns, so
plotting is safe in a long-lived worker. Output is a standalone ``<svg>`` element as a str
(no XML prolog or DOCTYPE, so it can be inlined in HTML), with text kept as text
(``svg.fonttype = 'none'``), no date or creator metadata and a fixed ``svg.hashsalt``: the same
result always gives the same bytes. Each SVG carries ``role="img"``, a ``<title>`` and a
``<desc>`` summarising the data, referenced by ``aria-labelledby`` and ``aria-describedby``.

The SVG needs no CSS: the site's Content-Security-Policy (``style-src 'self'``) blocks inline
``style`` attributes and ``<style>`` elements in a page, so matplotlib's are rewritten as SVG
presentation attributes (``fill="#ffffff"``), which no policy blocks, and its one stylesheet
rule (``*{stroke-linejoin: round; stroke-linecap: butt}``) becomes attributes of the root that
every element inherits unless it sets its own.
"""

from __future__ import annotations

import io
import math
import re
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, cast
from xml.sax.saxutils import escape

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, MaxNLocator

from courses.plain_maths import plain_maths
from labs.simulations.vanishing_gradient import regime_phrase

RC: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "labs-plots",
    "svg.image_inline": True,
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
METADATA: dict[str, Any] = {"Date": None, "Creator": None, "Format": None, "Type": None}
SIGMA, ALPHA = "\u03c3", "\u03b1"  # Greek letters, spelt as escapes for the linter
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]

_LOCK = threading.Lock()
_PROLOG = re.compile(r"\A\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.DOTALL)
_SVG_OPEN = re.compile(r"<svg\b[^>]*>")
_ID_ATTR = re.compile(r'\b(id="|href="#)(?=[^"])')
_ID_URL = re.compile(r"url\(#")
_STYLE_ATTR = re.compile(r'\sstyle="([^"]*)"')
_STYLE_ELEMENT = re.compile(r"\s*<style\b[^>]*>(.*?)</style>", re.DOTALL)
_STAR_RULE = re.compile(r"\*\s*\{([^}]*)\}")
# The CSS properties matplotlib writes, each of which SVG also takes as an attribute.
PRESENTATION = frozenset({
    "fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "opacity",
    "font-size", "font-family", "font-style", "font-weight", "text-anchor", "image-rendering",
    "clip-path", "clip-rule", "fill-rule", "dominant-baseline", "alignment-baseline",
})


def _rc() -> AbstractContextManager[None]:
    """The rcParams of every plot, as a context (never changed globally)."""
    return matplotlib.rc_context(cast(Any, RC))


def _declarations(css: str) -> dict[str, str]:
    """``"fill: #fff; stroke: none"`` as ``{"fill": "#fff", "stroke": "none"}`` (a property
    given twice keeps its last value, as CSS does)."""
    pairs = (d.partition(":") for d in css.split(";") if d.strip())
    return {name.strip(): value.strip() for name, _, value in pairs}


def _attributes(css: str) -> str:
    """CSS declarations as SVG presentation attributes (`` fill="#fff" stroke="none"``).

    Raises ValueError for a property SVG takes only as CSS: such a plot would be drawn wrong
    under the site's policy, and a test draws every plot."""
    declarations = _declarations(css)
    unknown = sorted(set(declarations) - PRESENTATION)
    if unknown:
        raise ValueError(f"matplotlib wrote CSS that is not an SVG attribute: {unknown}")
    # The values come from a double-quoted attribute or a <style> of the same XML, so they
    # are written back as they were (already escaped, free of '"').
    return "".join(f' {name}="{value}"' for name, value in declarations.items())


def without_css(svg: str) -> str:
    """``svg`` with every ``style`` attribute and ``<style>`` element turned into presentation
    attributes (see the module's docstring); the drawing is the same."""
    inherited = ""
    for rules in _STYLE_ELEMENT.findall(svg):
        inherited += "".join(_attributes(body) for body in _STAR_RULE.findall(rules))
        if _STAR_RULE.sub("", rules).strip():
            raise ValueError(f"matplotlib wrote a stylesheet rule other than '*': {rules!r}")
    svg = _STYLE_ELEMENT.sub("", svg)
    svg = re.sub(r"<defs>\s*</defs>", "", svg)
    svg = _STYLE_ATTR.sub(lambda m: _attributes(m.group(1)), svg)
    match = _SVG_OPEN.search(svg)
    if match is None or not inherited:
        return svg
    return svg[: match.end() - 1] + inherited + svg[match.end() - 1 :]


def _svg(fig: Figure, *, key: str, title: str, description: str) -> str:
    """Render ``fig`` to a deterministic, accessible SVG string (``description`` may write
    maths in `$...$`, as the lab's texts do: it is spelt out as plain text)."""
    buffer = io.StringIO()
    with _rc():
        fig.savefig(buffer, format="svg", metadata=METADATA)
    svg = without_css(_PROLOG.sub("", buffer.getvalue(), count=1))
    # Prefix matplotlib's ids (figure_1, clip paths, ...) so several plots can share a page.
    prefix = f"lab-{key}-"
    svg = _ID_ATTR.sub(lambda m: m.group(1) + prefix, svg)
    svg = _ID_URL.sub(f"url(#{prefix}", svg)
    title_id, desc_id = f"{prefix}title", f"{prefix}desc"
    match = _SVG_OPEN.search(svg)
    if match is None:  # pragma: no cover - matplotlib always writes one
        raise RuntimeError("matplotlib produced no <svg> element")
    opening = match.group(0)
    accessible = (
        opening[:-1]
        + f' role="img" aria-labelledby="{title_id}" aria-describedby="{desc_id}">'
        + f'<title id="{title_id}">{escape(title)}</title>'
        + f'<desc id="{desc_id}">{escape(plain_maths(description))}</desc>'
    )
    return svg[: match.start()] + accessible + svg[match.end() :]


def _figure(size: tuple[float, float], margins: tuple[float, float, float, float]) -> Figure:
    """A figure with fixed margins (left, bottom, right, top as fractions).

    Fixed margins instead of a layout engine: a layout engine draws the figure twice.
    """
    with _rc():
        fig = Figure(figsize=size)
    left, bottom, right, top = margins
    fig.subplots_adjust(left=left, bottom=bottom, right=right, top=top)
    return fig


_SUPERSCRIPT = str.maketrans(
    "-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
)


def _power_of_ten(exponent: float, _position: float | None = None) -> str:
    """Tick label of a log10 axis: 10⁻⁴⁵ for -45, in plain text (mathtext is slow to lay out)."""
    rounded = round(exponent)
    if abs(exponent - rounded) > 1e-9:
        return ""
    return "1" if rounded == 0 else f"10{str(rounded).translate(_SUPERSCRIPT)}"


def _short(value: float | None) -> str:
    return "-" if value is None else f"{value:.2g}"


def plot_vanishing_gradient(result: dict[str, Any]) -> str:
    """Measured gradient norm against steps back (log y), with the dashed bounds sigma^k.

    Plots ``log10_measured``, which stays finite where the linear norms under- or overflow.
    """
    with _rc():
        fig = _figure((6.4, 4.0), (0.12, 0.12, 0.98, 0.93))
        ax = fig.add_subplot()
        # log10 values on a linear axis labelled in powers of ten: the sizes span far more
        # than a float's range (10^-650 .. 10^500 at the extremes), their log10 never does.
        ks = result["k"]
        for i, s in enumerate(result["series"]):
            colour = COLOURS[i % len(COLOURS)]
            measured = [math.nan if v is None else v for v in s["log10_measured"]]
            label = f"{SIGMA}_max = {s['sigma']:g}"
            ax.plot(ks, measured, color=colour, lw=1.8, label=label)
            slope = math.log10(s["sigma"])
            ax.plot([0, ks[-1]], [0.0, slope * ks[-1]], color=colour, lw=1.0, ls="--")
        ax.yaxis.set_major_locator(MaxNLocator(nbins=10, steps=[1, 2, 5, 10], integer=True))
        ax.yaxis.set_major_formatter(FuncFormatter(_power_of_ten))
        if result["steps"] >= result["prediction_k"]:
            ax.axvline(result["prediction_k"], color="0.6", lw=0.8, ls=":")
        ax.set_xlim(0, result["steps"])
        ax.set_xlabel("steps back, k")
        ax.set_ylabel("gradient size ‖g_k‖")
        handles, _ = ax.get_legend_handles_labels()
        bound_label = f"bound {SIGMA}_max^k"
        handles.append(Line2D([], [], color="0.3", lw=1.0, ls="--", label=bound_label))
        ax.legend(handles=handles, fontsize=8, frameon=False, loc="best")
        ax.set_title(f"{result['units']}-unit tanh RNN, {result['steps']} steps", fontsize=9)
    at_k = result["steps"] < result["prediction_k"]
    k = result["steps"] if at_k else result["prediction_k"]
    parts = [
        rf"$\sigma_{{\max}}$ {s['sigma']:g}: {_short(s['final_norm'] if at_k else s['norm_at_40'])}"
        f" ({regime_phrase(s, result['steps'])})"
        for s in result["series"]
    ]
    description = (
        "Line chart, log scale (powers of ten): size of the gradient carried back k steps "
        "through the RNN, "
        r"one solid line per $\sigma_{\max}$, with the bound $\sigma_{\max}^k$ dashed. "
        f"At $k = {k}$: "
        + "; ".join(parts)
        + "."
    )
    return _svg(
        fig,
        key="vanishing-gradient",
        title="Gradient size against steps back",
        description=description,
    )


def plot_attention(result: dict[str, Any]) -> str:
    """The alignment heatmap: rows are the French words, columns the English words."""
    source, target, alpha = result["source_tokens"], result["target_tokens"], result["alpha"]
    with _rc():
        fig = _figure((5.6, 5.2), (0.2, 0.17, 0.84, 0.94))
        ax = fig.add_subplot()
        image = ax.imshow(alpha, cmap="Blues", vmin=0.0, vmax=1.0, interpolation="none")
        ax.set_xticks(range(len(source)), source, rotation=60, ha="right", rotation_mode="anchor")
        ax.set_yticks(range(len(target)), target)
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        for i in result["crossing_rows"]:
            for row in (i - 1, i):
                ax.add_patch(
                    Rectangle(
                        (result["argmax"][row] - 0.5, row - 0.5),
                        1,
                        1,
                        fill=False,
                        edgecolor="#d62728",
                        lw=1.2,
                    )
                )
        colourbar = fig.colorbar(image, cax=fig.add_axes((0.87, 0.3, 0.025, 0.5)))
        colourbar.set_label(f"attention weight {ALPHA}_ij")
        ax.set_title(f"Shape: {result['shape']}", fontsize=9)
    pairs = ", ".join(f"{t} -> {s}" for t, s in result["aligned_pairs"])
    description = (
        "Heatmap of attention weights, French words down the side, English words across the "
        f"top; each row sums to 1. Strongest weight per French word: {pairs}. "
        f"Shape: {result['shape']}; crossing: {'yes' if result['crossing'] else 'no'}."
    )
    return _svg(
        fig,
        key="attention",
        title="Where the decoder looks while writing each word",
        description=description,
    )


def plot_word_vectors(result: dict[str, Any]) -> str:
    """Words as arrows from the origin, the chosen pair highlighted, and the analogy arrow."""
    positions = result["positions"]
    chosen = {result["word_a"], result["word_b"]}
    with _rc():
        fig = _figure((5.6, 4.4), (0.08, 0.08, 0.98, 0.93))
        ax = fig.add_subplot()
        for word, (x, y) in positions.items():
            colour = "#1f77b4" if word in chosen else "0.65"
            ax.annotate(
                "",
                xy=(x, y),
                xytext=(0, 0),
                arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.4},
            )
            ax.annotate(
                word,
                (x, y),
                xytext=(4, 4),
                textcoords="offset points",
                color="black" if word in chosen else "0.35",
            )
        (mx, my), (wx, wy), (kx, ky) = positions["man"], positions["woman"], positions["king"]
        px, py = result["analogy_point"]
        style = {"arrowstyle": "->", "color": "#d62728", "lw": 1.6}
        ax.annotate("", xy=(wx, wy), xytext=(mx, my), arrowprops={**style, "ls": "--"})
        ax.annotate("", xy=(px, py), xytext=(kx, ky), arrowprops=style)
        ax.plot([px], [py], marker="o", ms=4, color="#d62728")
        ax.annotate(
            "king - man + woman",
            (px, py),
            xytext=(-10, 10),
            textcoords="offset points",
            color="#d62728",
            ha="right",
            fontsize=8,
        )
        xs = [p[0] for p in positions.values()] + [0.0, px]
        ys = [p[1] for p in positions.values()] + [0.0, py]
        ax.set_xlim(min(xs) - 0.8, max(xs) + 1.2)
        ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
        ax.set_aspect("equal")
        ax.axhline(0, color="0.85", lw=0.6)
        ax.axvline(0, color="0.85", lw=0.6)
        ax.set_title(
            f"{result['word_a']} / {result['word_b']}: {result['angle_degrees']:.1f} degrees, "
            f"cosine {result['cosine']:.3f}",
            fontsize=9,
        )
    description = (
        "Words drawn as arrows from the origin in a plane (illustrative positions chosen by "
        f"hand). {result['word_a']} and {result['word_b']} are "
        f"{result['angle_degrees']:.1f} degrees apart (cosine {result['cosine']:.3f}). The "
        "arrow from man to woman, copied to start at king, ends at "
        f"({px:.2f}, {py:.2f}), nearest to {result['nearest']}, "
        f"{result['distance_to_queen']:.2f} from queen."
    )
    return _svg(fig, key="word-vectors", title="Direction carries meaning", description=description)


def plot_rnn(result: dict[str, Any]) -> str:
    """The norm of the hidden state after each token."""
    tokens, norms = result["tokens"], result["state_norms"]
    with _rc():
        fig = _figure((6.0, 3.4), (0.1, 0.25, 0.98, 0.91))
        ax = fig.add_subplot()
        steps = list(range(1, len(tokens) + 1))
        ax.plot(steps, norms, marker="o", color="#1f77b4", lw=1.6)
        ax.set_xticks(steps, tokens, rotation=45, ha="right", rotation_mode="anchor")
        ax.set_xlim(0.5, len(tokens) + 0.5)
        ax.set_ylim(0, max([*norms, 1e-9]) * 1.15)
        ax.set_ylabel("state size ‖h_t‖")
        ax.set_xlabel("token read at step t")
        ax.set_title(
            f"{result['sequential_steps']} sequential steps, state of {result['state_size']} "
            "numbers at every step",
            fontsize=9,
        )
    listed = ", ".join(f"{t} {n:.2f}" for t, n in zip(tokens, norms, strict=True))
    description = (
        f"Line chart of the hidden state's norm after each of the {len(tokens)} tokens: "
        f"{listed}. The state always has {result['state_size']} numbers; the first token's "
        f"influence on the last state is {_short(result['first_token_influence'])}."
    )
    return _svg(fig, key="rnn", title="Hidden state after each token", description=description)


def plot_self_attention(result: dict[str, Any]) -> str:
    """The self-attention weights as a heat map: rows are the queries, columns the keys."""
    tokens, weights = result["tokens"], result["weights"]
    with _rc():
        fig = _figure((4.8, 4.4), (0.16, 0.14, 0.82, 0.9))
        ax = fig.add_subplot()
        image = ax.imshow(weights, cmap="Blues", vmin=0.0, vmax=1.0, interpolation="none")
        ax.set_xticks(range(len(tokens)), tokens, rotation=45, ha="right", rotation_mode="anchor")
        ax.set_yticks(range(len(tokens)), tokens)
        ax.set_xlabel("key (attended to)")
        ax.set_ylabel("query (attending)")
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        colourbar = fig.colorbar(image, cax=fig.add_axes((0.85, 0.3, 0.025, 0.5)))
        colourbar.set_label("attention weight")
        ax.set_title(f"d = {result['d']}, scores / d^{result['power']:g}: {result['peak']}",
                     fontsize=9)
    looks = ", ".join(f"{tokens[i]} -> {tokens[j]} ({w:.2f})"
                      for i, (j, w) in enumerate(zip(result["argmax"], result["largest"],
                                                     strict=True)))
    description = (
        f"Heat map of self-attention weights over {len(tokens)} tokens, queries down the side, "
        f"keys across the top; each row sums to 1. Largest weight per query: {looks}. "
        f"Rows: {result['peak']}."
    )
    return _svg(fig, key="self-attention", title="Where each token looks (self-attention weights)",
                description=description)


PLOTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "vanishing-gradient": plot_vanishing_gradient,
    "rnn": plot_rnn,
    "attention": plot_attention,
    "word-vectors": plot_word_vectors,
    "self-attention": plot_self_attention,
}


def plot_for(simulation_key: str, result: dict[str, Any]) -> str:
    """The SVG (a str starting with ``<svg``) of a result of simulation ``simulation_key``.

    Raises KeyError for an unknown key. Plots are drawn one at a time per process (a lock):
    matplotlib's rcParams are global, so two threads must not draw at once.
    """
    plot = PLOTS[simulation_key]
    with _LOCK:
        return plot(result)
