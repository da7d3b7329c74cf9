"""Checks shared by the figure kinds: numbers, labels, lists and known keys in `[data]`.

A check returns `Problem`s: the key path inside `[data]` (for the file's line) and a reason.
Content validation turns them into `file:line: reason`.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: The largest size of a number a figure draws: beyond it the author surely meant something else.
MAX_MAGNITUDE = 1e12
#: The longest label (a row, a column, a bar, a vector, a series or an axis) in characters.
MAX_LABEL = 40
#: Decimal places a value may be shown with.
MAX_DECIMALS = 6


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a figure's `[data]`: where (keys below `data`) and why."""

    keys: tuple[str | int, ...]
    reason: str


def is_number(value: Any) -> bool:
    """Whether `value` is an int or float (TOML's booleans are not numbers here)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def number_problem(value: Any, where: str) -> str | None:
    """Why `value` cannot be drawn as a number (None if it can)."""
    if not is_number(value):
        return f"{where} must be a number, not {type(value).__name__}"
    if not math.isfinite(value):
        return f"{where} must be a finite number, not {value}"
    if abs(value) > MAX_MAGNITUDE:
        return f"{where} must be at most {MAX_MAGNITUDE:g} in size, not {value:g}"
    return None


def numbers_problems(values: Any, keys: tuple[str | int, ...], where: str, *,
                     low: int, high: int) -> list[Problem]:
    """`values` must be a list of `low`..`high` finite numbers (`where` names it in the
    reasons, quoted as the author wrote it: "'values'", "vector 2's 'to'")."""
    if not isinstance(values, list):
        return [Problem(keys, f"{where} must be a list of numbers, not {type(values).__name__}")]
    if not low <= len(values) <= high:
        size = f"exactly {low}" if low == high else f"{low} to {high}"
        return [Problem(keys, f"{where} must hold {size} numbers, not {len(values)}")]
    found = []
    for index, value in enumerate(values):
        problem = number_problem(value, f"{where} item {index + 1}")
        if problem:
            found.append(Problem(keys, problem))
    return found


def labels_problems(labels: Any, keys: tuple[str | int, ...], where: str,
                    count: int | None) -> list[Problem]:
    """`labels` must be a list of short non-empty strings, `count` of them when given."""
    if not isinstance(labels, list):
        return [Problem(keys, f"'{where}' must be a list of strings, not {type(labels).__name__}")]
    found = [Problem(keys, problem) for index, label in enumerate(labels)
             if (problem := label_problem(label, f"'{where}' item {index + 1}"))]
    if count is not None and len(labels) != count:
        found.append(Problem(keys, f"'{where}' has {plural(len(labels), 'label')} for "
                                   f"{plural(count, 'value')}"))
    return found


def label_problem(value: Any, where: str) -> str | None:
    """Why `value` is not a usable label (None if it is)."""
    if not isinstance(value, str):
        return f"{where} must be a string, not {type(value).__name__}"
    if not value.strip():
        return f"{where} must not be empty"
    if len(value) > MAX_LABEL:
        return f"{where} must be at most {MAX_LABEL} characters, not {len(value)}"
    return None


def optional_label(data: Mapping[str, Any], name: str) -> list[Problem]:
    """An optional label field such as an axis title."""
    if name not in data:
        return []
    problem = label_problem(data[name], f"'{name}'")
    return [Problem((name,), problem)] if problem else []


def decimals_problems(data: Mapping[str, Any]) -> list[Problem]:
    """`decimals`, when given, is a whole number 0..MAX_DECIMALS."""
    if "decimals" not in data:
        return []
    value = data["decimals"]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_DECIMALS:
        return [Problem(("decimals",), f"'decimals' must be a whole number from 0 to "
                                       f"{MAX_DECIMALS}, not {value!r}")]
    return []


def flag_problems(data: Mapping[str, Any], name: str) -> list[Problem]:
    """An optional true/false field."""
    if name in data and not isinstance(data[name], bool):
        return [Problem((name,), f"'{name}' must be true or false, not {data[name]!r}")]
    return []


def unknown_problems(data: Mapping[str, Any], known: Iterable[str],
                     keys: tuple[str | int, ...] = ()) -> list[Problem]:
    """Every key of `data` not in `known` (a misspelt key would otherwise be ignored)."""
    allowed = set(known)
    return [Problem((*keys, name), f"unknown field '{name}' (use {', '.join(sorted(allowed))})")
            for name in sorted(set(data) - allowed)]


def tables_problems(data: Mapping[str, Any], name: str, most: int,
                    figure: str) -> list[Problem] | None:
    """Problems of the list of `[[data.<name>]]` tables (1 to `most` of them) of `figure`
    ("an arrows figure"), or None when it is such a list (then check each table)."""
    tables = data.get(name)
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        return [Problem((name,), f"'{name}' must be [[data.{name}]] tables")]
    if not 1 <= len(tables) <= most:
        return [Problem((name,), f"{figure} has 1 to {most} [[data.{name}]], not "
                                 f"{len(tables)}")]
    return None


def required_problems(data: Mapping[str, Any], names: Iterable[str],
                      keys: tuple[str | int, ...] = (), where: str = "[data]") -> list[Problem]:
    """Every name of `names` missing from `data`."""
    return [Problem(keys, f"missing required field '{name}' in {where}")
            for name in names if name not in data]


def plural(count: int, noun: str) -> str:
    """"1 value", "3 values"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def shown(value: float, decimals: int) -> str:
    """`value` with `decimals` places, without a minus sign on a zero."""
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text
