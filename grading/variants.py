"""Seeded variant parameters, reference values computed from them, and prompt rendering.

Pure Python (no Django). A variant is a dict of parameter values (numbers, or lists of
numbers) drawn deterministically from a seed; seed None gives the default variant, which
reproduces the module's own numbers. Derived parameters and references are computed exactly
with sympy from the safe parser's AST: 1 - 0.1 - 0.6 - 0.2 is exactly 0.1.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from grading.checkers.mathparse import normalize_name
from grading.checkers.refs import parse_reference, reference_sympy

__all__ = [
    "format_value",
    "prompt_names",
    "reference_value",
    "render_prompt",
    "seed_for",
    "validate_parameters",
    "variant_drawer",
    "variant_params",
]

PARAMETER_KEYS = frozenset(
    {"default", "choices", "min", "max", "step", "label", "description", "type", "unit"}
)
MAX_GRID_POINTS = 1_000_000
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def seed_for(course_id: object, exercise_uuid: object, student_id: object) -> int:
    """A deterministic 63-bit seed for one student's variant of one exercise."""
    text = f"{course_id}:{exercise_uuid}:{student_id}".encode()
    digest = hashlib.sha256(text).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_value(value: object) -> bool:
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        # a matrix: a list of rows of numbers, all of one length
        return len({len(row) for row in value}) == 1 and all(_is_value(row) for row in value)
    if isinstance(value, list):
        return bool(value) and all(_is_number(v) for v in value)
    return _is_number(value)


def _grid(spec: Mapping[str, Any]) -> list[int | float]:
    low, high = spec["min"], spec["max"]
    step = spec.get("step")
    whole = all(isinstance(v, int) for v in (low, high, step if step is not None else 1))
    if step is None:
        if not whole:
            raise ValueError("a float range needs a 'step'")
        step = 1
    lo, hi, st = (Fraction(repr(v)) if isinstance(v, float) else Fraction(v)
                  for v in (low, high, step))
    if st <= 0 or hi < lo:
        raise ValueError("'min' must not exceed 'max', and 'step' must be positive")
    count = math.floor((hi - lo) / st) + 1
    if count > MAX_GRID_POINTS:
        raise ValueError(f"the grid has more than {MAX_GRID_POINTS} values")
    if whole:  # the same integers without a Fraction each (a large grid took ~0.1 s a draw)
        return list(range(int(lo), int(lo) + count * int(st), int(st)))
    return [float(lo + k * st) for k in range(count)]


def variant_drawer(
    parameters: Mapping[str, Mapping[str, Any]] | None,
) -> Callable[[int | None], dict[str, Any]]:
    """A function of the seed giving the drawn (not derived) parameters of that variant,
    equal to ``variant_params(parameters, None, seed)``: the definitions are validated and
    the grids built once, so pages that place many students in their variants pay only the
    draws. Raises ValueError for invalid definitions (at once, not on the first call)."""
    parameters = parameters or {}
    problems = validate_parameters(parameters, None)
    if problems:
        raise ValueError("; ".join(problems))
    return _drawer(parameters)


def _drawer(parameters: Mapping[str, Mapping[str, Any]]) -> Callable[[int | None], dict[str, Any]]:
    """`variant_drawer` for definitions already validated (the one place draws are made)."""
    names = sorted(parameters)
    defaults = {name: parameters[name]["default"] for name in names}
    # What each parameter is drawn from: its choices, its grid, or nothing (its default).
    pools: list[tuple[str, list[Any] | None]] = []
    for name in names:
        spec = parameters[name]
        if "choices" in spec:
            pools.append((name, list(spec["choices"])))
        elif "min" in spec and "max" in spec:
            pools.append((name, _grid(spec)))
        else:
            pools.append((name, None))

    def draw(seed: int | None) -> dict[str, Any]:
        if seed is None:
            values = dict(defaults)
        else:
            rng = np.random.default_rng(seed)
            values = {name: pool[int(rng.integers(len(pool)))] if pool is not None
                      else defaults[name] for name, pool in pools}
        return {name: list(v) if isinstance(v, list) else v for name, v in values.items()}
    return draw


