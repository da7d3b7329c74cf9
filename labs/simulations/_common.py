"""Shared helpers of the lab simulations: parameter validation, JSON-safe numbers, formatting."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

ParamSchema = dict[str, dict[str, Any]]
Progress = Callable[[float], None] | None

#: Largest magnitude a result reports; anything beyond is clamped to it (JSON has no inf).
MAX_REPORTED = 1e300

_LIST_SPLIT = re.compile(r"[\s,;]+")


def fmt(value: float | None, digits: int = 3) -> str:
    """Format a number for a page with ``digits`` significant figures ("-" for None)."""
    if value is None:
        return "-"
    return f"{value:.{digits}g}"


def defaults(schema: ParamSchema) -> dict[str, Any]:
    """The default value of every parameter of ``schema`` (lists copied)."""
    return {
        name: list(spec["default"]) if isinstance(spec["default"], list) else spec["default"]
        for name, spec in schema.items()
    }


def with_defaults(schema: ParamSchema, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` completed with the defaults of the parameters it does not mention."""
    merged = defaults(schema)
    merged.update(params)
    return merged


def _bounds_message(spec: Mapping[str, Any], what: str) -> str:
    return f"{what} must be between {fmt(spec['min'], 6)} and {fmt(spec['max'], 6)}"


def _lower_first(label: str) -> str:
    """Lower-case a label's first letter ("Attention weights"), not an acronym ("RNN")."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label


def _to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise TypeError
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        number = float(value.strip())
    else:
        raise TypeError
    if not math.isfinite(number):
        raise ValueError
    return number


def _clean_int(value: Any, spec: Mapping[str, Any]) -> tuple[int | None, str | None]:
    label = spec["label"]
    try:
        number = _to_float(value)
    except (TypeError, ValueError, OverflowError):
        return None, f"{label} must be a whole number"
    if not number.is_integer():
        return None, f"{label} must be a whole number"
    result = int(number)
    if not spec["min"] <= result <= spec["max"]:
        return None, _bounds_message(spec, label)
    return result, None


def _clean_float(value: Any, spec: Mapping[str, Any]) -> tuple[float | None, str | None]:
    label = spec["label"]
    try:
        number = _to_float(value)
    except (TypeError, ValueError, OverflowError):
        return None, f"{label} must be a finite number"
    if not spec["min"] <= number <= spec["max"]:
        return None, _bounds_message(spec, label)
    return number, None


def _clean_float_list(value: Any, spec: Mapping[str, Any]) -> tuple[list[float] | None, str | None]:
    label = spec["label"]
    if isinstance(value, str):
        text = value.strip().strip("[]()").strip()
        items: Sequence[Any] = [part for part in _LIST_SPLIT.split(text) if part]
    elif isinstance(value, list | tuple):
        items = value
    else:
        return None, f"{label} must be a list of numbers"
    numbers: list[float] = []
    for position, item in enumerate(items, start=1):
        try:
            numbers.append(_to_float(item))
        except (TypeError, ValueError, OverflowError):
            return None, f"{label}: value {position} ({item!r}) is not a finite number"
    if "length" in spec and len(numbers) != spec["length"]:
        return None, f"{label}: give exactly {spec['length']} numbers (got {len(numbers)})"
    low, high = spec.get("min_length", 0), spec.get("max_length", math.inf)
    if not low <= len(numbers) <= high:
        return None, f"{label}: give between {low} and {high} numbers (got {len(numbers)})"
    for position, number in enumerate(numbers, start=1):
        if not spec["min"] <= number <= spec["max"]:
            what = f"Each of the {_lower_first(label)}"
            return None, f"{_bounds_message(spec, what)} (value {position} is {fmt(number, 6)})"
    return numbers, None


def _clean_choice(value: Any, spec: Mapping[str, Any]) -> tuple[Any, str | None]:
    options = spec["options"]
    if isinstance(value, str) and value in options:
        return value, None
    listed = ", ".join(repr(option) for option in options)
    return None, f"{spec['label']} must be one of: {listed}"


_CLEANERS: dict[str, Callable[[Any, Mapping[str, Any]], tuple[Any, str | None]]] = {
    "int": _clean_int,
    "float": _clean_float,
    "float_list": _clean_float_list,
    "choice": _clean_choice,
}


def clean_params(schema: ParamSchema, params: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """Apply defaults, coerce types and enforce bounds of ``params`` against ``schema``.

    Returns ``(clean, errors)``; ``errors`` maps a parameter name (or ``"__all__"``) to a
    message a student understands. ``clean`` is complete only when ``errors`` is empty.
    """
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        return {}, {"__all__": "Parameters must be given as name/value pairs"}
    errors: dict[str, str] = {}
    for name in params:
        if name not in schema:
            known = ", ".join(schema)
            errors[str(name)] = f"Unknown parameter '{name}'; this lab takes: {known}"
    clean: dict[str, Any] = {}
    for name, spec in schema.items():
        if name not in params or params[name] is None or params[name] == "":
            default = spec["default"]
            clean[name] = list(default) if isinstance(default, list) else default
            continue
        value, error = _CLEANERS[spec["type"]](params[name], spec)
        if error is None:
            clean[name] = value
        else:
            errors[name] = error
    return clean, errors
