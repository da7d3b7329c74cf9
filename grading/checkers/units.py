# ruff: noqa: RUF001 - unit symbols (µ, Ω, °, ·) are the point here
"""Units read by our own small grammar, with names looked up in pint's registry.

Student text never reaches pint's expression parser: ``read_unit`` tokenizes a unit such as
``m/s``, ``m·s^-1``, ``kg m/s²``, ``N/kg``, ``km/h``, ``µm``, ``GiB`` itself (names, ``*``/``·``/
space products, ``/``, whole or fractional powers, brackets) and asks pint only what one name
means (``UnitRegistry.parse_unit_name``: prefix, unit, suffix, a table lookup) and what it is in
root units (``get_root_units`` of one unit). Authors may declare units of their own (tokens,
FLOP, parameters) that pint does not know: each is a new root dimension and takes the SI and
binary prefixes (``kFLOP``, ``Mtokens``, ``GiB`` is pint's).

A ``Unit`` is an exact conversion ``factor`` (a Fraction) to root units (meter, second, gram,
kelvin, ampere, mole, candela, bit, radian and the declared ones) and those root units with
their exponents; conversion factors are pint's definitions taken to 15 significant digits (pint
computes them in floating point: a litre is 0.0010000000000000002 m³ there, 0.001 here).
Temperatures in °C or °F alone are converted with their offset.
"""

from __future__ import annotations

import difflib
import functools
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.mathparse import FormatError

__all__ = [
    "MAX_FACTORS",
    "MAX_UNIT_LENGTH",
    "SYMBOL_CHOICES",
    "Unit",
    "describe_dimension",
    "read_unit",
    "registry",
]

MAX_UNIT_LENGTH = 100
MAX_FACTORS = 12
_MAX_POWER = 12
_LOCK = threading.Lock()

SI_PREFIXES = {
    "Q": 30, "R": 27, "Y": 24, "Z": 21, "E": 18, "P": 15, "T": 12, "G": 9, "M": 6, "k": 3,
    "h": 2, "da": 1, "d": -1, "c": -2, "m": -3, "µ": -6, "μ": -6, "u": -6, "n": -9, "p": -12,
    "f": -15, "a": -18, "z": -21, "y": -24, "r": -27, "q": -30,
}
BINARY_PREFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
# Temperatures on a scale with an offset: kelvin = value * scale + offset.
_OFFSETS = {
    "degree_Celsius": (Fraction(1), Fraction(27315, 100)),
    "degree_Fahrenheit": (Fraction(5, 9), Fraction(45967, 100) * Fraction(5, 9)),
}
# Common spellings pint does not have, and symbols people type (° alone is the angle).
_SPELLINGS = {"°": "degree", "°C": "degC", "℃": "degC", "°F": "degF", "℉": "degF",
              "\u2126": "ohm", "\u03a9": "ohm", "µ": "micro", "sec": "second", "secs": "second",
              "hrs": "hour", "mins": "minute", "kmh": "kilometer_per_hour",
              "kph": "kilometer_per_hour", "FLOPs": "FLOP", "flops": "FLOP"}

_NAME = re.compile(r"[A-Za-zµμ\u2126\u03a9°℃℉%'\"_\u0370-\u03ff][A-Za-z0-9µμ\u2126\u03a9°℃℉%_\u0370-\u03ff]*")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


@functools.lru_cache(maxsize=1)
def registry() -> Any:
    """pint's unit registry (built once per process: about half a second)."""
    import pint

    return pint.UnitRegistry(cache_folder=None)


