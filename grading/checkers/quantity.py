# ruff: noqa: RUF001, RUF002 - unit symbols (µ, Ω, °, ·) are the point here
"""Quantities with units: ``3.2 m/s``, ``3.2 m·s^-1``, ``3200 mm/s``, ``9.81 N/kg``.

The number is read by the safe maths reader (any numeric expression, ``1.5×10^3``), the unit
by units.py (our grammar, names looked up in pint). Both sides are converted to root units
exactly and compared with the numeric tolerances, expressed in the reference's unit. A unit of
another dimension is wrong with a message saying what each is ("this is a time; an energy was
expected"). Authors choose whether a unit is required, optional or forbidden, whether any
equivalent unit or exactly theirs is accepted, and the credit for a right number with a wrong
unit (and for the right dimension with a wrong number).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    is_number,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import Expr, FormatError, parse
from grading.checkers.mathparse import functions as registry
from grading.checkers.numeric import (
    TOLERANCE_KEYS,
    WRITTEN_KEYS,
    Tolerance,
    _decimal_text,
    check_written,
    format_value,
    read_plain_number,
    validate_tolerance,
    validate_written,
    written_text,
)
from grading.checkers.refs import Number, answer_number, reference_number
from grading.checkers.unit_answers import check_unit_only, read_unit_only, unit_text_of
from grading.checkers.unit_expressions import read_unit_product
from grading.checkers.units import SYMBOL_CHOICES, Unit, describe_dimension, read_unit

__all__ = ["QuantityAnswer", "QuantityChecker", "split_quantity"]

UNIT_MODES = ("required", "optional", "forbidden", "only")
UNIT_MATCHES = ("equivalent", "exact")
QUANTITY_KEYS = frozenset({"unit", "units", "unit_mode", "unit_match", "magnitude_credit",
                           "unit_credit", "declare_units", "unit_symbols"})
MAX_QUANTITY_LENGTH = 300
_EXPONENT = re.compile(r"[eE][+\-−]?\d")
_UNIT_START = re.compile(r"[^\W\d_]|[µμ\u2126\u03a9°℃℉%]")
_WORD = re.compile(r"[^\W\d_]+")


def split_quantity(raw: str, names: frozenset[str] = frozenset()) -> tuple[str, str, int]:
    """(number text, unit text, 0-based offset of the unit): the unit begins at the first
    letter (or µ, Ω, °, %) outside brackets that is not part of the number: an exponent
    (``1.5e3``), ``x10^`` (``1.5x10^3``), ``pi``/``π``, or a function applied with brackets
    (``sqrt(2) m``), or one of ``names`` (an author's parameters in a reference)."""
    depth = 0
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and _UNIT_START.match(ch):
            word = _WORD.match(raw, i)
            text = word.group(0) if word else ch
            end = i + len(text)
            after = raw[end:end + 1]
            previous = raw[:i].rstrip()[-1:] if raw[:i].strip() else ""
            if ch in "eE" and i > 0 and (raw[i - 1].isdigit() or raw[i - 1] == ".") \
                    and _EXPONENT.match(raw, i):
                i += 1
                continue
            if text in ("x", "X") and previous.isdigit() and raw[end:].lstrip().startswith("10"):
                i = end
                continue
            if text.startswith(("x10", "X10")) and previous.isdigit():
                i += 1
                continue
            if text.lower() in ("pi", "π") or text in names:
                i = end
                continue
            if registry.lookup(text) is not None and after == "(":
                i = end
                continue
            return raw[:i], raw[i:], i
        i += 1
    return raw, "", n


@dataclass(frozen=True)
class QuantityAnswer(Answer):
    """The number (a constant expression) and its unit (None when none was typed)."""

    expr: Expr | None = None
    value: Number | None = None
    unit: Unit | None = None


def _declared(spec: Mapping[str, Any]) -> list[str]:
    value = spec.get("declare_units") or []
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]