def variant_params(
    parameters: Mapping[str, Mapping[str, Any]] | None,
    derived: Mapping[str, str] | None = None,
    seed: int | None = None,
) -> dict[str, Any]:
    """The parameter values of one variant: defaults for seed None, else seeded draws.

    Parameters are drawn in sorted name order from one ``numpy.random.default_rng(seed)``,
    each from its ``choices`` or its ``min``/``max``/``step`` grid (a parameter with neither
    keeps its default and draws nothing). Derived parameters are then computed exactly.
    Raises ValueError for invalid definitions.
    """
    parameters = parameters or {}
    problems = validate_parameters(parameters, derived)
    if problems:
        raise ValueError("; ".join(problems))
    values = _drawer(parameters)(seed)
    for name in _derived_order(parameters, derived or {}):
        values[name] = _plain(reference_sympy((derived or {})[name], values))
    return values


def _derived_order(parameters: Mapping[str, Any], derived: Mapping[str, str]) -> list[str]:
    """Derived names in an order where each comes after what it uses (ValueError on cycles)."""
    known = set(parameters) | set(derived)
    needs = {}
    for name, text in derived.items():
        expr = parse_reference(text, dict.fromkeys(known, 0))
        needs[name] = set(expr.free_variables) & set(derived)
    order: list[str] = []
    done: set[str] = set()
    while len(order) < len(derived):
        ready = sorted(n for n in derived if n not in done and needs[n] <= done)
        if not ready:
            cycle = ", ".join(sorted(set(derived) - done))
            raise ValueError(f"derived parameters depend on each other in a cycle: {cycle}")
        order.extend(ready)
        done.update(ready)
    return order


def _plain(value: Any) -> Any:
    """An exact sympy number as int (whole) or float (the nearest double)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, sympy.Integer):
        return int(value)
    if isinstance(value, sympy.Rational):
        return float(Fraction(int(value.p), int(value.q)))
    number = complex(sympy.N(value, 30))
    if number.imag != 0 or not math.isfinite(number.real):
        raise ValueError(f"a derived parameter is not a finite real number ({value})")
    return number.real


def validate_parameters(parameters: Mapping[str, Any] | None,
                        derived: Mapping[str, Any] | None = None) -> list[str]:
    """Problems with an exercise's ``[parameters]`` and ``[derived]`` tables."""
    problems: list[str] = []
    parameters = parameters or {}
    derived = derived or {}
    if not isinstance(parameters, Mapping):
        return ["'parameters' must be a table of tables"]
    for name, spec in parameters.items():
        where = f"parameter '{name}'"
        try:
            if normalize_name(name) != name:
                problems.append(f"{where}: use the ASCII name '{normalize_name(name)}'")
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
        if not isinstance(spec, Mapping):
            problems.append(f"{where} must be a table")
            continue
        for key in sorted(set(spec) - PARAMETER_KEYS):
            problems.append(f"{where}: unknown key '{key}'")
        if "default" not in spec:
            problems.append(f"{where} needs a 'default'")
        elif not _is_value(spec["default"]):
            problems.append(f"{where}: 'default' must be a number, a list of numbers or a "
                            "matrix (a list of rows)")
        if "choices" in spec:
            choices = spec["choices"]
            if not isinstance(choices, list) or not choices or \
                    not all(_is_value(c) for c in choices):
                problems.append(f"{where}: 'choices' must be a non-empty list of values")
        elif "min" in spec or "max" in spec:
            if not all(_is_number(spec.get(k)) for k in ("min", "max")) or (
                "step" in spec and not _is_number(spec["step"])
            ):
                problems.append(f"{where}: 'min', 'max' (and 'step') must be numbers")
            else:
                try:
                    _grid(spec)
                except ValueError as exc:
                    problems.append(f"{where}: {exc}")
    if not isinstance(derived, Mapping):
        return [*problems, "'derived' must be a table of expressions"]
    for name, text in derived.items():
        if name in parameters:
            problems.append(f"derived '{name}' has the name of a parameter")
        if not isinstance(text, str):
            problems.append(f"derived '{name}' must be an expression string")
            continue
        try:
            expr = parse_reference(text, dict.fromkeys([*parameters, *derived], 0))
        except ValueError as exc:
            problems.append(f"derived '{name}': {exc}")
            continue
        if name in expr.free_variables:
            problems.append(f"derived '{name}' uses itself")
    if not problems and derived:
        try:
            _derived_order(parameters, derived)
        except ValueError as exc:
            problems.append(str(exc))
    return problems