@dataclass(frozen=True)
class Unit:
    """A unit: exact ``factor`` to root units, the root units' exponents, how it was written
    (``text``, canonical: ``m/s``), an ``offset`` (kelvin) for °C/°F alone, and the names as
    written with their exponents (``parts``), for "exactly this unit" comparisons."""

    factor: Fraction
    dimension: tuple[tuple[str, Fraction], ...]
    text: str
    parts: tuple[tuple[str, Fraction], ...] = ()
    offset: Fraction = Fraction(0)
    #: The units meant, with their exponents: ``metre``, ``meter`` and ``m`` are all
    #: ``meter``; ``L`` and ``l`` are ``liter``; ``s`` and ``sec`` are ``second``.
    identities: tuple[tuple[str, Fraction], ...] = ()

    def powers(self) -> dict[str, Fraction]:
        """Each unit meant with its total power (``m/s/s`` and ``metre·sec^-2`` are both
        meter¹ second⁻²): what "exactly this unit" compares."""
        total: dict[str, Fraction] = {}
        for name, power in self.identities or self.parts:
            total[name] = total.get(name, Fraction(0)) + power
        return {name: power for name, power in total.items() if power != 0}

    @property
    def is_dimensionless(self) -> bool:
        """True for a pure number (also %, ppm)."""
        return not self.dimension

    def to_root(self, value: Fraction) -> Fraction:
        """A value in this unit expressed in root units."""
        return value * self.factor + self.offset

    def from_root(self, value: Fraction) -> Fraction:
        """A value in root units expressed in this unit."""
        return (value - self.offset) / self.factor

    def latex(self) -> str:
        """The unit in LaTeX: ``\\mathrm{m}\\,\\mathrm{s}^{-1}``."""
        pieces = []
        for name, power in self.parts:
            symbol = r"\mathrm{" + name.replace("%", r"\%").replace("µ", r"\mu ") + "}"
            if power != 1:
                symbol += "^{" + _power_text(power) + "}"
            pieces.append(symbol)
        return r"\,".join(pieces)


def _power_text(power: Fraction) -> str:
    return str(power.numerator) if power.denominator == 1 else \
        f"{power.numerator}/{power.denominator}"


def _significant(value: float) -> Fraction:
    """A pint float factor to 15 significant digits, as a Fraction (binary noise removed)."""
    if float(value).is_integer() and abs(value) < 2**63:
        return Fraction(int(value))
    return Fraction(f"{value:.15g}")


@dataclass(frozen=True)
class _Named:
    factor: Fraction
    dimension: tuple[tuple[str, Fraction], ...]
    offset: tuple[Fraction, Fraction] | None = None
    identity: str = ""


def _declared_lookup(name: str, declared: frozenset[str]) -> _Named | None:
    """An author's unit (``token``), its plural (``tokens``) or a prefixed form (``kFLOP``)."""
    candidates = [(name, 0, 10)]
    for prefix, power in SI_PREFIXES.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            candidates.append((name[len(prefix):], power, 10))
    for prefix, power in BINARY_PREFIXES.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            candidates.append((name[len(prefix):], power, 2))
    for stem, power, base in candidates:
        for spelling in (stem, stem[:-1] if stem.endswith("s") else None):
            if spelling and spelling in declared:
                return _Named(Fraction(base) ** power, ((spelling, Fraction(1)),),
                              identity=f"{base}^{power} {spelling}")
    return None


@functools.lru_cache(maxsize=2048)
def _pint_lookup(name: str) -> _Named | None:
    ureg = registry()
    with _LOCK:
        try:
            found = ureg.parse_unit_name(name)
        except Exception:  # pint's own errors for odd names: an unknown unit
            return None
        if not found:
            return None
        prefix, unit, _suffix = found[0]
        from pint.util import UnitsContainer

        try:
            factor, root = ureg.get_root_units(UnitsContainer({unit: 1}))
            scale = ureg._prefixes[prefix].converter.scale if prefix else 1
        except Exception:
            return None
    dimension = tuple(sorted((str(k), Fraction(v).limit_denominator(12))
                             for k, v in root._units.items()))
    total = _significant(float(factor)) * _significant(float(scale))
    if unit in _OFFSETS and not prefix:
        return _Named(total, dimension, _OFFSETS[unit], identity=unit)
    return _Named(total, dimension, identity=f"{prefix}{unit}")


def _scaled(name: str, scale: Fraction, identity: str) -> _Named:
    found = _pint_lookup(name)
    assert found is not None  # noqa: S101 - names of pint's own registry
    return _Named(found.factor * scale, found.dimension, identity=identity)


