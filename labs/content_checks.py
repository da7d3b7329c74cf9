"""What content sync asks of labs: does the simulation exist, and is the parameter schema valid."""

import copy
from typing import Any

from labs.simulations import LAB_SIMULATIONS, SIMULATIONS

OVERRIDABLE = ("label", "default", "min", "max", "help")


def lab_problems(simulation: str, overrides: dict[str, Any]) -> list[str]:
    """Problems with a lab's simulation key or its parameter overrides."""
    if simulation not in LAB_SIMULATIONS:
        known = ", ".join(sorted(LAB_SIMULATIONS))
        return [f"unknown simulation '{simulation}' (known: {known})"]
    schema = LAB_SIMULATIONS[simulation].PARAMS
    problems = []
    for name, override in overrides.items():
        if name not in schema:
            problems.append(f"params.{name}: the simulation has no parameter '{name}'")
            continue
        if not isinstance(override, dict):
            problems.append(f"params.{name} must be a table")
            continue
        for key in override:
            if key not in OVERRIDABLE:
                problems.append(f"params.{name}.{key} cannot be overridden")
    return problems


def lab_param_schema(simulation: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """The simulation's parameter schema with the lab file's overrides applied."""
    schema = copy.deepcopy(SIMULATIONS[simulation].PARAMS)
    for name, override in overrides.items():
        schema[name].update(override)
    return schema