def reference_value(
    expr: str,
    params: Mapping[str, Any],
    *,
    variables: Sequence[str] = (),
    functions: Sequence[str] = (),
) -> Any:
    """The exact value of an author's expression in one variant, as a sympy object.

    A number when only parameters appear (``sympy.Rational`` when rational, so
    ``float(...)`` gives the nearest double); a sympy expression in ``variables`` otherwise;
    a list for list-valued expressions. List parameters support ``dot(a, b)``, ``sum(a)``,
    ``mean(a)``, ``len(a)`` and elementwise ``abs``/arithmetic. Raises ValueError if the
    expression is invalid.
    """
    return reference_sympy(expr, params, variables=variables, functions=functions)


def format_value(value: Any, *, math_mode: bool = False) -> str:
    """A parameter value for a prompt: 0.85, 40, 1,000, -1, [0.1, 0.6, 0.2, 0.1].

    Whole numbers of 1,000 and more get a thousands comma (``1{,}000`` inside LaTeX maths);
    floats are written as their shortest decimal, never in binary noise.
    """
    if isinstance(value, list | tuple):
        return "[" + ", ".join(format_value(v, math_mode=math_mode) for v in value) + "]"
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction | Decimal):
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    if isinstance(value, Fraction | Decimal):
        value = float(value)
    if isinstance(value, int):
        text = f"{value:,}" if abs(value) >= 1000 else str(value)
        return text.replace(",", "{,}") if math_mode else text
    if not math.isfinite(value):
        return str(value)
    if 1e-6 <= abs(value) < 1e15:
        return format(Decimal(repr(value)), "f")
    mantissa, _, exponent = repr(value).partition("e")
    power = int(exponent or 0)
    shortest = mantissa.removesuffix(".0")
    if math_mode:
        return rf"{shortest} \times 10^{{{power}}}"
    return f"{shortest}e{power}"


def prompt_names(template: str) -> set[str]:
    """The parameter names a prompt template uses."""
    return set(_PLACEHOLDER.findall(template))


def render_prompt(template: str, params: Mapping[str, Any]) -> str:
    """Replace ``{{ name }}`` with the parameter's value; ValueError for an unknown name.

    A placeholder between ``$`` signs (inline LaTeX maths) is formatted for LaTeX.
    """
    missing = sorted(prompt_names(template) - set(params))
    if missing:
        raise ValueError(f"the prompt uses unknown parameters: {', '.join(missing)}")
    pieces: list[str] = []
    last = 0
    for match in _PLACEHOLDER.finditer(template):
        before = template[last:match.start()]
        pieces.append(before)
        in_math = _dollars(template[:match.start()]) % 2 == 1
        pieces.append(format_value(params[match.group(1)], math_mode=in_math))
        last = match.end()
    pieces.append(template[last:])
    return "".join(pieces)


def _dollars(text: str) -> int:
    """Count unescaped ``$`` signs (``$$`` counts as two, which keeps the parity right)."""
    return len(re.findall(r"(?<!\\)\$", text))
