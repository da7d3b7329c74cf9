"""Numbers written with a decimal comma (``decimal_comma = true`` in a part's spec): ``0,0015``
is read as 0.0015, and ``;`` separates the items of a vector, list, set, interval or a
function's arguments, as in STACK's comma option and Numbas's comma notation styles.

The answer is rewritten character for character before the part's own reader sees it
(``0,0015`` -> ``0.0015``, ``(1,5; 2)`` -> ``(1.5, 2)``), so every position in a message still
counts the student's own characters. Refused with a message rather than guessed:

* ``1,500`` or ``1.500``: one to three digits (not a lone 0), one separator, then exactly three
  digits, is a thousands separator in some places and a decimal sign in others;
* a number with two separators (``1.234,5``, ``1,234,567``): digit groups are not read;
* a comma that is not between two digits of a number (``1, 2``): in this notation the comma is
  the decimal sign, and items are separated by ``;``.

A matrix keeps ``;`` between its rows (``[1,5 2; 3 4]``): its entries are separated by spaces.
"""

from collections.abc import Mapping
from typing import Any

from grading.checkers.base import Answer, Checker, Verdict
from grading.checkers.mathparse.errors import FormatError

__all__ = ["DecimalCommaInput", "decimal_comma_read", "uses_decimal_comma"]

SEPARATORS = ",."


def uses_decimal_comma(spec: Mapping[str, Any]) -> bool:
    """Whether the part reads a decimal comma (its spec's ``decimal_comma`` is true)."""
    return spec.get("decimal_comma") is True


def _digit(text: str, i: int) -> bool:
    return 0 <= i < len(text) and text[i].isdecimal()


def _run_start(text: str, i: int) -> int:
    """The first index of the digits ending at ``i`` (inclusive)."""
    while i > 0 and text[i - 1].isdecimal():
        i -= 1
    return i


def _run_end(text: str, i: int) -> int:
    """The index after the digits starting at ``i``."""
    while i < len(text) and text[i].isdecimal():
        i += 1
    return i


def _in_name(text: str, start: int) -> bool:
    """Whether the digits starting at ``start`` end a name (``x_1``, ``h2``), not a number."""
    return start > 0 and (text[start - 1].isalpha() or text[start - 1] == "_")


def _number_end(text: str, start: int) -> int:
    """The index after the number starting at ``start``: digits and separators between
    digits."""
    i = _run_end(text, start)
    while i < len(text) - 1 and text[i] in SEPARATORS and _digit(text, i + 1):
        i = _run_end(text, i + 1)
    return i


def _check_number(text: str, start: int, end: int) -> None:
    """Refuse a number ``text[start:end]`` with two separators, or with one that may be a
    thousands separator."""
    number = text[start:end]
    marks = [i for i, ch in enumerate(number) if ch in SEPARATORS]
    if len(marks) > 1:
        raise FormatError(
            f"'{number}' at character {start + 1} has more than one ',' or '.': write the "
            f"number without thousands separators and with one decimal comma (1234,5)",
            start + 1)
    if not marks:
        return
    whole, fraction = number[:marks[0]], number[marks[0] + 1:]
    if 1 <= len(whole) <= 3 and whole != "0" and len(fraction) == 3:
        sign = number[marks[0]]
        plain = whole + fraction
        short = f"{whole},{fraction.rstrip('0') or '0'}"
        raise FormatError(
            f"'{number}' at character {start + 1} is ambiguous: '{sign}' may separate "
            f"thousands or decimals. Write {plain} for the whole number, or {short} for the "
            f"decimal number", start + 1)


def decimal_comma_read(raw: str, *, separators: bool = True) -> str:
    """``raw`` with its decimal commas as points and, when ``separators``, its ``;`` as
    commas (the same length: position i is the student's character i). Raises FormatError
    for an ambiguous number, a number with digit groups, or a comma outside a number."""
    out = list(raw)
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch.isdecimal() and not _in_name(raw, i):
            end = _number_end(raw, i)
            _check_number(raw, i, end)
            for j in range(i, end):
                if raw[j] == ",":
                    out[j] = "."
            i = end
            continue
        if ch.isdecimal():
            i = _run_end(raw, i)
            continue
        if ch == ",":
            where = "items with ';'" if separators else "entries with spaces and rows with ';'"
            raise FormatError(
                f"unexpected ',' at character {i + 1}: in this answer a comma is the decimal "
                f"sign (0,5); separate {where}", i + 1)
        if ch == ";" and separators:
            out[i] = ","
        i += 1
    return "".join(out)


class DecimalCommaInput(Checker[Any]):
    """A part's checker, reading the answer in decimal-comma notation first
    (``decimal_comma = true``); keys and everything else are the inner checker's."""

    type_name = "decimal_comma"

    def __init__(self, inner: Checker[Any], *, separators: bool = True) -> None:
        self.inner = inner
        self.separators = separators

    def parse(self, raw: str, spec: Mapping[str, Any]) -> Answer:
        if not isinstance(raw, str) or not uses_decimal_comma(spec):
            return self.inner.parse(raw, spec)
        return self.inner.parse(decimal_comma_read(raw, separators=self.separators), spec)

    def check(self, answer: Answer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        return self.inner.check(answer, spec, params)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        return self.inner.reference_answer(spec, params)

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = self.inner.validate_spec(spec)
        if not isinstance(spec.get("decimal_comma"), bool):
            problems.append("'decimal_comma' must be true or false")
        return problems

    def self_check(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
        return self.inner.self_check(spec, params)

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        return self.inner.misconception_problems(spec, params)
