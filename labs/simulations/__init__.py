"""Registry of the pure-numpy lab simulations and validation of their parameters.

Each simulation module exposes ``PARAMS`` (its parameter schema), ``run(params, *, rng,
progress=None) -> dict`` (JSON-serialisable data only) and ``KEY_RESULTS(result)`` (the few
``(label, value)`` strings a page shows). Nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from labs.simulations import (
    attention,
    diagnostic,
    rnn,
    self_attention,
    vanishing_gradient,
    word_vectors,
)
from labs.simulations._common import ParamSchema, clean_params

SIMULATIONS: dict[str, ModuleType] = {
    "vanishing-gradient": vanishing_gradient,
    "rnn": rnn,
    "attention": attention,
    "word-vectors": word_vectors,
    "self-attention": self_attention,
    "diagnostic": diagnostic,
}

#: The simulations content may name; diagnostic workloads are for operators and tests only.
LAB_SIMULATIONS: dict[str, ModuleType] = {
    key: module for key, module in SIMULATIONS.items() if not getattr(module, "DIAGNOSTIC", False)
}


class InvalidParams(ValueError):
    """Parameters that do not fit a simulation's schema; ``errors`` maps name to message."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{name}: {message}" for name, message in errors.items()))


def validate_params(
    key: str, params: Any, schema: ParamSchema | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """Check ``params`` against the schema of simulation ``key``.

    Applies defaults for missing (or None / empty-string) parameters, coerces types (numeric
    strings, whole floats for ints, comma-separated strings for float lists), enforces bounds
    and lengths, refuses unknown names, then runs the simulation's cross-parameter checks
    (``check_params``) when every single parameter is valid. Returns ``(clean, errors)``:
    ``errors`` maps a parameter name (or ``"__all__"``) to a message a student understands,
    e.g. ``"Hidden units must be between 2 and 256"``. ``schema`` (a lab's own schema, the
    simulation's with the lab file's overrides) replaces ``PARAMS`` when given; ``clean`` is
    complete and safe to pass
    to ``run`` only when ``errors`` is empty. Raises KeyError for an unknown simulation key.
    """
    module = SIMULATIONS[key]
    clean, errors = clean_params(schema or module.PARAMS, params)
    check = getattr(module, "check_params", None)
    if not errors and check is not None:
        errors = dict(check(clean))
    return clean, errors


def run_simulation(
    key: str,
    params: Any,
    *,
    rng: np.random.Generator,
    progress: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """Validate ``params`` and run simulation ``key``; raises InvalidParams on bad parameters."""
    clean, errors = validate_params(key, params)
    if errors:
        raise InvalidParams(errors)
    result: dict[str, Any] = SIMULATIONS[key].run(clean, rng=rng, progress=progress)
    return result


__all__ = ["LAB_SIMULATIONS", "SIMULATIONS", "InvalidParams", "run_simulation", "validate_params"]
