"""What content sync asks of labs: does the simulation exist, and do the lab file's parameter
overrides stay inside what the simulation itself allows.

A lab file may relabel a parameter, change its default and narrow its range; it can never
widen the range beyond the simulation's own limits (its PARAMS), which protect the workers
(`units = 100000` would ask a worker for tens of gigabytes). The worker re-checks the
simulation's limits before it runs anything (labs/services.py).
"""

import copy
import math
from typing import Any

from labs.simulations import LAB_SIMULATIONS, SIMULATIONS

OVERRIDABLE = ("label", "default", "min", "max", "help")
_TEXT_KEYS = ("label", "help")


def lab_problems(simulation: str, overrides: dict[str, Any]) -> list[str]:
    """Problems with a lab's simulation key or its parameter overrides (types, and ranges
    that must stay within the simulation's own)."""
    if simulation not in LAB_SIMULATIONS:
        known = ", ".join(sorted(LAB_SIMULATIONS))
        return [f"unknown simulation '{simulation}' (known: {known})"]
    if not isinstance(overrides, dict):
        return ["params must be a table of parameter tables"]
    schema = LAB_SIMULATIONS[simulation].PARAMS
    problems = []
    for name, override in overrides.items():
        if name not in schema:
            problems.append(f"params.{name}: the simulation has no parameter '{name}'")
            continue
        if not isinstance(override, dict):
            problems.append(f"params.{name} must be a table")
            continue
        unknown = [key for key in override if key not in OVERRIDABLE]
        problems += [f"params.{name}.{key} cannot be overridden" for key in unknown]
        if not unknown:
            problems += _override_problems(name, schema[name], override)
    return problems


def _is_number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(float(value)))


def _override_problems(name: str, own: dict[str, Any], override: dict[str, Any]) -> list[str]:
    where = f"params.{name}"
    problems = [f"{where}.{key} must be text" for key in _TEXT_KEYS
                if key in override and not isinstance(override[key], str)]
    kind = own["type"]
    if kind == "choice":
        problems += [f"{where}.{key}: a choice has no range" for key in ("min", "max")
                     if key in override]
        if "default" in override and override["default"] not in own["options"]:
            problems.append(f"{where}.default must be one of {', '.join(own['options'])}")
        return problems
    for key in ("min", "max"):
        if key not in override:
            continue
        value = override[key]
        if not _is_number(value) or (kind == "int" and not float(value).is_integer()):
            problems.append(f"{where}.{key} must be a {'whole ' if kind == 'int' else ''}number")
        elif not own["min"] <= value <= own["max"]:
            problems.append(f"{where}.{key} = {value:g} is outside the simulation's own limits "
                            f"({own['min']:g} to {own['max']:g}); a lab may only narrow them")
    if problems:
        return problems
    low, high = override.get("min", own["min"]), override.get("max", own["max"])
    if low > high:
        return [f"{where}: min ({low:g}) is above max ({high:g})"]
    if "default" in override:
        problems += _default_problems(where, kind, own, override["default"], low, high)
    elif not _within(own["default"], low, high):
        problems.append(f"{where}: the simulation's default lies outside the narrowed range "
                        f"{low:g} to {high:g}; give a default")
    return problems


def _within(value: Any, low: float, high: float) -> bool:
    values = value if isinstance(value, list) else [value]
    return all(low <= item <= high for item in values)


def _default_problems(where: str, kind: str, own: dict[str, Any], default: Any, low: float,
                      high: float) -> list[str]:
    if kind == "float_list":
        if not isinstance(default, list) or not all(_is_number(v) for v in default):
            return [f"{where}.default must be a list of numbers"]
        length = own.get("length")
        if length is not None and len(default) != length:
            return [f"{where}.default must hold exactly {length} numbers"]
        lengths = (own.get("min_length", 0), own.get("max_length", math.inf))
        if not lengths[0] <= len(default) <= lengths[1]:
            return [f"{where}.default must hold between {lengths[0]} and {lengths[1]} numbers"]
    elif not _is_number(default) or (kind == "int" and not float(default).is_integer()):
        return [f"{where}.default must be a {'whole ' if kind == 'int' else ''}number"]
    if not _within(default, low, high):
        return [f"{where}.default lies outside {low:g} to {high:g}"]
    return []


def lab_param_schema(simulation: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """The simulation's parameter schema with the lab file's (validated) overrides applied."""
    schema = copy.deepcopy(SIMULATIONS[simulation].PARAMS)
    for name, override in overrides.items():
        schema[name].update(override)
    return schema
