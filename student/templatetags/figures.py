"""The module's figures drawn on the server, each through its kind's entry in the registry
(courses.figure_kinds): the content-driven kinds (heat map, arrows, bars, line) and Module 5's
own, registered here (`install`): 5.1 as SVG arrows, 5.2 as an SVG chain of steps, 5.6 as an
HTML grid.

All work without JavaScript: the chosen word pair and the chosen grid row arrive as query
parameters of the module page (`?a=cat&b=dog`, `?row=4`) and are drawn here. A figure has a
handful of choices and is the same for every student, so each process keeps what it drew (a
sixth of the module page's time after every answer).
"""

import json
import math
from collections.abc import Callable, Hashable
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from courses.figure_kinds import FIGURE_KINDS, FigureKind, figure_kind_register
from courses.models import Figure
from labs.simulations.word_vectors import ANALOGY, POSITIONS, WORDS, angle_degrees, cosine

register = template.Library()

#: SVG user units per unit of the word plane, and the plane's visible extent.
_SCALE = 40
_X = (-3.5, 4.0)
_Y = (-2.0, 3.6)


def _point(x: float, y: float) -> tuple[float, float]:
    return round((x - _X[0]) * _SCALE, 1), round((_Y[1] - y) * _SCALE, 1)


def _label_offset(x: float, y: float) -> tuple[float, float]:
    length = math.hypot(x, y) or 1.0
    return round(x / length * 14, 1), round(-y / length * 14 + 4, 1)


#: Drawn figures a process keeps (every choice of both figures fits many times over).
DRAWN_KEPT = 256
_DRAWN: dict[tuple[Hashable, ...], SafeString] = {}


def _fingerprint(figure: Figure) -> tuple[Hashable, ...]:
    """All of the figure its templates show: changed content is drawn again."""
    return (figure.pk, figure.slug, figure.number, figure.title, figure.in_words,
            json.dumps(figure.data, sort_keys=True))


def _drawn(template_name: str, figure: Figure, choice: Hashable,
           context: Callable[[Figure, Any], dict[str, Any]], content_language: str) -> SafeString:
    key = (template_name, _fingerprint(figure), choice, get_language(), content_language)
    html = _DRAWN.get(key)
    if html is None:
        if len(_DRAWN) >= DRAWN_KEPT:
            _DRAWN.clear()
        # The template escapes every value; its output is HTML to insert as it is.
        html = _DRAWN[key] = mark_safe(render_to_string(  # noqa: S308
            template_name, {**context(figure, choice), "content_language": content_language}))
    return html


@register.simple_tag(takes_context=True)
def figure_drawn(context: template.Context, figure: Figure, pair: tuple[str, str],
                 row: int | None) -> SafeString:
    """`figure` drawn by its kind's template (nothing for a kind no longer registered); `pair`
    and `row` are the module page's choices, passed to the kinds that take them; the
    figure's own labels carry the page's `content_language` (none where it is "": the page's
    own language)."""
    kind = FIGURE_KINDS.get(figure.kind)
    if kind is None:
        return SafeString("")
    choice = {"pair": tuple(pair), "row": row}.get(kind.choice)
    return _drawn(kind.template, figure, choice, kind.context,
                  str(context.get("content_language") or ""))


def install() -> None:
    """Register Module 5's figure kinds, drawn by the code below (StudentConfig.ready)."""
    figure_kind_register(Figure.Kind.WORD_VECTORS, FigureKind(
        "Word vectors", "student/figures/word_vectors.html", word_vectors_context,
        choice="pair"))
    figure_kind_register(Figure.Kind.ALIGNMENT_GRID, FigureKind(
        "Alignment grid", "student/figures/alignment_grid.html", alignment_grid_context,
        choice="row"))
    figure_kind_register(Figure.Kind.STATE_CHAIN, FigureKind(
        "Hidden-state chain", "student/figures/state_chain.html", state_chain_context))


#: Figure 5.2's geometry in SVG user units: a step's box and the gap its state arrow crosses.
_STEP_W, _STEP_H, _GAP, _LEFT = 110, 64, 80, 10


