"""Every variant of an exercise, numbered, so authors and sync can name one: variant 0 is the
module's own numbers (the defaults); variants 1..N are the others.

A parameter space of at most ``EXHAUSTIVE_LIMIT`` combinations is listed completely: variant
k (k >= 1) is the k-th combination of the parameters' pools (each its ``choices`` or its
``min``/``max``/``step`` grid), taken in sorted name order with the last name varying fastest,
as ``itertools.product`` does. A larger space is sampled deterministically: variant k is the
draw of seed k (``variant_params(..., seed=k)``) for k = 1..``SAMPLE_SIZE``. Pure Python.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from grading.variants import _grid, format_value, validate_parameters, variant_params

__all__ = ["EXHAUSTIVE_LIMIT", "SAMPLE_SIZE", "NumberedVariant", "variant_count",
           "variant_numbered", "variants_all"]

#: A space of at most this many combinations is checked in every variant.
EXHAUSTIVE_LIMIT = 200
#: How many seeded draws stand for a larger space (variants 1..SAMPLE_SIZE).
SAMPLE_SIZE = 200


@dataclass(frozen=True)
class NumberedVariant:
    """One variant: its number, whether the space was listed completely, its values."""

    number: int
    params: dict[str, Any]
    drawn: tuple[str, ...]  # the names of the drawn (not derived) parameters

    def describe(self) -> str:
        """"variant 3 (sigma=0.8, steps=30)": how sync and check_answers name it."""
        values = ", ".join(f"{n}={format_value(self.params[n])}" for n in self.drawn)
        return f"variant {self.number}" + (f" ({values})" if values else "")


def _pools(parameters: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, list[Any]]]:
    pools = []
    for name in sorted(parameters):
        spec = parameters[name]
        if "choices" in spec:
            pools.append((name, list(spec["choices"])))
        elif "min" in spec and "max" in spec:
            pools.append((name, _grid(spec)))
        else:
            pools.append((name, [spec["default"]]))
    return pools


def variant_count(parameters: Mapping[str, Any] | None) -> tuple[int, bool]:
    """(how many variants besides the default are numbered, whether that is every one).

    Raises ValueError for invalid definitions."""
    parameters = parameters or {}
    problems = validate_parameters(parameters, None)
    if problems:
        raise ValueError("; ".join(problems))
    size = math.prod(len(pool) for _, pool in _pools(parameters)) if parameters else 0
    if size <= EXHAUSTIVE_LIMIT:
        return size, True
    return SAMPLE_SIZE, False


def variant_numbered(parameters: Mapping[str, Any] | None, derived: Mapping[str, str] | None,
                     number: int) -> NumberedVariant:
    """Variant `number` (0: the defaults); ValueError if there is no such variant."""
    parameters = parameters or {}
    count, exhaustive = variant_count(parameters)
    if number < 0 or number > count:
        raise ValueError(f"there is no variant {number} (variants 0 to {count})")
    names = tuple(sorted(parameters))
    if number == 0:
        return NumberedVariant(0, variant_params(parameters, derived, None), names)
    if not exhaustive:
        return NumberedVariant(number, variant_params(parameters, derived, number), names)
    combo = _combination(_pools(parameters), number - 1)
    overrides = {name: {"default": value} for name, value in combo.items()}
    return NumberedVariant(number, variant_params(overrides, derived, None), names)


def _combination(pools: list[tuple[str, list[Any]]], index: int) -> dict[str, Any]:
    """The `index`-th (0-based) combination of `pools` in itertools.product order."""
    values: dict[str, Any] = {}
    for name, pool in reversed(pools):
        index, position = divmod(index, len(pool))
        value = pool[position]
        values[name] = list(value) if isinstance(value, list) else value
    return values


def variants_all(parameters: Mapping[str, Any] | None,
                 derived: Mapping[str, str] | None) -> Iterator[NumberedVariant]:
    """Variant 0 and then every numbered variant, in order (see the module docstring)."""
    parameters = parameters or {}
    count, exhaustive = variant_count(parameters)
    yield variant_numbered(parameters, derived, 0)
    if count == 0:
        return
    names = tuple(sorted(parameters))
    if not exhaustive:  # variant_numbered's sampled case, without validating again each time
        for number in range(1, count + 1):
            yield NumberedVariant(number, variant_params(parameters, derived, number), names)
        return
    pools = _pools(parameters)
    for number, combo in enumerate(itertools.product(*(pool for _, pool in pools)), start=1):
        overrides = {n: {"default": list(v) if isinstance(v, list) else v}
                     for n, v in zip(names, combo, strict=True)}
        yield NumberedVariant(number, variant_params(overrides, derived, None), names)
