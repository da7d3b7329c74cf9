"""Difficulty guards: what an author declares so that no variant of a part is much harder or
easier than its others, checked by sync over every variant (with the question tests), and
the spread of a part's key over the variants shown in the author preview. Pure Python.

A part's ``difficulty_guard`` table may hold:

* ``key_within = [low, high]``: in every variant the key's magnitude |key| lies in
  [low, high] (a variant whose answer is 1e-7 or 40,000 is not the question the others ask);
* ``key_spread_at_most = r``: over all variants, max |key| / min |key| is at most r;
* ``misconception_margin = m``: in every variant each misconception's value differs from
  the key by more than m relative to |key| (a misconception that lands next to the key makes
  its variant a different question: the wrong idea scores as a near miss).

The guards read the key as a number: a part whose key is not one number (a vector, an
expression in variables) cannot carry them.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import misconception_list
from grading.variant_space import variants_all
from grading.variants import reference_value

__all__ = ["GUARD_KEYS", "KeySpread", "guard_problems_in", "guard_shape_problems",
           "guard_spread_problems", "key_number", "key_spread", "key_spreads"]

GUARD_KEYS = frozenset({"key_within", "key_spread_at_most", "misconception_margin"})


@dataclass(frozen=True)
class KeySpread:
    """A part's key over the variants: how many variants, how many distinct keys, the least,
    median and greatest value, and max |key| / min |key| (None if a key is 0)."""

    variants: int
    distinct: int
    low: float
    median: float
    high: float
    ratio: float | None


def _guard(spec: Mapping[str, Any]) -> Mapping[str, Any]:
    guard = spec.get("difficulty_guard")
    return guard if isinstance(guard, Mapping) else {}


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value) and value > 0


def guard_shape_problems(spec: Mapping[str, Any]) -> list[str]:
    """Problems with the shape of the part's ``difficulty_guard`` (independent of variants)."""
    if "difficulty_guard" not in spec:
        return []
    guard = spec["difficulty_guard"]
    if not isinstance(guard, Mapping):
        return ["'difficulty_guard' must be a table"]
    problems = [f"'difficulty_guard': unknown key '{key}' (known: {', '.join(sorted(GUARD_KEYS))})"
                for key in sorted(set(guard) - GUARD_KEYS)]
    if "key_within" in guard:
        band = guard["key_within"]
        if not (isinstance(band, list) and len(band) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in band)
                and 0 <= band[0] <= band[1]):
            problems.append("'difficulty_guard': 'key_within' must be [low, high] with "
                            "0 <= low <= high")
    if "key_spread_at_most" in guard and not (_positive(guard["key_spread_at_most"])
                                              and guard["key_spread_at_most"] >= 1):
        problems.append("'difficulty_guard': 'key_spread_at_most' must be a number of at least 1")
    if "misconception_margin" in guard and not _positive(guard["misconception_margin"]):
        problems.append("'difficulty_guard': 'misconception_margin' must be a positive number")
    return problems


def _number(expr: str, spec: Mapping[str, Any], params: Mapping[str, Any]) -> float:
    value = reference_value(expr, params, variables=list(spec.get("variables") or []),
                            functions=list(spec.get("functions") or []))
    if isinstance(value, list):
        raise ValueError("it is a list")
    number = complex(value)
    if number.imag != 0 or not math.isfinite(number.real):
        raise ValueError("it is not a finite real number")
    return number.real


def key_number(spec: Mapping[str, Any], params: Mapping[str, Any]) -> float | None:
    """The part's key in this variant as one number; None when it is not one (no reference,
    a list, an expression in variables)."""
    reference = spec.get("reference")
    if not isinstance(reference, str):
        return None
    try:
        return _number(reference, spec, params)
    except (ValueError, TypeError, ArithmeticError):
        return None


def guard_problems_in(spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
    """The per-variant guards the part's key breaks in this variant (``key_within``,
    ``misconception_margin``); [] when the part declares none."""
    guard = _guard(spec)
    if not guard.keys() & {"key_within", "misconception_margin"}:
        return []
    key = key_number(spec, params)
    if key is None:
        return ["'difficulty_guard' needs a key that is one number in every variant"]
    problems = []
    if "key_within" in guard:
        low, high = guard["key_within"]
        if not low <= abs(key) <= high:
            problems.append(f"'difficulty_guard': the key {key:.6g} is outside "
                            f"'key_within' [{low:g}, {high:g}]")
    margin = guard.get("misconception_margin")
    if margin is not None:
        for item in misconception_list(spec):
            try:
                value = _number(str(item.get("answer", "")), spec, params)
            except (ValueError, TypeError, ArithmeticError):
                continue  # a misconception that is not a number: nothing to compare
            if abs(value - key) <= margin * abs(key):
                problems.append(
                    f"'difficulty_guard': misconception '{item.get('tag', '')}' gives "
                    f"{value:.6g}, within {margin:g} of the key {key:.6g}")
    return problems


def key_spread(keys: Iterable[float]) -> KeySpread | None:
    """The spread of a part's key values over its variants (None for no values)."""
    values = list(keys)
    if not values:
        return None
    magnitudes = [abs(v) for v in values]
    smallest = min(magnitudes)
    ratio = max(magnitudes) / smallest if smallest > 0 else None
    distinct = len({float(f"{v:.12g}") for v in values})
    return KeySpread(variants=len(values), distinct=distinct, low=min(values),
                     median=statistics.median(values), high=max(values), ratio=ratio)


def guard_spread_problems(spec: Mapping[str, Any], keys: Iterable[float]) -> list[str]:
    """``key_spread_at_most`` over the key values of all the variants checked."""
    limit = _guard(spec).get("key_spread_at_most")
    if limit is None:
        return []
    spread = key_spread(keys)
    if spread is None:
        return []
    if spread.ratio is None or spread.ratio > limit:
        shown = "unbounded (a key is 0)" if spread.ratio is None else f"{spread.ratio:.3g}"
        return [f"'difficulty_guard': the key ranges from {spread.low:.6g} to {spread.high:.6g} "
                f"over the variants, a spread of {shown}, more than 'key_spread_at_most' "
                f"{limit:g}"]
    return []


def key_spreads(parameters: Mapping[str, Any] | None, derived: Mapping[str, str] | None,
                specs: Mapping[str, Mapping[str, Any]]) -> dict[str, KeySpread]:
    """The spread of each part's key (part key -> spec) over the exercise's variants (all of
    them, or the default and the seeded sample: grading.variant_space), for the parts whose
    key is one number in every variant; {} for an exercise without parameters."""
    if not parameters:
        return {}
    keys: dict[str, list[float]] = {name: [] for name in specs}
    for variant in variants_all(parameters, derived):
        for name in list(keys):
            value = key_number(specs[name], variant.params)
            if value is None:
                del keys[name]  # not one number here: no spread to show
            else:
                keys[name].append(value)
    return {name: spread for name, values in keys.items()
            if (spread := key_spread(values)) is not None}