def _symbols(spec: Mapping[str, Any]) -> dict[str, str]:
    value = spec.get("unit_symbols") or {}
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, Mapping) else {}


def _reference_unit_text(spec: Mapping[str, Any]) -> str | None:
    unit = spec.get("unit", spec.get("units"))
    return unit if isinstance(unit, str) and unit.strip() else None


def _mode(spec: Mapping[str, Any]) -> str:
    mode = spec.get("unit_mode", "required")
    return mode if mode in UNIT_MODES else "required"


class QuantityChecker(Checker[QuantityAnswer]):
    """A number with a unit, compared after conversion (see the module docstring)."""

    type_name = "quantity"
    spec_keys = frozenset({*TOLERANCE_KEYS, *WRITTEN_KEYS, *QUANTITY_KEYS})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> QuantityAnswer:
        raw = raw if isinstance(raw, str) else ""
        if len(raw) > MAX_QUANTITY_LENGTH:
            raise FormatError(f"the answer is too long (at most {MAX_QUANTITY_LENGTH} "
                              f"characters)", None)
        if _mode(spec) == "only":  # a unit without a number (unit_answers.py)
            unit = read_unit_only(raw, declared=_declared(spec), symbols=_symbols(spec))
            return QuantityAnswer(raw=raw, canonical=unit.text, latex=unit.latex(), unit=unit)
        try:
            return self._parse_split(raw, spec)
        except FormatError as exc:
            product = read_unit_product(raw, declared=_declared(spec), symbols=_symbols(spec))
            if product is None:
                raise exc from None
        expr, unit = product
        if _mode(spec) == "forbidden":
            letter = _UNIT_START.search(raw)  # where the first unit name starts
            at = letter.start() + 1 if letter else 1
            raise FormatError(f"type only the number: the unit is given (character {at})", at)
        return self._answer(raw, expr, unit, spec)

    def _parse_split(self, raw: str, spec: Mapping[str, Any]) -> QuantityAnswer:
        """The usual reading: a number, then its unit."""
        number_text, unit_text, unit_at = split_quantity(raw)
        stripped = number_text.rstrip()
        while stripped and stripped[-1] in "*·⋅×":  # "3.2 * m/s": the sign before the unit
            stripped = stripped[:-1].rstrip()
        if not stripped.strip():
            if unit_text.strip():
                raise FormatError("type the number before the unit (as in 3.2 m/s)", 1)
            raise FormatError("empty answer", None)
        expr = parse(read_plain_number(stripped), variables=names_of(spec, "variables"))
        if expr.free_variables:
            raise FormatError("the number must be a value, not an expression with names",
                              None)
        mode = _mode(spec)
        unit = None
        if unit_text.strip():
            if mode == "forbidden":
                raise FormatError("type only the number: the unit is given", unit_at + 1)
            unit = read_unit(unit_text, offset=unit_at, declared=_declared(spec),
                             symbols=_symbols(spec))
        return self._answer(raw, expr, unit, spec)

    def _answer(self, raw: str, expr: Expr, unit: Unit | None,
                spec: Mapping[str, Any]) -> QuantityAnswer:
        check_written(expr, spec)
        value = answer_number(expr, {})
        if not value.is_finite:
            raise FormatError("this has no finite value (a division by zero, or the log or "
                              "square root of a negative number?)", None)
        if unit is None and _mode(spec) == "required":
            raise FormatError("a unit is needed after the number (as in 3.2 m/s)", None)
        number = expr.to_text()
        formatted = format_value(value)
        shown = number if formatted == number else f"{number} ≈ {formatted}"
        canonical = f"{shown} {unit.text}" if unit is not None else shown
        latex = expr.to_latex() + (r"\," + unit.latex() if unit is not None else "")
        return QuantityAnswer(raw=raw, canonical=canonical, latex=latex, expr=expr,
                              value=value, unit=unit)

    def _reference(self, spec: Mapping[str, Any],
                   params: Mapping[str, Any]) -> tuple[Number, Unit | None]:
        return _quantity_of(spec["reference"], _reference_unit_text(spec), params,
                            _declared(spec), _symbols(spec))

    def check(self, answer: QuantityAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        if _mode(spec) == "only" and answer.unit is not None:
            key = read_unit(unit_text_of(spec), declared=_declared(spec), symbols=_symbols(spec))
            return check_unit_only(answer.unit, key, spec, answer.canonical,
                                   declared=_declared(spec), symbols=_symbols(spec))
        assert answer.value is not None  # noqa: S101 - always set by parse
        reference, ref_unit = self._reference(spec, params)
        tolerance = Tolerance.from_spec(spec)
        canonical = answer.canonical
        unit = answer.unit or ref_unit
        magnitude_credit = float(spec.get("magnitude_credit", 0) or 0)
        unit_credit = float(spec.get("unit_credit", 0) or 0)
        if unit is not None and ref_unit is not None and unit.dimension != ref_unit.dimension:
            number_right = tolerance.accepts(answer.value, reference)
            message = (f"This is {describe_dimension(unit.dimension)}; "
                       f"{describe_dimension(ref_unit.dimension)} was expected.")
            item = self._misconception(answer, spec, params, tolerance)
            if item is not None:
                return item
            if number_right and magnitude_credit > 0:
                return Verdict(magnitude_credit, "partial", f"{message} The number is right.",
                               None, ["number"], canonical)
            return Verdict(0.0, "incorrect", f"{feedback(spec, False)} {message}", None, [],
                           canonical)
        converted = _in_unit(answer.value, unit, ref_unit)
        right = tolerance.accepts(converted, reference)
        exact_wanted = spec.get("unit_match") == "exact" and answer.unit is not None \
            and ref_unit is not None and not _same_unit(answer.unit, ref_unit)
        if right and not exact_wanted:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
        if right:  # the right quantity in another unit, where the author wants theirs
            item = self._misconception(answer, spec, params, tolerance, same_unit=True)
            if item is not None:
                return item
            message = f"Give the answer in {ref_unit.text if ref_unit else 'the unit asked for'}."
            score = magnitude_credit
            return Verdict(score, "partial" if score > 0 else "incorrect",
                           f"{feedback(spec, False)} {message}", None, [], canonical)
        item = self._misconception(answer, spec, params, tolerance)
        if item is not None:
            return item
        if answer.unit is not None and ref_unit is not None \
                and tolerance.accepts(answer.value, reference) and magnitude_credit > 0:
            return Verdict(magnitude_credit, "partial", f"{feedback(spec, False)} The number "
                           f"is right for {ref_unit.text}, but the unit is not.", None,
                           ["number"], canonical)
        message = _hint(spec, converted, reference, tolerance)
        if unit_credit > 0 and answer.unit is not None:
            return Verdict(unit_credit, "partial", f"{message} The unit is right.", None,
                           ["unit"], canonical)
        return Verdict(0.0, "incorrect", message, None, [], canonical)

    def _misconception(self, answer: QuantityAnswer, spec: Mapping[str, Any],
                       params: Mapping[str, Any], tolerance: Tolerance,
                       same_unit: bool = False) -> Verdict | None:
        """The anticipated wrong answer this one matches (``same_unit``: only those written
        in the answer's own unit, for an author who wants exactly their unit)."""
        assert answer.value is not None  # noqa: S101 - always set by parse
        default_unit = _reference_unit_text(spec)
        for item in misconception_list(spec):
            try:
                target, target_unit = _quantity_of(item.get("answer"),
                                                   item.get("unit", default_unit), params,
                                                   _declared(spec), _symbols(spec))
            except ValueError:
                continue
            unit = answer.unit or target_unit
            if same_unit and (unit is None or target_unit is None
                              or not _same_unit(unit, target_unit)):
                continue
            if (unit is None) != (target_unit is None) or (
                    unit is not None and target_unit is not None
                    and unit.dimension != target_unit.dimension):
                continue
            if tolerance.for_misconception(item).accepts(
                    _in_unit(answer.value, unit, target_unit), target):
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], answer.canonical)
        return None

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        if _mode(spec) == "only":
            return unit_text_of(spec)
        reference, unit = self._reference(spec, params)
        number = written_text(reference.best(), spec) or _number_text(reference)
        if _mode(spec) == "forbidden" or unit is None:
            return number
        return f"{number} {unit.text}"

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        if spec.get("type") == "numeric" and "units" in spec:  # a numeric part with units
            problems = [p for p in problems if p != "'type' must be 'quantity'"]
        if "reference" not in spec and _mode(spec) != "only":
            problems.append("'reference' is missing")
        elif "reference" in spec and (isinstance(spec["reference"], bool) or not isinstance(
                spec["reference"], str | int | float)):
            problems.append("'reference' must be an expression string (or a number)")
        problems += validate_units(spec)
        problems += validate_tolerance(spec)
        problems += validate_written(spec)
        problems += check_misconception_shapes(spec, extra=(*TOLERANCE_KEYS, "unit"))
        for index, item in enumerate(misconception_list(spec), start=1):
            problems += [f"'misconceptions' entry {index}: {problem}"
                         for problem in validate_tolerance(item)]
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        if _mode(spec) == "only":
            return []  # misconceptions of a unit-only part are units
        problems = []
        reference, ref_unit = self._reference(spec, params)
        tolerance = Tolerance.from_spec(spec)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target, unit = _quantity_of(item.get("answer"),
                                            item.get("unit", _reference_unit_text(spec)),
                                            params, _declared(spec), _symbols(spec))
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if unit is not None and ref_unit is not None and unit.dimension != ref_unit.dimension:
                continue
            if tolerance.accepts(_in_unit(target, unit, ref_unit), reference):
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') would "
                                f"be graded correct: it is within the tolerance of the "
                                f"reference")
        return problems