_DIOPTRE = _Named(Fraction(1), (("meter", Fraction(-1)),), identity="dioptre")
#: Symbols read in the SI teaching sense where pint means something else: G is the gauss of
#: SI teaching (1e-4 T; pint's is the CGS gauss, of another dimension), dpt the dioptre
#: (1/m; pint reads deci-pint). amu, u and Da (atomic mass unit), ly (light-year), L and l
#: (litre) are pint's own.
_TEACHING: Mapping[str, Any] = {
    "G": ("tesla", Fraction(1, 10**4), "gauss"),
    "gauss": ("tesla", Fraction(1, 10**4), "gauss"),
    **dict.fromkeys(("dpt", "dioptre", "diopter", "dioptres", "diopters"), _DIOPTRE),
}
#: What an author may make a symbol mean instead (``unit_symbols = { me = "electron_mass" }``):
#: each choice is a unit of pint's registry, or "gauss" (SI, 1e-4 T).
SYMBOL_CHOICES: Mapping[str, tuple[str, ...]] = {
    "me": ("electron_mass",),
    "mp": ("proton_mass",),
    "mn": ("neutron_mass",),
    "G": ("gauss", "gravitational_constant"),
    "u": ("unified_atomic_mass_unit",),
    "a": ("year", "are"),
    "C": ("coulomb", "degree_Celsius"),
}


def _lookup(name: str, declared: frozenset[str],
            symbols: frozenset[tuple[str, str]] = frozenset()) -> _Named | None:
    chosen = dict(symbols).get(name)
    if chosen == "gauss":
        return _scaled("tesla", Fraction(1, 10**4), "gauss")
    if chosen is not None:
        return _pint_lookup(chosen)
    found = _declared_lookup(name, declared)
    if found is not None:
        return found
    if name in _TEACHING:
        meaning = _TEACHING[name]
        return meaning if isinstance(meaning, _Named) else _scaled(*meaning)
    return _pint_lookup(_SPELLINGS.get(name, name))


_COMMON = ("m", "s", "kg", "g", "N", "J", "W", "Pa", "Hz", "V", "A", "K", "mol", "h", "min",
           "km", "cm", "mm", "ms", "L", "eV", "B", "kB", "MB", "GB", "bit", "degC", "rad",
           "metre", "meter", "litre", "liter", "second", "gram", "hour", "minute", "newton",
           "joule", "watt", "pascal", "kelvin", "ampere", "volt", "ohm", "dpt", "gauss")


