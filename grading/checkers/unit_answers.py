"""A unit as the whole answer: "in which unit is acceleration measured?" takes ``m/s^2``.

A quantity part with ``unit_mode = "only"`` asks for a unit without a number (STACK keeps
``m/s`` apart from ``1 m/s``, its NULLNUM; WeBWorK's units answers). The answer is read by
units.py with positions; with ``unit_match = "exact"`` it must be the key's unit in any
spelling (``m·s^-2``, ``metre/sec^2``), with ``"equivalent"`` (the default) any unit of the
same size (``N/kg`` for ``m/s^2``). A unit of the right dimension but another size (``km/h``
for ``m/s``) is told so and earns ``unit_credit``; a number is refused ("the unit alone").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grading.checkers.base import Verdict, feedback, misconception_list
from grading.checkers.mathparse import FormatError
from grading.checkers.units import Unit, describe_dimension, read_unit

__all__ = ["check_unit_only", "read_unit_only", "unit_text_of"]


def unit_text_of(spec: Mapping[str, Any]) -> str:
    """The key's unit (``unit``, ``units``, or the reference itself)."""
    for key in ("unit", "units", "reference"):
        value = spec.get(key)
        if isinstance(value, str) and value.strip():
            return value
    raise ValueError("a unit-only part needs its 'unit'")


def read_unit_only(raw: str, *, declared: list[str], symbols: Mapping[str, str]) -> Unit:
    """The unit the student typed; FormatError (with the position) for a number or an
    unknown unit."""
    text = raw if isinstance(raw, str) else ""
    if not text.strip():
        raise FormatError("empty answer: type a unit, such as m/s", None)
    stripped = text.lstrip()
    if stripped[0].isdigit() or stripped[0] in "+-.":
        position = len(text) - len(stripped) + 1
        raise FormatError(f"type the unit alone, without a number (character {position})",
                          position)
    return read_unit(text, declared=declared, symbols=symbols)


def check_unit_only(unit: Unit, key: Unit, spec: Mapping[str, Any], canonical: str,
                    *, declared: list[str], symbols: Mapping[str, str]) -> Verdict:
    """The verdict of a unit answer against the key's unit."""
    exact = spec.get("unit_match") == "exact"
    same = unit.powers() == key.powers() if exact else (
        unit.dimension == key.dimension and unit.factor == key.factor
        and unit.offset == key.offset)
    if same:
        return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
    for item in misconception_list(spec):
        try:
            target = read_unit(str(item.get("answer")), declared=declared, symbols=symbols)
        except FormatError:
            continue
        if target.powers() == unit.powers() or (target.dimension == unit.dimension
                                                and target.factor == unit.factor):
            return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                           str(item.get("tag")), [], canonical)
    if unit.dimension == key.dimension:
        credit = float(spec.get("unit_credit", 0) or 0)
        message = f"{feedback(spec, False)} This is {describe_dimension(unit.dimension)}, " \
                  f"as asked, but not the unit asked for."
        return Verdict(credit, "partial" if credit > 0 else "incorrect", message, None, [],
                       canonical)
    return Verdict(0.0, "incorrect", f"{feedback(spec, False)} This is "
                   f"{describe_dimension(unit.dimension)}; {describe_dimension(key.dimension)} "
                   f"was expected.", None, [], canonical)