def _number_text(number: Number) -> str:
    """The reference as a student would type it: a whole number, a finite decimal (16/5 is
    3.2), a bracketed fraction, or 17 significant digits of an irrational value."""
    value = number.best()
    if number.exact is None:
        return repr(float(value))
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1:
        places = 0
        while (value * 10**places).denominator != 1:
            places += 1
        return _decimal_text(value, places) if places <= 15 else \
            f"({value.numerator}/{value.denominator})"
    return f"({value.numerator}/{value.denominator})"


def validate_units(spec: Mapping[str, Any]) -> list[str]:
    """Problems with the unit keys (shared with numeric parts that carry ``units``)."""
    problems = []
    for key in ("unit", "units"):
        if key in spec and (not isinstance(spec[key], str) or not spec[key].strip()):
            problems.append(f"'{key}' must be a unit such as \"m/s\"")
    if "unit" in spec and "units" in spec:
        problems.append("give 'unit' or 'units', not both")
    declared = spec.get("declare_units", [])
    if not isinstance(declared, list) or not all(
            isinstance(v, str) and re.fullmatch(r"[A-Za-z][A-Za-z_]{0,29}", v) for v in declared):
        problems.append("'declare_units' must be a list of unit names of letters (\"token\", "
                        "\"FLOP\")")
        declared = []
    text = _reference_unit_text(spec)
    if text is not None:
        try:
            read_unit(text, declared=declared, symbols=_symbols(spec))
        except FormatError as exc:
            problems.append(f"'unit' cannot be read: {exc.message}")
    symbols = spec.get("unit_symbols", {})
    if not isinstance(symbols, Mapping) or any(
            meaning not in SYMBOL_CHOICES.get(symbol, ()) for symbol, meaning in symbols.items()):
        choices = "; ".join(f"{symbol}: {', '.join(meanings)}"
                            for symbol, meanings in SYMBOL_CHOICES.items())
        problems.append(f"'unit_symbols' must map a symbol to one of its meanings ({choices})")
    if spec.get("unit_mode", "required") not in UNIT_MODES:
        problems.append("'unit_mode' must be \"required\", \"optional\", \"forbidden\" or "
                        "\"only\"")
    if spec.get("unit_match", "equivalent") not in UNIT_MATCHES:
        problems.append("'unit_match' must be \"equivalent\" or \"exact\"")
    for key in ("magnitude_credit", "unit_credit"):
        if key in spec and (not is_number(spec[key]) or not 0 <= spec[key] < 1):
            problems.append(f"'{key}' must be a number from 0 to below 1")
    if spec.get("unit_mode") in ("forbidden", "optional") and text is None \
            and not _inline_unit(spec.get("reference")):
        problems.append(f"'unit_mode' = \"{spec['unit_mode']}\" needs the reference's 'unit'")
    return problems


