"""How a matrix answer stands to the key beyond "equal entry by entry".

A *relation* is decided with the matrix checker's own entry comparison (the spec's tolerance,
or symbolic equivalence when it declares variables), never by a looser test:

* ``rows``: the key's rows in another order (a basis listed in any order, the equations of a
  system); ``columns``: the key's columns in another order (eigenvectors as columns);
* ``sign``: minus the key;
* ``factor``: a non-zero constant times the key (numeric matrices: the constant is the ratio
  of the first non-zero entries, and every entry must then agree with it);
* ``transpose`` (partial credit only): the key's transpose, for a square key that is not
  symmetric.

``equivalent_up_to = ["rows"]`` makes such an answer correct; ``partial_credit`` gives a named
one a score and feedback, as for symbolic answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy

from grading.checkers.lists import max_matching

__all__ = ["MATRIX_PARTIAL_RULES", "MATRIX_RULE_FEEDBACK", "MATRIX_UP_TO", "matrix_relation_holds"]

MATRIX_UP_TO = ("rows", "columns", "sign", "factor")
MATRIX_PARTIAL_RULES = ("rows", "columns", "sign", "factor", "transpose")
MATRIX_RULE_FEEDBACK = {
    "rows": "Your rows are right but in another order.",
    "columns": "Your columns are right but in another order.",
    "sign": "Check the sign: your matrix is the negative of the expected one.",
    "factor": "Your matrix is off by a constant factor (every entry is scaled alike).",
    "transpose": "Your matrix is the transpose of the expected one.",
}

#: Entry comparison: (row, column) of the answer against a reference value.
SameEntry = Callable[[int, int, Any], "bool | None"]


def _lines_match(count: int, width: int, same: Callable[[int, int, int], bool | None]) -> bool:
    """Can the ``count`` answer lines be paired one to one with the key's lines, ``same(i,
    k, j)`` comparing entry j of answer line i with entry j of key line k?"""

    def line_equal(i: int, k: int) -> bool:
        return all(same(i, k, j) is True for j in range(width))

    return max_matching(range(count), range(count), line_equal) == count


def matrix_relation_holds(rule: str, reference: Any, same: SameEntry, *,
                          numbers: Sequence[float] | None) -> bool:
    """Does the answer stand to ``reference`` (a sympy matrix of the answer's shape) as
    ``rule`` says? ``same(i, j, value)`` compares the answer's entry (i, j) with a value;
    ``numbers`` are the answer's entries as floats (row by row) when every entry is a
    number, else None (``factor`` then never holds)."""
    rows, cols = reference.shape
    if rule == "rows":
        return rows > 1 and _lines_match(rows, cols,
                                         lambda i, k, j: same(i, j, reference[k, j]))
    if rule == "columns":
        return cols > 1 and _lines_match(cols, rows,
                                         lambda i, k, j: same(j, i, reference[j, k]))
    if rule == "sign":
        return _all(rows, cols, lambda i, j: same(i, j, -reference[i, j]))
    if rule == "transpose":
        if rows != cols or rows < 2 or reference == reference.T:
            return False
        return _all(rows, cols, lambda i, j: same(i, j, reference[j, i]))
    if rule == "factor":
        return numbers is not None and _scaled(reference, same, numbers)
    raise ValueError(f"unknown rule '{rule}'")


def _all(rows: int, cols: int, test: Callable[[int, int], bool | None]) -> bool:
    return all(test(i, j) is True for i in range(rows) for j in range(cols))


def _scaled(reference: Any, same: SameEntry, numbers: Sequence[float]) -> bool:
    rows, cols = reference.shape
    try:
        targets = [complex(v) for v in reference]
    except TypeError:
        return False
    first = next((index for index, t in enumerate(targets) if t != 0), None)
    if first is None or numbers[first] == 0:
        return False
    ratio = numbers[first] / targets[first].real if targets[first].imag == 0 else None
    if ratio is None or ratio == 1:
        return False
    return _all(rows, cols, lambda i, j: same(i, j, reference[i, j] * _exact(ratio)))


def _exact(ratio: float) -> Any:
    """The ratio as an exact rational near the float (the tolerance decides closeness)."""
    fraction = Fraction(ratio).limit_denominator(10**12)
    return sympy.Rational(fraction.numerator, fraction.denominator)