def state_chain_context(figure: Figure, _choice: object = None) -> dict[str, Any]:
    """Figure 5.2: one box per token of `figure.data["tokens"]` (at least one; "x" when the
    content names none), each taking the previous state from the left and its token from
    below and passing its state on to the right: h_t = step_t(h_{t-1}, x_t)."""
    tokens = [str(t) for t in (figure.data or {}).get("tokens", [])] or ["x"]
    top = 40
    mid = top + _STEP_H // 2
    steps = []
    for index, token in enumerate(tokens):
        x = _LEFT + _GAP + index * (_STEP_W + _GAP)
        steps.append({
            "number": index + 1, "previous": index, "token": token,
            "x": x, "y": top, "w": _STEP_W, "h": _STEP_H, "cx": x + _STEP_W // 2,
            "mid_y": mid, "label_y": mid + 6,
            "in_x1": x - _GAP + 4, "in_x2": x - 2, "in_label_x": x - _GAP // 2,
            "token_line_y1": top + _STEP_H + 44, "token_line_y2": top + _STEP_H + 2,
            "token_y": top + _STEP_H + 66,
        })
    end = _LEFT + _GAP + len(tokens) * (_STEP_W + _GAP)
    last = {"number": len(tokens), "x1": end - _GAP + 2, "x2": end - 4,
            "label_x": end - _GAP // 2}
    return {"figure": figure, "steps": steps, "last": last, "label_y": mid - 12,
            "mid_y": mid, "width": end + _LEFT, "height": top + _STEP_H + 84}


def word_vectors_context(figure: Figure, pair: tuple[str, str]) -> dict[str, Any]:
    """Figure 5.1: every word as an arrow from the origin, the chosen pair highlighted with
    its angle, and the analogy arrow man -> woman copied to start at king."""
    a, b = pair
    origin = _point(0.0, 0.0)
    arrows = []
    for word in WORDS:
        x, y = POSITIONS[word]
        end = _point(x, y)
        dx, dy = _label_offset(x, y)
        arrows.append({"word": word, "x": end[0], "y": end[1], "lx": end[0] + dx,
                       "ly": end[1] + dy, "chosen": word in (a, b), "px": f"{x:g}", "py": f"{y:g}"})
    king, man, woman = (POSITIONS[w] for w in ANALOGY)
    landing = (king[0] - man[0] + woman[0], king[1] - man[1] + woman[1])
    start, end = _point(*king), _point(*landing)
    step_from, step_to = _point(*man), _point(*woman)
    return {
        "figure": figure, "words": WORDS, "a": a, "b": b, "arrows": arrows,
        "origin": origin, "width": round((_X[1] - _X[0]) * _SCALE),
        "height": round((_Y[1] - _Y[0]) * _SCALE),
        "angle": f"{angle_degrees(a, b):.0f}", "cosine": f"{cosine(a, b):.2f}",
        "analogy": {"x1": start[0], "y1": start[1], "x2": end[0], "y2": end[1],
                    "sx1": step_from[0], "sy1": step_from[1], "sx2": step_to[0],
                    "sy2": step_to[1]},
    }


def _shade(weight: float) -> int:
    """The cell's shade class (0..100) for `weight`: between 72 and 84 neither dark nor white
    text reaches a contrast of 4.5 on the accent blue, so shades there move to the nearer end
    (white text from 84 up)."""
    shade = round(max(0.0, min(1.0, weight)) * 100)
    if 72 < shade < 84:
        return 72 if shade < 78 else 84
    return shade


def alignment_grid_context(figure: Figure, row: int | None) -> dict[str, Any]:
    """Figure 5.6: the weights as a table whose cells are shaded by weight (a class `w-0` ..
    `w-100`, site.css: no style attribute, which the Content-Security-Policy refuses);
    choosing a row (a link, so it works without JavaScript) lists that row's weights."""
    data = figure.data or {}
    source: list[str] = list(data.get("source", []))
    target: list[str] = list(data.get("target", []))
    weights: list[list[float]] = [list(r) for r in data.get("weights", [])]
    rows = []
    for index, (word, values) in enumerate(zip(target, weights, strict=False)):
        weighted = [(s, float(w)) for s, w in zip(source, values, strict=False)]
        cells = [{"word": s, "shown": f"{w:g}", "shade": _shade(w), "dark": _shade(w) >= 84,
                  "zero": w <= 0.0} for s, w in weighted]
        ranked = [cells[i] for i in sorted((i for i, (_, w) in enumerate(weighted) if w > 0),
                                           key=lambda i: -weighted[i][1])]
        rows.append({"index": index, "word": word, "cells": cells, "ranked": ranked,
                     "chosen": index == row})
    return {"figure": figure, "source": source, "rows": rows, "row": row}