def _inline_unit(reference: object) -> bool:
    return isinstance(reference, str) and bool(split_quantity(reference)[1].strip())


def _quantity_of(text: object, unit_text: object, params: Mapping[str, Any],
                 declared: list[str],
                 symbols: Mapping[str, str] | None = None) -> tuple[Number, Unit | None]:
    """An author's quantity: an expression of the parameters, with its unit given apart
    (``unit``) or written after it (``"9.81 m/s^2"``)."""
    unit: Unit | None = None
    if isinstance(text, str) and not isinstance(unit_text, str):
        number_text, inline, _ = split_quantity(text, frozenset(params))
        if inline.strip():
            text, unit_text = number_text.strip(), inline
    if isinstance(unit_text, str):
        try:
            unit = read_unit(unit_text, declared=declared, symbols=symbols)
        except FormatError as exc:
            raise ValueError(f"unit '{unit_text}': {exc.message}") from None
    return reference_number(text, params), unit


def _in_unit(value: Number, unit: Unit | None, target: Unit | None) -> Number:
    """``value`` in ``unit`` expressed in ``target`` (same dimension), exactly."""
    if unit is None or target is None or unit == target:
        return value
    if unit.offset or target.offset:
        return Number.of_fraction(target.from_root(unit.to_root(value.best())))
    return value.scaled(unit.factor / target.factor)