class _UnitReader:
    def __init__(self, text: str, offset: int, declared: frozenset[str],
                 symbols: frozenset[tuple[str, str]] = frozenset()) -> None:
        self.text = text
        self.offset = offset
        self.declared = declared
        self.symbols = symbols
        self.identities: dict[int, str] = {}
        self.i = 0
        self.factors = 0

    def pos(self) -> int:
        return self.offset + self.i + 1

    def error(self, message: str) -> FormatError:
        return FormatError(f"{message} at character {self.pos()}", self.pos())

    def skip(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def at_end(self) -> bool:
        self.skip()
        return self.i >= len(self.text)

    def read(self) -> tuple[Fraction, dict[str, Fraction], list[tuple[str, Fraction]], Any]:
        result = self.product()
        if not self.at_end():
            raise self.error(f"unexpected '{self.text[self.i]}' in the unit")
        return result

    def product(self) -> tuple[Fraction, dict[str, Fraction], list[tuple[str, Fraction]], Any]:
        factor, dims, parts, offset = self.power()
        while not self.at_end():
            ch = self.text[self.i]
            sign = 1
            if ch in "*·⋅×.":
                self.i += 1
            elif ch == "/":
                self.i += 1
                sign = -1
            elif ch == ")":
                break
            f, d, p, _ = self.power()
            offset = None
            factor *= f ** sign
            for key, value in d.items():
                dims[key] = dims.get(key, Fraction(0)) + sign * value
            parts += [(name, sign * power) for name, power in p]
        return factor, {k: v for k, v in dims.items() if v != 0}, parts, offset

    def power(self) -> tuple[Fraction, dict[str, Fraction], list[tuple[str, Fraction]], Any]:
        self.skip()
        if self.i >= len(self.text):
            raise self.error("a unit is missing")
        ch = self.text[self.i]
        if ch == "(":
            self.i += 1
            factor, dims, parts, _ = self.product()
            self.skip()
            if self.i >= len(self.text) or self.text[self.i] != ")":
                raise self.error("missing ')' in the unit")
            self.i += 1
            offset = None
        else:
            factor, dims, parts, offset = self.name()
        exponent = self.exponent()
        if exponent != 1:
            if exponent.denominator != 1 and any((v * exponent).denominator != 1
                                                 for v in dims.values()):
                raise self.error("a fractional power must leave whole powers of the units")
            factor = _fraction_power(factor, exponent)
            dims = {k: v * exponent for k, v in dims.items()}
            parts = [(name, power * exponent) for name, power in parts]
            offset = None
        return factor, dims, parts, offset

    def exponent(self) -> Fraction:
        text = self.text
        start = self.i
        if self.i < len(text) and text[self.i] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻":
            j = self.i
            while j < len(text) and text[j] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻":
                j += 1
            digits = text[self.i:j].translate(_SUPERSCRIPTS)
            self.i = j
            return self._whole(digits, start)
        caret = text.startswith("^", self.i) or text.startswith("**", self.i)
        if not caret:
            return Fraction(1)
        self.i += 1 if text[self.i] == "^" else 2
        self.skip()
        bracket = self.i < len(text) and text[self.i] == "("
        if bracket:
            self.i += 1
        match = re.compile(r"\s*([+\-−]?)\s*(\d{1,6})(?:\s*/\s*(\d{1,2}))?\s*").match(text, self.i)
        if not match:
            raise self.error("a unit's power must be a whole number (m^2, s^-1)")
        self.i = match.end()
        if bracket:
            if self.i >= len(text) or text[self.i] != ")":
                raise self.error("missing ')' after the power")
            self.i += 1
        sign = -1 if match.group(1) in ("-", "−") else 1
        value = Fraction(int(match.group(2)), int(match.group(3) or 1)) * sign
        if abs(value) > _MAX_POWER or value == 0:
            raise FormatError(f"the power {value} of a unit (character {start + self.offset + 1}) "
                              f"is not allowed (1 to {_MAX_POWER})", start + self.offset + 1)
        return value

    def _whole(self, digits: str, start: int) -> Fraction:
        try:
            value = Fraction(int(digits))
        except ValueError:
            raise FormatError(f"unreadable power at character {start + self.offset + 1}",
                              start + self.offset + 1) from None
        if abs(value) > _MAX_POWER or value == 0:
            raise FormatError(f"the power {value} of a unit is not allowed", start + 1)
        return value

    def name(self) -> tuple[Fraction, dict[str, Fraction], list[tuple[str, Fraction]], Any]:
        match = _NAME.match(self.text, self.i)
        if not match:
            raise self.error(f"unexpected '{self.text[self.i]}' in the unit")
        word = match.group(0)
        position = self.pos()
        self.i = match.end()
        self.factors += 1
        if self.factors > MAX_FACTORS or len(word) > 40:
            raise FormatError("the unit is too long", position)
        if word == "°" and self.text[self.i:self.i + 1] in ("C", "F"):
            word += self.text[self.i]
            self.i += 1
        found = _lookup(word, self.declared, self.symbols)
        if found is None:
            raise FormatError(f"unknown unit '{word}' at character {position}"
                              f"{_suggestion(word, self.declared)}", position)
        offset = found.offset
        self.identities[len(self.identities)] = found.identity or word
        return found.factor, dict(found.dimension), [(word, Fraction(1))], offset


def _fraction_power(factor: Fraction, exponent: Fraction) -> Fraction:
    if exponent.denominator == 1:
        return factor ** int(exponent)
    root = float(factor) ** (1 / exponent.denominator)  # (km^2)^(1/2): 15 digits suffice
    return Fraction(f"{root:.15g}") ** exponent.numerator


def _suggestion(word: str, declared: Iterable[str]) -> str:
    vocabulary = [*declared, *_COMMON]
    close = difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.5)
    if not close:
        lowered = [v for v in vocabulary if v.lower() == word.lower()]
        close = lowered[:1]
    return f": did you mean '{close[0]}'?" if close else ""


def read_unit(text: str, *, offset: int = 0, declared: Iterable[str] = (),
              symbols: Mapping[str, str] | None = None) -> Unit:
    """Read a unit (``m/s``, ``m·s^-1``, ``kg m s⁻²``, ``°C``, ``GiB``, ``tokens/s`` with
    ``token`` declared). Raises FormatError with a position (shifted by ``offset``) for an
    unknown name ("did you mean"), a bad power or a malformed unit. ``symbols`` gives a
    symbol one of its other meanings (``{"me": "electron_mass"}``, see SYMBOL_CHOICES)."""
    if len(text) > MAX_UNIT_LENGTH:
        raise FormatError(f"the unit is too long (at most {MAX_UNIT_LENGTH} characters)", None)
    return _read_unit_cached(text, offset, frozenset(declared),
                             frozenset((symbols or {}).items()))


