# ruff: noqa: RUF002 - Greek letters are the point here
"""Names in maths text: declared variables and functions, and how a run of letters is read.

``normalize_name`` gives a declared name's ASCII form (``σ_max`` -> ``sigma_max``);
``declared_functions`` reads a part's ``functions`` declaration; ``split_name`` splits a run
of letters into declared names (``xy`` -> x·y); ``rewrite_times_letter`` reads the x of
``1.5x10^-3`` as times. The parser resolves each name with these (parser.py).
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.errors import FormatError, gettext_noop
from grading.checkers.mathparse.tokenizer import Token, tokenize

__all__ = [
    "Functions",
    "Vocabulary",
    "clashes_with_builtin",
    "declared_functions",
    "normalize_name",
    "rewrite_times_letter",
    "split_name",
]

_MAX_FUNCTION_ARITY = 10

Functions = Sequence[str] | Mapping[str, int]


def normalize_name(name: str) -> str:
    """The ASCII form of a declared name (``σ_max`` -> ``sigma_max``); ValueError if invalid."""
    if not isinstance(name, str) or not name or len(name) > 50:
        raise ValueError(f"invalid name {name!r}")
    return _normalize_name(name)


@functools.lru_cache(maxsize=4096)
def _normalize_name(name: str) -> str:
    try:
        tokens = tokenize(name, 0)
    except FormatError as exc:
        raise ValueError(f"invalid name {name!r}: {exc.message}") from None
    if len(tokens) != 2 or tokens[0].kind != "name" or tokens[0].raw != name:
        raise ValueError(f"invalid name {name!r}: use letters, digits and '_' subscripts")
    return tokens[0].text


def declared_functions(functions: Functions) -> dict[str, int]:
    """Declared functions as {ASCII name: number of arguments}; ValueError if malformed.

    ``functions`` is a list of names (one argument each) or a table of name to argument
    count (``{f = 2}``).
    """
    items: list[tuple[object, object]]
    if isinstance(functions, Mapping):
        items = list(functions.items())
    elif isinstance(functions, str):
        items = [(functions, 1)]
    else:
        items = [(name, 1) for name in functions]
    declared: dict[str, int] = {}
    for name, arity in items:
        if not isinstance(name, str):
            raise ValueError(f"invalid function name {name!r}")
        if isinstance(arity, bool) or not isinstance(arity, int) \
                or not 1 <= arity <= _MAX_FUNCTION_ARITY:
            raise ValueError(f"function '{name}' must take 1 to {_MAX_FUNCTION_ARITY} "
                             f"arguments, not {arity!r}")
        declared[normalize_name(name)] = arity
    return declared


def clashes_with_builtin(name: str) -> bool:
    fn = registry.lookup(name)
    return fn is not None and not fn.reference_only and not fn.complex_only


def rewrite_times_letter(tokens: list[Token], declared: frozenset[str]) -> list[Token]:
    """``1.5x10^-3``: an undeclared x between a number and 10 means 'times'."""
    if "x" in declared or "X" in declared:
        return tokens
    out: list[Token] = []
    for k, tok in enumerate(tokens):
        after_number = k > 0 and tokens[k - 1].kind == "num"
        if tok.kind == "name" and after_number and tok.text in ("x10", "X10"):
            out.append(Token("op", "*", tok.pos, tok.raw[0]))
            out.append(Token("num", "10", tok.pos + 1, "10", Fraction(10)))
        elif (tok.kind == "name" and after_number and tok.text in ("x", "X")
              and tokens[k + 1].kind == "num" and tokens[k + 1].text == "10"):
            out.append(Token("op", "*", tok.pos, tok.raw))
        else:
            out.append(tok)
    return out


def split_name(name: str, vocabulary: frozenset[str]) -> list[str] | None:
    """Split ``name`` into known names, longest first (``csigma_max`` -> c, sigma_max)."""
    if not vocabulary:
        return None
    by_length = sorted(vocabulary, key=len, reverse=True)
    failed: set[int] = set()

    def split_from(start: int) -> list[str] | None:
        if start == len(name):
            return []
        if start in failed:
            return None
        for word in by_length:
            if name.startswith(word, start):
                rest = split_from(start + len(word))
                if rest is not None:
                    return [word, *rest]
        failed.add(start)
        return None

    pieces = split_from(0)
    return pieces if pieces and len(pieces) > 1 else None


@dataclass(frozen=True)
class Vocabulary:
    """The names one answer may use: its declared variables and (undefined) functions with
    their arity, declared names meaning a built-in (``sigma`` for the sigmoid), and whether
    list functions and the imaginary unit (``"i"`` or ``"j"``) are read."""

    variables: frozenset[str]
    functions: Mapping[str, int]
    opted: Mapping[str, str]
    list_functions: bool
    imaginary: str | None

    @property
    def constants(self) -> frozenset[str]:
        """The constant names not taken by a variable: pi, e and the imaginary unit."""
        return frozenset(c for c in ("pi", "e", self.imaginary or "pi")
                         if c not in self.variables)

    def function_for(self, name: str) -> str | None:
        """The canonical function a name stands for here, or None."""
        if name in self.variables:
            return None
        if name in self.functions:
            return name
        if name in self.opted:
            return self.opted[name]
        fn = registry.lookup(name)
        if fn is None or (fn.reference_only and not self.list_functions) \
                or (fn.complex_only and self.imaginary is None):
            return None
        return fn.name

    def arity(self, fn: str) -> tuple[int, int | None]:
        """The fewest and most arguments of function ``fn`` (None: no most)."""
        if fn in self.functions:
            return self.functions[fn], self.functions[fn]
        found = registry.get(fn)
        return found.min_args, found.max_args

    def parenless_allowed(self, fn: str) -> bool:
        """May ``fn`` be written without brackets (``sin x``)?"""
        found = registry.find(fn) if fn not in self.functions else None
        return found is not None and found.parenless and found.min_args == 1

    def splits(self, name: str) -> list[str] | None:
        """``name`` split into variables and constants (``xy`` -> x, y), or None."""
        return split_name(name, self.variables | self.constants)

    def unknown(self, tok: Token, *, powered: bool) -> FormatError:
        """Why ``tok`` cannot be read, with the closest known name when there is one (a name
        ``powered`` by ``^`` is offered variables and constants only)."""
        values = {"name": tok.raw, "pos": tok.pos, "unit": self.imaginary}
        if self.imaginary is None and tok.text in ("i", "j") and not self.variables:
            return FormatError(gettext_noop(
                "'%(name)s' at character %(pos)s: complex numbers are not expected in this "
                "answer (it takes a real number)") % values, tok.pos)
        if self.imaginary is not None and tok.text in ("i", "j") and tok.text != self.imaginary:
            return FormatError(gettext_noop(
                "unknown name '%(name)s' at character %(pos)s: the imaginary unit here is "
                "'%(unit)s'") % values, tok.pos)
        # A name raised to a power ("sigma^40") is a quantity, never a function: only declared
        # variables and constants are offered for it. Declared names always come first.
        declared = sorted(self.variables | self.constants) if powered else sorted(
            self.variables | set(self.functions) | set(self.opted) | self.constants)
        builtin = [] if powered else sorted(
            spelling for spelling, canonical in registry.ALIASES.items()
            if (self.list_functions or not registry.get(canonical).reference_only)
            and (self.imaginary or not registry.get(canonical).complex_only))
        for candidates in (declared, builtin):
            close = difflib.get_close_matches(tok.text, candidates, n=1, cutoff=0.6) or \
                difflib.get_close_matches(tok.text.lower(), candidates, n=1, cutoff=0.6)
            if close:
                return FormatError(gettext_noop(
                    "unknown name '%(name)s' at character %(pos)s: did you mean "
                    "'%(close)s'?") % {**values, "close": close[0]}, tok.pos)
        if self.variables:
            allowed = ", ".join(sorted(self.variables))
            return FormatError(gettext_noop(
                "unknown name '%(name)s' at character %(pos)s (this answer may use: "
                "%(allowed)s)") % {**values, "allowed": allowed}, tok.pos)
        return FormatError(gettext_noop(
            "unknown name '%(name)s' at character %(pos)s (this answer takes numbers only, "
            "with functions such as exp, ln and sqrt)") % values, tok.pos)
