"""The bounds every expression must respect, so no answer can make the reader work for long.

Enforced by the tokenizer (``MAX_LITERAL_EXPONENT``), the parser (length, depth, nodes) and
``bounds.check_sizes`` (exponents, exact sizes, values out of float range).
"""

from __future__ import annotations

__all__ = [
    "MAX_DEPTH",
    "MAX_EXACT_BITS",
    "MAX_EXPONENT",
    "MAX_LENGTH",
    "MAX_LITERAL_EXPONENT",
    "MAX_NODES",
    "MAX_SYMBOLIC_EXPONENT",
]

MAX_LENGTH = 500  # characters in one expression
MAX_DEPTH = 40  # nested brackets, powers and signs
MAX_NODES = 300  # AST nodes in one expression
MAX_EXPONENT = 1000  # largest |exponent| of a power of a constant base
MAX_SYMBOLIC_EXPONENT = 100_000  # largest constant |exponent| of a base with variables
MAX_LITERAL_EXPONENT = 999  # largest |E| in a literal such as 1.5e-3
MAX_EXACT_BITS = 100_000  # largest exact rational (numerator or denominator) from constants