@functools.lru_cache(maxsize=4096)
def _read_unit_cached(text: str, offset: int, declared: frozenset[str],
                      symbols: frozenset[tuple[str, str]] = frozenset()) -> Unit:
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    reader = _UnitReader(stripped, offset + lead, declared, symbols)
    factor, dims, parts, unit_offset = reader.read()
    dimension = tuple(sorted(dims.items()))
    canonical = _canonical(parts)
    identities = tuple((reader.identities.get(k, name), power)
                       for k, (name, power) in enumerate(parts))
    if unit_offset is not None and len(parts) == 1 and parts[0][1] == 1:
        scale, shift = unit_offset
        return Unit(scale, dimension, canonical, tuple(parts), shift, identities)
    return Unit(factor, dimension, canonical, tuple(parts), identities=identities)


def _canonical(parts: list[tuple[str, Fraction]]) -> str:
    """``m/s``, ``kg·m/s^2``, ``1/s``: positive powers first, then the negative ones."""
    def one(name: str, power: Fraction) -> str:
        return name if power == 1 else f"{name}^{_power_text(power)}"

    up = [one(n, p) for n, p in parts if p > 0]
    down = [one(n, -p) for n, p in parts if p < 0]
    text = "·".join(up) or "1"
    if down:
        text += "/" + ("·".join(down) if len(down) == 1 else "(" + "·".join(down) + ")")
    return text


# --------------------------------------------------------------------------- dimensions

_F = Fraction
_NAMES: Mapping[tuple[tuple[str, Fraction], ...], str] = {
    (): "a pure number",
    (("meter", _F(1)),): "a length",
    (("second", _F(1)),): "a time",
    (("gram", _F(1)),): "a mass",
    (("kelvin", _F(1)),): "a temperature",
    (("ampere", _F(1)),): "an electric current",
    (("mole", _F(1)),): "an amount of substance",
    (("candela", _F(1)),): "a luminous intensity",
    (("bit", _F(1)),): "an amount of information",
    (("radian", _F(1)),): "an angle",
    (("meter", _F(2)),): "an area",
    (("meter", _F(3)),): "a volume",
    (("meter", _F(1)), ("second", _F(-1))): "a speed",
    (("meter", _F(1)), ("second", _F(-2))): "an acceleration",
    (("second", _F(-1)),): "a frequency",
    (("gram", _F(1)), ("meter", _F(1)), ("second", _F(-2))): "a force",
    (("gram", _F(1)), ("meter", _F(2)), ("second", _F(-2))): "an energy",
    (("gram", _F(1)), ("meter", _F(2)), ("second", _F(-3))): "a power",
    (("gram", _F(1)), ("meter", _F(-1)), ("second", _F(-2))): "a pressure",
    (("gram", _F(1)), ("meter", _F(-3))): "a density",
    (("gram", _F(1)), ("meter", _F(1)), ("second", _F(-1))): "a momentum",
    (("ampere", _F(1)), ("second", _F(1))): "an electric charge",
    (("ampere", _F(-1)), ("gram", _F(1)), ("meter", _F(2)), ("second", _F(-3))): "a voltage",
    (("ampere", _F(-2)), ("gram", _F(1)), ("meter", _F(2)), ("second", _F(-3))):
        "an electrical resistance",
    (("bit", _F(1)), ("second", _F(-1))): "a data rate",
    (("radian", _F(1)), ("second", _F(-1))): "an angular speed",
}
_ROOT_SYMBOLS = {"meter": "m", "second": "s", "gram": "g", "kelvin": "K", "ampere": "A",
                 "mole": "mol", "candela": "cd", "bit": "bit", "radian": "rad"}


def describe_dimension(dimension: tuple[tuple[str, Fraction], ...]) -> str:
    """``a time``, ``an energy``, ``a number of tokens``, else ``a quantity in kg·m/s^3``."""
    if dimension in _NAMES:
        return _NAMES[dimension]
    if len(dimension) == 1 and dimension[0][1] == 1:
        return f"a number of {dimension[0][0]}s"
    parts = [(_ROOT_SYMBOLS.get(name, name) if name != "gram" else "kg", power)
             for name, power in dimension]
    return f"a quantity in {_canonical(parts)}"
