# ruff: noqa: RUF002 - the multiplication sign of shapes is the point here
"""Matrix operations of authors' references, over exact sympy matrices (never from strings).

A matrix parameter (a list of rows in the exercise's ``[parameters]``) is an immutable sympy
matrix; a list parameter combined with a matrix is a column. The registry
(functions.py) points at these: ``transpose``, ``inverse``, ``det``, ``trace``, ``softmax``
(each row by default, as attention does; ``softmax(X, 0)`` each column), ``norm``
(Euclidean/Frobenius, or ``norm(X, 1)``, ``norm(X, oo)``), ``hadamard`` (the entrywise product),
``outer``, ``identity``, ``zeros``, ``ones``. Arithmetic is in sympy_build.py: ``*`` is the
matrix product, a scalar broadcasts, and the other functions apply to each entry (as numpy).
Every size is bounded so an author's typo cannot build a huge matrix.
"""

from __future__ import annotations

from typing import Any

import sympy

__all__ = [
    "MAX_MATRIX_SIDE",
    "as_matrix",
    "is_matrix",
    "m_det",
    "m_hadamard",
    "m_identity",
    "m_inverse",
    "m_norm",
    "m_ones",
    "m_outer",
    "m_softmax",
    "m_trace",
    "m_transpose",
    "m_zeros",
    "shape_text",
]

MAX_MATRIX_SIDE = 50


def is_matrix(value: Any) -> bool:
    """True for a sympy matrix."""
    return isinstance(value, sympy.MatrixBase)


def shape_text(value: Any) -> str:
    """``2×3`` for a 2-by-3 matrix."""
    rows, cols = value.shape
    return f"{rows}\u00d7{cols}"


def as_matrix(value: Any, name: str) -> Any:
    """A matrix, or a list as a column; ValueError for a scalar."""
    if is_matrix(value):
        return value
    if isinstance(value, list):
        if not value:
            raise ValueError(f"{name}() of an empty list")
        return sympy.ImmutableMatrix(len(value), 1, value)
    raise ValueError(f"{name}() needs a matrix (a list of rows) or a list")


def _square(value: Any, name: str) -> Any:
    matrix = as_matrix(value, name)
    if matrix.rows != matrix.cols:
        raise ValueError(f"{name}() needs a square matrix, not {shape_text(matrix)}")
    return matrix


def _side(value: Any, name: str) -> int:
    if not (isinstance(value, sympy.Integer) and 1 <= int(value) <= MAX_MATRIX_SIDE):
        raise ValueError(f"{name}() needs whole sizes from 1 to {MAX_MATRIX_SIDE}")
    return int(value)


def m_transpose(value: Any) -> Any:
    """The transpose (a list is a column, so its transpose is a row)."""
    return as_matrix(value, "transpose").T


def m_inverse(value: Any) -> Any:
    """The inverse of a square matrix; ValueError when it is singular."""
    matrix = _square(value, "inverse")
    if matrix.det() == 0:
        raise ValueError("inverse() of a singular matrix")
    return sympy.ImmutableMatrix(matrix.inv())


def m_det(value: Any) -> Any:
    """The determinant of a square matrix."""
    return _square(value, "det").det()


def m_trace(value: Any) -> Any:
    """The trace of a square matrix."""
    return _square(value, "trace").trace()


def m_softmax(value: Any, axis: Any = None) -> Any:
    """softmax of each row (axis 1, the default) or each column (axis 0); a list gives a list."""
    if isinstance(value, list):
        total = sympy.Add(*[sympy.exp(v) for v in value])
        return [sympy.exp(v) / total for v in value]
    matrix = as_matrix(value, "softmax")
    if axis is None or axis == 1 or axis == -1:
        rows = []
        for i in range(matrix.rows):
            total = sympy.Add(*[sympy.exp(v) for v in matrix.row(i)])
            rows.append([sympy.exp(v) / total for v in matrix.row(i)])
        return sympy.ImmutableMatrix(rows)
    if axis == 0:
        return m_softmax(matrix.T).T
    raise ValueError("softmax(X, axis): axis is 1 (each row, the default) or 0 (each column)")


def m_norm(value: Any, order: Any = None) -> Any:
    """The Euclidean norm of a vector, the Frobenius norm of a matrix, or ``norm(x, 1)``,
    ``norm(x, oo)`` (for a matrix: the largest column / row sum)."""
    matrix = as_matrix(value, "norm")
    if order is None or (order == 2 and 1 in matrix.shape):
        return sympy.sqrt(sympy.Add(*[sympy.Abs(v) ** 2 for v in matrix]))
    if order in (1, sympy.oo):
        return matrix.norm(order)
    raise ValueError("norm(x, p): p is 1, 2 or oo")


def m_hadamard(a: Any, b: Any) -> Any:
    """The entrywise product of two matrices of one shape."""
    left, right = as_matrix(a, "hadamard"), as_matrix(b, "hadamard")
    if left.shape != right.shape:
        raise ValueError(f"hadamard() of a {shape_text(left)} and a {shape_text(right)} matrix")
    return sympy.ImmutableMatrix(left.multiply_elementwise(right))


def m_outer(a: Any, b: Any) -> Any:
    """The outer product u vᵀ of two vectors."""
    left, right = as_matrix(a, "outer"), as_matrix(b, "outer")
    return sympy.ImmutableMatrix(left.reshape(len(left), 1) * right.reshape(1, len(right)))


def m_identity(n: Any) -> Any:
    """The n×n identity."""
    return sympy.ImmutableMatrix(sympy.eye(_side(n, "identity")))


def m_zeros(rows: Any, cols: Any = None) -> Any:
    """A matrix of zeros (``zeros(n)`` is square)."""
    r = _side(rows, "zeros")
    return sympy.ImmutableMatrix(sympy.zeros(r, _side(cols, "zeros") if cols is not None else r))


def m_ones(rows: Any, cols: Any = None) -> Any:
    """A matrix of ones (``ones(n)`` is square)."""
    r = _side(rows, "ones")
    return sympy.ImmutableMatrix(sympy.ones(r, _side(cols, "ones") if cols is not None else r))