def _same_unit(a: Unit, b: Unit) -> bool:
    """The same units, whatever the spelling: ``m/s``, ``m·s^-1``, ``metre/sec``; ``L`` and
    ``l`` (Unit.powers compares the units meant, with their total powers)."""
    return a.text == b.text or (a.factor == b.factor and a.dimension == b.dimension
                                and a.powers() == b.powers())


def _hint(spec: Mapping[str, Any], value: Number, reference: Number,
          tolerance: Tolerance) -> str:
    base = feedback(spec, False)
    if "feedback_incorrect" in spec or not value.is_finite or reference.best() == 0 \
            or value.best() == 0:
        return base
    ratio = value.best() / reference.best()
    for factor, hint in ((Fraction(1000), "a factor of 1000 (a prefix such as k or m?)"),
                         (Fraction(1, 1000), "a factor of 1000 (a prefix such as k or m?)"),
                         (Fraction(60), "a factor of 60 (minutes and seconds?)"),
                         (Fraction(1, 60), "a factor of 60 (minutes and seconds?)"),
                         (Fraction(3600), "a factor of 3600 (hours and seconds?)"),
                         (Fraction(1, 3600), "a factor of 3600 (hours and seconds?)")):
        if tolerance.accepts(Number.of_fraction(value.best() / factor), reference) \
                and ratio != 1:
            return f"{base} Check the unit conversion: your value is off by {hint}."
    if tolerance.accepts(-value, reference):
        return f"{base} Check the sign of your answer."
    return base
