"""Safe reader for students' maths: a tokenizer, a Pratt parser and a small immutable AST.

Student text is never passed to ``eval``, ``sympify`` or ``parse_expr``. The reader accepts a
whitelisted grammar (numbers, the part's declared names, ``+ - * / ^ **``, brackets, ``|x|``,
implicit multiplication, a fixed list of functions, Greek names, ``pi`` and ``e``) and builds
nodes of its own. Those nodes are rendered back (``to_text``, ``to_latex``: "how we read your
answer"), evaluated with floats (``evaluate``) or turned into sympy objects node by node
(``to_sympy``). Every input is bounded in length, nesting depth, node count, exponent size and
exact-number size, so a pathological answer is refused quickly with a ``FormatError`` whose
message says what is wrong and where (1-based character positions).
"""

# ruff: noqa: RUF001, RUF002 - Greek letters and maths symbols are read on purpose
from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Union

import sympy

__all__ = [
    "BUILTIN_FUNCTIONS",
    "LIST_FUNCTIONS",
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MAX_LENGTH",
    "MAX_NODES",
    "Abs",
    "BinOp",
    "Call",
    "Const",
    "Expr",
    "FormatError",
    "Neg",
    "Node",
    "Num",
    "Pow",
    "Var",
    "evaluate",
    "exact_value",
    "normalize_name",
    "parse",
    "to_latex",
    "to_sympy",
    "to_text",
]

MAX_LENGTH = 500  # characters in one expression
MAX_DEPTH = 40  # nested brackets, powers and signs
MAX_NODES = 300  # AST nodes in one expression
MAX_EXPONENT = 1000  # largest |exponent| of a power whose exponent is a constant
MAX_LITERAL_EXPONENT = 999  # largest |E| in a literal such as 1.5e-3
MAX_EXACT_BITS = 100_000  # largest exact rational (numerator or denominator) built from constants

BUILTIN_FUNCTIONS: frozenset[str] = frozenset(
    {"exp", "ln", "log", "log10", "log2", "sqrt", "abs",
     "sin", "cos", "tan", "tanh", "sinh", "cosh"}
)
# Functions over list-valued parameters, for authors' reference expressions only.
LIST_FUNCTIONS: Mapping[str, int] = {"dot": 2, "sum": 1, "mean": 1, "len": 1}
_FUNCTION_ALIASES = {"log_10": "log10", "log_2": "log2", "log_e": "ln"}
# Functions that may carry a power before their argument, as in sin^2(x).
_POWERABLE = frozenset({"sin", "cos", "tan", "tanh", "sinh", "cosh", "ln", "log", "log10", "log2"})
CONSTANTS = ("pi", "e")

GREEK_LETTERS: Mapping[str, str] = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "µ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi",
    "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi",
    "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi",
    "Σ": "Sigma", "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
GREEK_NAMES = frozenset(GREEK_LETTERS.values())

_DIGITS = frozenset("0123456789")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_MINUS = frozenset("-\u2212\u2013\u2010\u2011\u2012\ufe63\uff0d")
_TIMES = frozenset("*\u00d7\u00b7\u22c5\u2219\u2217\u2022\u2715")
_DIVIDE = frozenset("/\u00f7\u2215")
_SUPERSCRIPTS = {
    "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4",
    "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
}
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(")]}")
_SPECIAL_MESSAGES = {
    "=": "'=' is not allowed at character {pos}: type only the value or expression, "
         "without 'name ='",
    "%": "'%' is not allowed at character {pos}: write a percentage as a fraction "
         "(0.15 rather than 15%)",
    ",": "unexpected ',' at character {pos}: use a point for decimals (0.85) and no "
         "separators inside numbers (1000)",
}

# Binding powers of the Pratt parser.
_BP_ADD = 10
_BP_MUL = 20
_BP_UNARY = 30
_BP_POW = 40


class FormatError(ValueError):
    """An answer that cannot be read: ``message`` says what and where, for a student."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


# --------------------------------------------------------------------------- AST


@dataclass(frozen=True, slots=True)
class Num:
    """A number literal: exact value and its canonical text (``1.5e-3``)."""

    value: Fraction
    text: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Var:
    """A declared variable (or, in references, a parameter)."""

    name: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Const:
    """The constant ``pi`` or ``e``."""

    name: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    """A function applied to its arguments (one, except ``dot``)."""

    func: str
    args: tuple[Node, ...]
    pos: int = field(default=0, compare=False)

    @property
    def arg(self) -> Node:
        """The first (usually only) argument."""
        return self.args[0]


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` with op one of ``+ - * /``."""

    op: str
    left: Node
    right: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    operand: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Pow:
    """``base ^ exponent``."""

    base: Node
    exponent: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Abs:
    """``|operand|`` or ``abs(operand)``."""

    operand: Node
    pos: int = field(default=0, compare=False)


Node = Union[Num, Var, Const, Call, BinOp, Neg, Pow, Abs]  # noqa: UP007


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, Pow):
        return (node.base, node.exponent)
    if isinstance(node, Neg | Abs):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    return ()


def _walk(node: Node) -> Iterable[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(_children(current))


@dataclass(frozen=True)
class Expr:
    """A parsed answer: the root node plus the text it was read from."""

    node: Node
    source: str = ""

    @property
    def free_variables(self) -> frozenset[str]:
        """Names of the variables the expression uses."""
        return frozenset(n.name for n in _walk(self.node) if isinstance(n, Var))

    @property
    def functions_used(self) -> frozenset[str]:
        """Names of the functions the expression applies (``abs`` included)."""
        names = {n.func for n in _walk(self.node) if isinstance(n, Call)}
        if any(isinstance(n, Abs) for n in _walk(self.node)):
            names.add("abs")
        return frozenset(names)

    @property
    def node_count(self) -> int:
        """Number of nodes in the tree."""
        return sum(1 for _ in _walk(self.node))

    def to_text(self) -> str:
        """Canonical plain-text rendering."""
        return to_text(self.node)

    def to_latex(self) -> str:
        """Canonical LaTeX rendering."""
        return to_latex(self.node)


# --------------------------------------------------------------------------- tokenizer


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # num name op open close bar comma sqrt end
    text: str  # normalised: op is one of + - * / ^, name is the ASCII name
    pos: int  # 1-based character position in the source (plus offset)
    raw: str  # as typed, for messages
    value: Fraction | None = None


def _is_letter(ch: str) -> bool:
    return ch in _ASCII_LETTERS or ch in GREEK_LETTERS


def _letter_name(ch: str) -> str:
    return GREEK_LETTERS.get(ch, ch)


def _tokenize(text: str, offset: int) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        pos = i + 1 + offset
        if ch.isspace():
            i += 1
        elif ch in _DIGITS or (ch == "." and i + 1 < n and text[i + 1] in _DIGITS):
            i = _lex_number(text, i, offset, tokens)
        elif _is_letter(ch):
            i = _lex_name(text, i, offset, tokens)
        elif ch in _MINUS:
            tokens.append(_Token("op", "-", pos, ch))
            i += 1
        elif ch == "+":
            tokens.append(_Token("op", "+", pos, ch))
            i += 1
        elif ch == "*" and i + 1 < n and text[i + 1] == "*":
            tokens.append(_Token("op", "^", pos, "**"))
            i += 2
        elif ch in _TIMES:
            tokens.append(_Token("op", "*", pos, ch))
            i += 1
        elif ch in _DIVIDE:
            tokens.append(_Token("op", "/", pos, ch))
            i += 1
        elif ch == "^":
            tokens.append(_Token("op", "^", pos, ch))
            i += 1
        elif ch in _OPENERS:
            tokens.append(_Token("open", ch, pos, ch))
            i += 1
        elif ch in _CLOSERS:
            tokens.append(_Token("close", ch, pos, ch))
            i += 1
        elif ch in "|\u2223":
            tokens.append(_Token("bar", "|", pos, ch))
            i += 1
        elif ch == ",":
            tokens.append(_Token("comma", ",", pos, ch))
            i += 1
        elif ch == "\u221a":
            tokens.append(_Token("sqrt", "sqrt", pos, ch))
            i += 1
        elif ch in _SUPERSCRIPTS or ch in "⁻⁺":
            i = _lex_superscript(text, i, offset, tokens)
        elif ch in _SPECIAL_MESSAGES and ch != ",":
            raise FormatError(_SPECIAL_MESSAGES[ch].format(pos=pos), pos)
        else:
            raise FormatError(f"unexpected {_quote(ch)} at character {pos}", pos)
    tokens.append(_Token("end", "", n + 1 + offset, "end of the answer"))
    return tokens


def _quote(ch: str) -> str:
    if ch == "'":
        return '"\'"'
    if not ch.isprintable():
        return f"character U+{ord(ch):04X}"
    return f"'{ch}'"


def _lex_number(text: str, i: int, offset: int, tokens: list[_Token]) -> int:
    start = i
    n = len(text)
    while i < n and text[i] in _DIGITS:
        i += 1
    if i < n and text[i] == ".":
        i += 1
        while i < n and text[i] in _DIGITS:
            i += 1
    mantissa = text[start:i]
    exponent = ""
    if i < n and text[i] in "eE":
        j = i + 1
        sign = ""
        if j < n and (text[j] == "+" or text[j] in _MINUS):
            sign = "-" if text[j] in _MINUS else ""
            j += 1
        if j < n and text[j] in _DIGITS:
            k = j
            while k < n and text[k] in _DIGITS:
                k += 1
            exponent = sign + text[j:k].lstrip("0")
            if exponent in ("", "-"):
                exponent = "0"
            i = k
    raw = text[start:i]
    pos = start + 1 + offset
    if exponent and (len(exponent.lstrip("-")) > 4
                     or abs(int(exponent)) > MAX_LITERAL_EXPONENT):
        size = "small" if exponent.startswith("-") else "large"
        raise FormatError(
            f"the number '{raw}' at character {pos} is too {size} to work with", pos
        )
    canonical = _canonical_mantissa(mantissa)
    if exponent:
        canonical = f"{canonical}e{exponent}"
    value = Fraction(mantissa if not mantissa.endswith(".") else mantissa[:-1] or "0")
    if exponent:
        value *= Fraction(10) ** int(exponent)
    tokens.append(_Token("num", canonical, pos, raw, value))
    return i


def _canonical_mantissa(mantissa: str) -> str:
    if mantissa.endswith("."):
        mantissa = mantissa[:-1]
    if mantissa.startswith("."):
        mantissa = "0" + mantissa
    if "." in mantissa:
        whole, frac = mantissa.split(".")
        whole = whole.lstrip("0") or "0"
        return f"{whole}.{frac}"
    return mantissa.lstrip("0") or "0"


def _lex_name(text: str, i: int, offset: int, tokens: list[_Token]) -> int:
    start = i
    n = len(text)
    parts: list[str] = []
    while i < n and (_is_letter(text[i]) or text[i] in _DIGITS):
        parts.append(_letter_name(text[i]))
        i += 1
    while i < n and text[i] == "_":
        underscore = i
        i += 1
        if i < n and text[i] == "{":
            close = text.find("}", i)
            inner = text[i + 1:close] if close != -1 else ""
            if close == -1 or not inner or not all(
                _is_letter(c) or c in _DIGITS for c in inner
            ):
                pos = i + 1 + offset
                raise FormatError(
                    f"a subscript in braces at character {pos} may hold only letters and "
                    f"digits, as in sigma_{{max}}",
                    pos,
                )
            parts.append("_" + "".join(_letter_name(c) for c in inner))
            i = close + 1
        else:
            sub_start = i
            while i < n and (_is_letter(text[i]) or text[i] in _DIGITS):
                i += 1
            if i == sub_start:
                pos = underscore + 1 + offset
                raise FormatError(f"a name cannot end with '_' (character {pos})", pos)
            parts.append("_" + "".join(_letter_name(c) for c in text[sub_start:i]))
    tokens.append(_Token("name", "".join(parts), start + 1 + offset, text[start:i]))
    return i


def _lex_superscript(text: str, i: int, offset: int, tokens: list[_Token]) -> int:
    pos = i + 1 + offset
    tokens.append(_Token("op", "^", pos, text[i]))
    n = len(text)
    if text[i] in "⁻⁺":
        if text[i] == "⁻":
            tokens.append(_Token("op", "-", pos, text[i]))
        i += 1
    start = i
    while i < n and text[i] in _SUPERSCRIPTS:
        i += 1
    if i == start:
        raise FormatError(f"a superscript sign at character {pos} needs superscript digits", pos)
    digits = "".join(_SUPERSCRIPTS[c] for c in text[start:i])
    tokens.append(
        _Token("num", digits.lstrip("0") or "0", start + 1 + offset, text[start:i],
               Fraction(int(digits)))
    )
    return i


def normalize_name(name: str) -> str:
    """The ASCII form of a declared name (``σ_max`` -> ``sigma_max``); ValueError if invalid."""
    if not isinstance(name, str) or not name or len(name) > 50:
        raise ValueError(f"invalid name {name!r}")
    try:
        tokens = _tokenize(name, 0)
    except FormatError as exc:
        raise ValueError(f"invalid name {name!r}: {exc.message}") from None
    if len(tokens) != 2 or tokens[0].kind != "name" or tokens[0].raw != name:
        raise ValueError(f"invalid name {name!r}: use letters, digits and '_' subscripts")
    return tokens[0].text


# --------------------------------------------------------------------------- parser


class _Parser:
    def __init__(
        self,
        tokens: list[_Token],
        variables: frozenset[str],
        functions: frozenset[str],
        list_functions: bool,
    ) -> None:
        self.tokens = tokens
        self.i = 0
        self.variables = variables
        self.functions = functions
        self.list_functions = list_functions
        self.constants = frozenset(c for c in CONSTANTS if c not in variables)
        self.depth = 0
        self.nodes = 0
        self.abs_depth = 0
        self.parenless: str | None = None  # set right after a call written without brackets

    # -- token helpers
    def peek(self, ahead: int = 0) -> _Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def advance(self) -> _Token:
        tok = self.tokens[self.i]
        if tok.kind != "end":
            self.i += 1
        self.parenless = None
        return tok

    def previous(self) -> _Token | None:
        return self.tokens[self.i - 1] if self.i > 0 else None

    def count(self, node: Node) -> Node:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            pos = getattr(node, "pos", None)
            raise FormatError(
                f"the answer is too complicated (more than {MAX_NODES} parts); simplify it",
                pos,
            )
        return node

    # -- grammar
    def parse(self) -> Node:
        node = self.expression(0)
        tok = self.peek()
        if tok.kind != "end":
            if tok.kind == "comma":
                raise FormatError(_SPECIAL_MESSAGES[","].format(pos=tok.pos), tok.pos)
            raise FormatError(f"unexpected '{tok.raw}' at character {tok.pos}", tok.pos)
        return node

    def expression(self, min_bp: int) -> Node:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                tok = self.peek()
                raise FormatError(
                    f"the expression is nested too deeply (more than {MAX_DEPTH} levels) "
                    f"at character {tok.pos}",
                    tok.pos,
                )
            left = self.prefix()
            while True:
                tok = self.peek()
                if tok.kind == "op" and tok.text in "+-":
                    bp, op = _BP_ADD, tok.text
                elif tok.kind == "op" and tok.text in "*/":
                    bp, op = _BP_MUL, tok.text
                elif tok.kind == "op" and tok.text == "^":
                    bp, op = _BP_POW, "^"
                elif self.starts_implicit(tok):
                    bp, op = _BP_MUL, ""
                else:
                    break
                if bp <= min_bp:
                    break
                if op == "":
                    self.check_implicit(tok)
                    right = self.expression(_BP_MUL)
                    left = self.count(BinOp("*", left, right, tok.pos))
                    continue
                self.advance()
                if op == "^":
                    right = self.expression(_BP_POW - 1)
                    left = self.count(Pow(left, right, tok.pos))
                else:
                    right = self.expression(bp)
                    left = self.count(BinOp(op, left, right, tok.pos))
            return left
        finally:
            self.depth -= 1

    def starts_implicit(self, tok: _Token) -> bool:
        if tok.kind in ("num", "name", "open", "sqrt"):
            return True
        return tok.kind == "bar" and self.abs_depth == 0

    def check_implicit(self, tok: _Token) -> None:
        prev = self.previous()
        if tok.kind == "num" and prev is not None and prev.kind == "num":
            raise FormatError(
                f"two numbers side by side at character {tok.pos}: use * to multiply, and "
                f"write numbers without spaces (1000, not 1 000)",
                tok.pos,
            )
        if self.parenless is not None and not (
            tok.kind == "name" and self.function_for(tok.text) is not None
        ):
            fn = self.parenless
            raise FormatError(
                f"it is not clear how much '{fn}' applies to (character {tok.pos}): "
                f"write {fn}(...) with brackets",
                tok.pos,
            )

    def prefix(self) -> Node:
        tok = self.advance()
        kind = tok.kind
        if kind == "num":
            assert tok.value is not None  # noqa: S101 - set by the tokenizer for numbers
            return self.count(Num(tok.value, tok.text, tok.pos))
        if kind == "name":
            return self.name(tok)
        if kind == "op" and tok.text == "-":
            self.require_operand(tok)
            operand = self.expression(_BP_UNARY)
            return self.count(Neg(operand, tok.pos))
        if kind == "op" and tok.text == "+":
            self.require_operand(tok)
            return self.expression(_BP_UNARY)
        if kind == "open":
            return self.group(tok)
        if kind == "bar":
            return self.absolute(tok)
        if kind == "sqrt":
            self.require_operand(tok)
            nxt = self.peek()
            arg = self.group(self.advance()) if nxt.kind == "open" else self.expression(_BP_UNARY)
            return self.count(Call("sqrt", (arg,), tok.pos))
        if kind == "end":
            prev = self.tokens[self.i - 1] if self.i > 0 else None
            if prev is not None:
                raise FormatError(
                    f"the answer ends with '{prev.raw}': something is missing after it",
                    prev.pos,
                )
            raise FormatError("empty answer", None)
        if kind == "comma":
            raise FormatError(_SPECIAL_MESSAGES[","].format(pos=tok.pos), tok.pos)
        raise FormatError(f"unexpected '{tok.raw}' at character {tok.pos}", tok.pos)

    def require_operand(self, after: _Token) -> None:
        nxt = self.peek()
        if nxt.kind == "end":
            raise FormatError(
                f"the answer ends with '{after.raw}': something is missing after it", after.pos
            )

    def group(self, open_tok: _Token) -> Node:
        want = _OPENERS[open_tok.raw]
        nxt = self.peek()
        if nxt.kind == "close":
            raise FormatError(f"empty brackets at character {open_tok.pos}", open_tok.pos)
        if nxt.kind == "end":
            raise self.missing(want, open_tok)
        saved = self.abs_depth
        self.abs_depth = 0
        inner = self.expression(0)
        self.abs_depth = saved
        self.expect_close(open_tok, want)
        return inner

    def missing(self, want: str, open_tok: _Token) -> FormatError:
        return FormatError(
            f"missing '{want}' to close the '{open_tok.raw}' opened at character {open_tok.pos}",
            open_tok.pos,
        )

    def expect_close(self, open_tok: _Token, want: str) -> None:
        tok = self.peek()
        if tok.kind == "close" and tok.raw == want:
            self.advance()
            return
        if tok.kind == "close":
            raise FormatError(
                f"'{tok.raw}' at character {tok.pos} does not match the '{open_tok.raw}' "
                f"opened at character {open_tok.pos}",
                tok.pos,
            )
        if tok.kind == "end":
            raise self.missing(want, open_tok)
        if tok.kind == "comma":
            raise FormatError(_SPECIAL_MESSAGES[","].format(pos=tok.pos), tok.pos)
        raise FormatError(f"unexpected '{tok.raw}' at character {tok.pos}", tok.pos)

    def absolute(self, bar: _Token) -> Node:
        if self.peek().kind == "end":
            raise FormatError(
                f"missing '|' to close the '|' opened at character {bar.pos}", bar.pos
            )
        self.abs_depth += 1
        inner = self.expression(0)
        self.abs_depth -= 1
        tok = self.peek()
        if tok.kind == "bar":
            self.advance()
            return self.count(Abs(inner, bar.pos))
        if tok.kind == "end":
            raise FormatError(
                f"missing '|' to close the '|' opened at character {bar.pos}", bar.pos
            )
        if tok.kind == "comma":
            raise FormatError(_SPECIAL_MESSAGES[","].format(pos=tok.pos), tok.pos)
        raise FormatError(f"unexpected '{tok.raw}' at character {tok.pos}", tok.pos)

    # -- names
    def function_for(self, name: str) -> str | None:
        if name in self.variables:
            return None
        if name in self.functions:
            return name
        lowered = name.lower()
        lowered = _FUNCTION_ALIASES.get(lowered, lowered)
        if lowered in BUILTIN_FUNCTIONS and lowered not in self.variables:
            return lowered
        if self.list_functions and lowered in LIST_FUNCTIONS:
            return lowered
        return None

    def name(self, tok: _Token) -> Node:
        name = tok.text
        if name in self.variables:
            return self.count(Var(name, tok.pos))
        fn = self.function_for(name)
        if fn is not None:
            return self.call(tok, fn)
        if name in self.constants:
            return self.count(Const(name, tok.pos))
        pieces = _split_name(name, self.variables | self.constants)
        if pieces:
            # Read "xy^2" as x*y^2: the later pieces go back into the token stream as names,
            # so they multiply implicitly and a power binds to the last one only.
            self.tokens[self.i:self.i] = [
                _Token("name", piece, tok.pos, piece) for piece in pieces[1:]
            ]
            first = pieces[0]
            return self.count(Var(first, tok.pos) if first in self.variables
                              else Const(first, tok.pos))
        # A function glued to its argument: lnx, sinx, exptau.
        for length in range(len(name) - 1, 1, -1):
            fn = self.function_for(name[:length])
            rest = name[length:]
            if fn is not None and fn not in self.functions and fn not in LIST_FUNCTIONS \
                    and (rest in self.variables or rest in self.constants):
                arg: Node = Var(rest, tok.pos) if rest in self.variables else Const(rest, tok.pos)
                self.count(arg)
                node = self.count(Abs(arg, tok.pos) if fn == "abs" else Call(fn, (arg,), tok.pos))
                self.parenless = fn
                return node
        raise self.unknown(tok)

    def unknown(self, tok: _Token) -> FormatError:
        message = f"unknown name '{tok.raw}' at character {tok.pos}"
        candidates = sorted(
            self.variables | self.functions | BUILTIN_FUNCTIONS | self.constants
            | (frozenset(LIST_FUNCTIONS) if self.list_functions else frozenset())
        )
        close = difflib.get_close_matches(tok.text, candidates, n=1, cutoff=0.6)
        if not close:
            close = difflib.get_close_matches(tok.text.lower(), candidates, n=1, cutoff=0.6)
        if close:
            return FormatError(f"{message}: did you mean '{close[0]}'?", tok.pos)
        if self.variables:
            allowed = ", ".join(sorted(self.variables))
            return FormatError(f"{message} (this answer may use: {allowed})", tok.pos)
        return FormatError(
            f"{message} (this answer takes numbers only, with functions such as exp, ln "
            f"and sqrt)",
            tok.pos,
        )

    def call(self, tok: _Token, fn: str) -> Node:
        power: _Token | None = None
        nxt = self.peek()
        if nxt.kind == "op" and nxt.text == "^" and fn in _POWERABLE:
            self.advance()
            power = self.advance()
            if power.kind != "num" or power.value is None or power.value.denominator != 1 \
                    or not 1 <= power.value <= 9:
                raise FormatError(
                    f"after '{tok.raw}^' only a small whole number may come (as in sin^2(x)), "
                    f"at character {power.pos}",
                    power.pos,
                )
            nxt = self.peek()
        arity = LIST_FUNCTIONS.get(fn, 1)
        parenless = False
        if nxt.kind == "open":
            open_tok = self.advance()
            want = _OPENERS[open_tok.raw]
            if self.peek().kind == "close":
                raise FormatError(
                    f"'{tok.raw}' at character {tok.pos} needs something inside its brackets",
                    open_tok.pos,
                )
            if self.peek().kind == "end":
                raise self.missing(want, open_tok)
            saved = self.abs_depth
            self.abs_depth = 0
            args = [self.expression(0)]
            while self.peek().kind == "comma" and len(args) < arity:
                self.advance()
                args.append(self.expression(0))
            self.abs_depth = saved
            if self.peek().kind == "comma":
                comma = self.peek()
                raise FormatError(
                    f"'{tok.raw}' takes {_arguments(arity)}: unexpected ',' at character "
                    f"{comma.pos}",
                    comma.pos,
                )
            self.expect_close(open_tok, want)
            if len(args) != arity:
                raise FormatError(
                    f"'{tok.raw}' at character {tok.pos} takes {_arguments(arity)}", tok.pos
                )
        else:
            if fn in self.functions or arity != 1 or fn in LIST_FUNCTIONS:
                raise FormatError(
                    f"'{tok.raw}' at character {tok.pos} is a function: write "
                    f"{tok.raw}(...) with brackets",
                    tok.pos,
                )
            if nxt.kind in ("end", "close", "comma") or (
                nxt.kind == "op" and nxt.text in "*/^"
            ) or (nxt.kind == "bar" and self.abs_depth > 0):
                raise FormatError(
                    f"'{tok.raw}' at character {tok.pos} needs an argument, as in {fn}(2)",
                    tok.pos,
                )
            args = [self.expression(_BP_UNARY)]
            parenless = True
        node: Node
        if fn == "abs":
            node = self.count(Abs(args[0], tok.pos))
        else:
            node = self.count(Call(fn, tuple(args), tok.pos))
        if power is not None:
            assert power.value is not None  # noqa: S101 - checked above
            exponent = self.count(Num(power.value, power.text, power.pos))
            node = self.count(Pow(node, exponent, tok.pos))
        if parenless:
            self.parenless = tok.raw
        return node


def _rewrite_times_letter(tokens: list[_Token], declared: frozenset[str]) -> list[_Token]:
    """``1.5x10^-3``: an undeclared x between a number and 10 means 'times'."""
    if "x" in declared or "X" in declared:
        return tokens
    out: list[_Token] = []
    for k, tok in enumerate(tokens):
        after_number = k > 0 and tokens[k - 1].kind == "num"
        if tok.kind == "name" and after_number and tok.text in ("x10", "X10") \
                and tok.text not in declared:
            out.append(_Token("op", "*", tok.pos, tok.raw[0]))
            out.append(_Token("num", "10", tok.pos + 1, "10", Fraction(10)))
        elif (tok.kind == "name" and after_number and tok.text in ("x", "X")
              and tokens[k + 1].kind == "num" and tokens[k + 1].text == "10"):
            out.append(_Token("op", "*", tok.pos, tok.raw))
        else:
            out.append(tok)
    return out


def _arguments(arity: int) -> str:
    return "one argument" if arity == 1 else f"{arity} arguments separated by commas"


def _split_name(name: str, vocabulary: frozenset[str]) -> list[str] | None:
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


def parse(
    text: str,
    *,
    variables: Sequence[str] = (),
    functions: Sequence[str] = (),
    list_functions: bool = False,
    offset: int = 0,
    max_length: int = MAX_LENGTH,
) -> Expr:
    """Read ``text`` as an expression in the declared ``variables`` and ``functions``.

    Raises FormatError (message for the student, 1-based ``position``) for anything that is
    not a bounded expression of the whitelisted grammar; ValueError only for a bad declaration
    (an author's mistake). ``offset`` shifts reported positions (for elements of a list);
    ``list_functions`` enables dot/sum/mean/len for references over list parameters.
    """
    if not isinstance(text, str):
        raise FormatError("empty answer", None)
    if len(text) > max_length:
        raise FormatError(f"the answer is too long (at most {max_length} characters)", None)
    if not text.strip():
        raise FormatError("empty answer", None)
    declared = frozenset(normalize_name(v) for v in variables)
    funcs = frozenset(normalize_name(f) for f in functions)
    for name in declared | funcs:
        if name.lower() in BUILTIN_FUNCTIONS or name in _FUNCTION_ALIASES:
            raise ValueError(f"'{name}' is a built-in function and cannot be declared")
    if declared & funcs:
        clash = ", ".join(sorted(declared & funcs))
        raise ValueError(f"declared both as variable and function: {clash}")
    tokens = _rewrite_times_letter(_tokenize(text, offset), declared)
    parser = _Parser(tokens, declared, funcs, list_functions)
    node = parser.parse()
    _check_sizes(node)
    return Expr(node, text)


# --------------------------------------------------------------------------- size checks


def _float_of(value: Fraction) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _bits(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _check_sizes(node: Node) -> tuple[float | None, int]:
    """Refuse constants that are too large to compute with; return (float value, exact bits)."""
    value: float | None
    bits = 0
    if isinstance(node, Num):
        value, bits = _float_of(node.value), _bits(node.value)
    elif isinstance(node, Var):
        return None, 0
    elif isinstance(node, Const):
        value = math.pi if node.name == "pi" else math.e
    elif isinstance(node, Neg | Abs):
        inner, bits = _check_sizes(node.operand)
        value = None if inner is None else (-inner if isinstance(node, Neg) else abs(inner))
    elif isinstance(node, BinOp):
        left, lbits = _check_sizes(node.left)
        right, rbits = _check_sizes(node.right)
        bits = lbits + rbits + 1
        value = None if left is None or right is None else _binop(node.op, left, right)
    elif isinstance(node, Pow):
        base, bbits = _check_sizes(node.base)
        exponent, _ = _check_sizes(node.exponent)
        value = None
        bits = bbits
        if exponent is not None:
            if math.isinf(exponent) or (not math.isnan(exponent)
                                        and abs(exponent) > MAX_EXPONENT):
                raise FormatError(
                    f"the exponent of the power at character {node.pos} is too large "
                    f"(at most {MAX_EXPONENT} in size)",
                    node.pos,
                )
            if not math.isnan(exponent):
                bits = bbits * max(1, math.ceil(abs(exponent)))
            if base is not None:
                value = _power(base, exponent)
        if bits > MAX_EXACT_BITS:
            raise FormatError(
                f"the power at character {node.pos} has too many digits to work with exactly",
                node.pos,
            )
    else:  # Call
        results = [_check_sizes(arg) for arg in node.args]
        bits = sum(b for _, b in results)
        values = [v for v, _ in results]
        value = None
        if all(v is not None for v in values) and node.func in _FLOAT_FUNCTIONS:
            value = _FLOAT_FUNCTIONS[node.func](values[0] or 0.0)
    if bits > MAX_EXACT_BITS:
        raise FormatError(
            f"the expression at character {node.pos} has too many digits to work with exactly",
            node.pos,
        )
    if value is not None and math.isinf(value):
        raise FormatError(
            f"the value at character {node.pos} is too large to work with "
            f"(more than about 1e308)",
            node.pos,
        )
    return value, bits


# --------------------------------------------------------------------------- float evaluation


def _guard(fn: Callable[[float], float]) -> Callable[[float], float]:
    def safe(x: float) -> float:
        if math.isnan(x):
            return math.nan
        try:
            return fn(x)
        except OverflowError:
            return math.inf
        except (ValueError, ZeroDivisionError):
            return math.nan

    return safe


def _log(x: float) -> float:
    return math.log(x) if x > 0 else math.nan


def _log10(x: float) -> float:
    return math.log10(x) if x > 0 else math.nan


def _log2(x: float) -> float:
    return math.log2(x) if x > 0 else math.nan


def _sqrt(x: float) -> float:
    return math.sqrt(x) if x >= 0 else math.nan


def _sinh(x: float) -> float:
    try:
        return math.sinh(x)
    except OverflowError:
        return math.copysign(math.inf, x)


_FLOAT_FUNCTIONS: Mapping[str, Callable[[float], float]] = {
    "exp": _guard(math.exp),
    "ln": _guard(_log),
    "log": _guard(_log),
    "log10": _guard(_log10),
    "log2": _guard(_log2),
    "sqrt": _guard(_sqrt),
    "abs": _guard(abs),
    "sin": _guard(math.sin),
    "cos": _guard(math.cos),
    "tan": _guard(math.tan),
    "tanh": _guard(math.tanh),
    "sinh": _guard(_sinh),
    "cosh": _guard(math.cosh),
}


def _binop(op: str, a: float, b: float) -> float:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0 or math.isnan(b):
        return math.nan
    try:
        return a / b
    except OverflowError:  # pragma: no cover - float division overflows to inf silently
        return math.inf


def _power(base: float, exponent: float) -> float:
    if math.isnan(base) or math.isnan(exponent):
        return math.nan
    if base == 0 and exponent < 0:
        return math.nan
    if base < 0 and not float(exponent).is_integer():
        return math.nan
    if math.isinf(base) or math.isinf(exponent):
        try:
            return math.pow(base, exponent)
        except (OverflowError, ValueError, ZeroDivisionError):
            return math.nan
    if base != 0 and exponent * math.log(abs(base)) > 710:
        odd = float(exponent).is_integer() and int(exponent) % 2 == 1
        return -math.inf if base < 0 and odd else math.inf
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf
    except (ValueError, ZeroDivisionError):
        return math.nan


_Value = Union[float, list[float]]  # noqa: UP007


def evaluate(
    expr: Expr | Node,
    env: Mapping[str, Any],
    functions: Mapping[str, Callable[[float], float]] | None = None,
) -> float:
    """The float value of ``expr`` with variables from ``env``; never raises for arithmetic.

    Overflow gives ``inf``, undefined operations (division by zero, log of a negative,
    unknown names) give ``nan``. ``env`` values may be lists for the list functions of
    references; ``functions`` supplies Python callables for declared function names.
    """
    node = expr.node if isinstance(expr, Expr) else expr
    try:
        result = _eval(node, env, functions or {})
    except (OverflowError, ValueError, ZeroDivisionError, TypeError, KeyError, RecursionError):
        return math.nan
    if isinstance(result, list):
        return math.nan
    return float(result)


def _lift(fn: Callable[..., float], *values: _Value) -> _Value:
    lists = [v for v in values if isinstance(v, list)]
    if not lists:
        return fn(*values)
    length = len(lists[0])
    if any(len(v) != length for v in lists):
        return math.nan
    return [fn(*(v[k] if isinstance(v, list) else v for v in values)) for k in range(length)]


def _eval(node: Node, env: Mapping[str, Any], functions: Mapping[str, Callable[[float], float]],
          ) -> _Value:
    if isinstance(node, Num):
        return _float_of(node.value)
    if isinstance(node, Var):
        value = env.get(node.name)
        if value is None:
            return math.nan
        if isinstance(value, list | tuple):
            return [float(v) for v in value]
        return float(value)
    if isinstance(node, Const):
        return math.pi if node.name == "pi" else math.e
    if isinstance(node, Neg):
        return _lift(lambda x: -x, _eval(node.operand, env, functions))
    if isinstance(node, Abs):
        return _lift(abs, _eval(node.operand, env, functions))
    if isinstance(node, BinOp):
        op = node.op
        return _lift(lambda a, b: _binop(op, a, b), _eval(node.left, env, functions),
                     _eval(node.right, env, functions))
    if isinstance(node, Pow):
        return _lift(_power, _eval(node.base, env, functions),
                     _eval(node.exponent, env, functions))
    args = [_eval(arg, env, functions) for arg in node.args]
    func = node.func
    if func in LIST_FUNCTIONS:
        return _reduce_float(func, args)
    if func in _FLOAT_FUNCTIONS:
        return _lift(_FLOAT_FUNCTIONS[func], args[0])
    impl = functions.get(func)
    if impl is None:
        return math.nan
    return _lift(_guard(impl), args[0])


def _reduce_float(func: str, args: list[_Value]) -> float:
    if not all(isinstance(a, list) for a in args):
        return math.nan
    lists = [a for a in args if isinstance(a, list)]
    if func == "len":
        return float(len(lists[0]))
    if func == "sum":
        return math.fsum(lists[0])
    if func == "mean":
        return math.fsum(lists[0]) / len(lists[0]) if lists[0] else math.nan
    a, b = lists
    if len(a) != len(b):
        return math.nan
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def exact_value(expr: Expr | Node) -> Fraction | None:
    """The exact rational value of a constant expression, or None if it is not rational.

    Only numbers, ``+ - * /``, unary minus, ``|x|`` and whole-number powers are exact.
    """
    node = expr.node if isinstance(expr, Expr) else expr
    try:
        return _exact(node)
    except (ZeroDivisionError, OverflowError):
        return None


def _exact(node: Node) -> Fraction | None:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Neg | Abs):
        inner = _exact(node.operand)
        if inner is None:
            return None
        return -inner if isinstance(node, Neg) else abs(inner)
    if isinstance(node, BinOp):
        left = _exact(node.left)
        right = _exact(node.right) if left is not None else None
        if left is None or right is None:
            return None
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        if node.op == "*":
            return left * right
        return None if right == 0 else left / right
    if isinstance(node, Pow):
        base = _exact(node.base)
        exponent = _exact(node.exponent) if base is not None else None
        if base is None or exponent is None or exponent.denominator != 1:
            return None
        power = exponent.numerator
        if abs(power) > MAX_EXPONENT or _bits(base) * abs(power) > MAX_EXACT_BITS:
            return None
        if base == 0 and power < 0:
            return None
        return base**power
    return None


# --------------------------------------------------------------------------- sympy


def to_sympy(
    expr: Expr | Node,
    *,
    substitutions: Mapping[str, Any] | None = None,
    assumptions: Mapping[str, bool] | None = None,
) -> Any:
    """Build the sympy object for ``expr`` node by node (never from a string).

    ``substitutions`` maps names to sympy values or lists of them (list parameters, used by
    dot/sum/mean/len and elementwise arithmetic). Other variables become Symbols with the
    given ``assumptions`` (default: real). Raises ValueError for a misuse of lists, or when
    sympy itself fails on the expression (its internals raise assorted exceptions).
    """
    node = expr.node if isinstance(expr, Expr) else expr
    builder = _SympyBuilder(substitutions or {}, dict(assumptions or {"real": True}))
    try:
        return builder.build(node)
    except ValueError:
        raise
    except Exception as exc:  # sympy internals: AssertionError, PolynomialError, TypeError...
        raise ValueError(f"sympy cannot represent this expression ({exc!r})") from exc


class _SympyBuilder:
    def __init__(self, substitutions: Mapping[str, Any], assumptions: dict[str, bool]) -> None:
        self.substitutions = substitutions
        self.assumptions = assumptions
        self.symbols: dict[str, Any] = {}

    def symbol(self, name: str) -> Any:
        if name not in self.symbols:
            self.symbols[name] = sympy.Symbol(name, **self.assumptions)
        return self.symbols[name]

    def lift(self, fn: Callable[..., Any], *values: Any) -> Any:
        lists = [v for v in values if isinstance(v, list)]
        if not lists:
            return fn(*values)
        length = len(lists[0])
        if any(len(v) != length for v in lists):
            raise ValueError("lists of different lengths are combined")
        return [fn(*(v[k] if isinstance(v, list) else v for v in values)) for k in range(length)]

    def build(self, node: Node) -> Any:
        if isinstance(node, Num):
            return sympy.Rational(node.value.numerator, node.value.denominator)
        if isinstance(node, Var):
            if node.name in self.substitutions:
                return self.substitutions[node.name]
            return self.symbol(node.name)
        if isinstance(node, Const):
            return sympy.pi if node.name == "pi" else sympy.E
        if isinstance(node, Neg):
            return self.lift(lambda x: -x, self.build(node.operand))
        if isinstance(node, Abs):
            return self.lift(sympy.Abs, self.build(node.operand))
        if isinstance(node, BinOp):
            left, right = self.build(node.left), self.build(node.right)
            return self.lift(_SYMPY_BINOPS[node.op], left, right)
        if isinstance(node, Pow):
            return self.lift(_sympy_power, self.build(node.base), self.build(node.exponent))
        args = [self.build(arg) for arg in node.args]
        if node.func in LIST_FUNCTIONS:
            return _reduce_sympy(node.func, args)
        if node.func in _SYMPY_FUNCTIONS:
            return self.lift(_SYMPY_FUNCTIONS[node.func], args[0])
        return self.lift(sympy.Function(node.func), args[0])


def _sympy_power(base: Any, exponent: Any) -> Any:
    """``base^exponent``; a number to a fractional power stays unevaluated.

    sympy would otherwise try to extract exact roots of possibly large rationals, which can
    take seconds; evalf and simplify still see through the unevaluated power.
    """
    if isinstance(base, sympy.Rational) and isinstance(exponent, sympy.Rational) \
            and not isinstance(exponent, sympy.Integer):
        return sympy.Pow(base, exponent, evaluate=False)
    return sympy.Pow(base, exponent)


_SYMPY_BINOPS: Mapping[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: sympy.Add(a, b),
    "-": lambda a, b: sympy.Add(a, sympy.Mul(-1, b)),
    "*": lambda a, b: sympy.Mul(a, b),
    "/": lambda a, b: sympy.Mul(a, sympy.Pow(b, -1)),
}

_SYMPY_FUNCTIONS: Mapping[str, Callable[[Any], Any]] = {
    "exp": sympy.exp,
    "ln": sympy.log,
    "log": sympy.log,
    "log10": lambda x: sympy.log(x, 10),
    "log2": lambda x: sympy.log(x, 2),
    "sqrt": sympy.sqrt,
    "abs": sympy.Abs,
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "tanh": sympy.tanh,
    "sinh": sympy.sinh,
    "cosh": sympy.cosh,
}


def _reduce_sympy(func: str, args: list[Any]) -> Any:
    if not all(isinstance(a, list) for a in args):
        raise ValueError(f"{func}() needs list parameters as arguments")
    if func == "len":
        return sympy.Integer(len(args[0]))
    if func == "sum":
        return sympy.Add(*args[0])
    if func == "mean":
        if not args[0]:
            raise ValueError("mean() of an empty list")
        return sympy.Add(*args[0]) / len(args[0])
    a, b = args
    if len(a) != len(b):
        raise ValueError("dot() of lists of different lengths")
    return sympy.Add(*[x * y for x, y in zip(a, b, strict=True)])


# --------------------------------------------------------------------------- rendering

_ATOM = 100


def _precedence(node: Node) -> int:
    if isinstance(node, BinOp):
        return _BP_ADD if node.op in "+-" else _BP_MUL
    if isinstance(node, Neg):
        return _BP_UNARY
    if isinstance(node, Pow):
        return _BP_POW
    return _ATOM


def to_text(expr: Expr | Node) -> str:
    """Canonical plain text: explicit ``*``, ``^`` for powers, only the brackets needed."""
    node = expr.node if isinstance(expr, Expr) else expr
    return _text(node)


def _wrap(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def _text(node: Node) -> str:
    if isinstance(node, Num):
        return node.text
    if isinstance(node, Var | Const):
        return node.name
    if isinstance(node, Neg):
        return "-" + _wrap(_text(node.operand), _precedence(node.operand) < _BP_UNARY)
    if isinstance(node, Abs):
        return f"|{_text(node.operand)}|"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(_text(a) for a in node.args)})"
    if isinstance(node, Pow):
        base = _wrap(_text(node.base), _precedence(node.base) <= _BP_POW
                     or (isinstance(node.base, Num) and "e" in node.base.text))
        exponent = _wrap(_text(node.exponent), _precedence(node.exponent) < _ATOM
                         or (isinstance(node.exponent, Num) and "e" in node.exponent.text))
        return f"{base}^{exponent}"
    prec = _precedence(node)
    left = _wrap(_text(node.left), _precedence(node.left) < prec)
    right_prec = _precedence(node.right)
    right_needs = right_prec < prec or isinstance(node.right, Neg) or (
        node.op in "-/" and right_prec == prec
    )
    right = _wrap(_text(node.right), right_needs)
    if node.op in "+-":
        return f"{left} {node.op} {right}"
    return f"{left}{node.op}{right}"


def to_latex(expr: Expr | Node) -> str:
    """Canonical LaTeX: ``\\frac``, ``\\cdot``, Greek letters, ``\\ln`` for the natural log."""
    node = expr.node if isinstance(expr, Expr) else expr
    return _latex(node)


_LATEX_FUNCTIONS = {
    "exp": r"\exp", "ln": r"\ln", "log": r"\ln", "log10": r"\log_{10}", "log2": r"\log_{2}",
    "sin": r"\sin", "cos": r"\cos", "tan": r"\tan", "tanh": r"\tanh", "sinh": r"\sinh",
    "cosh": r"\cosh",
}


def _latex_name(name: str) -> str:
    base, _, subscript = name.partition("_")
    if base in GREEK_NAMES:
        if base == "omicron":
            head = "o"
        elif base == "epsilon":
            head = r"\varepsilon"
        else:
            head = "\\" + base
    elif len(base) == 1:
        head = base
    else:
        head = r"\mathrm{" + base + "}"
    if not subscript:
        return head
    pieces = [_latex_name(p) if p in GREEK_NAMES else p for p in subscript.split("_")]
    sub = ",".join(p if len(p) <= 2 or p.startswith("\\") else r"\mathrm{" + p + "}"
                   for p in pieces)
    return f"{head}_{{{sub}}}"


def _latex_number(text: str) -> str:
    if "e" in text:
        mantissa, exponent = text.split("e")
        return rf"{mantissa} \times 10^{{{exponent}}}"
    return text


def _paren(text: str, needed: bool) -> str:
    return rf"\left({text}\right)" if needed else text


def _latex(node: Node) -> str:
    if isinstance(node, Num):
        return _latex_number(node.text)
    if isinstance(node, Var):
        return _latex_name(node.name)
    if isinstance(node, Const):
        return r"\pi" if node.name == "pi" else "e"
    if isinstance(node, Neg):
        return "-" + _paren(_latex(node.operand), _precedence(node.operand) < _BP_UNARY)
    if isinstance(node, Abs):
        return rf"\left|{_latex(node.operand)}\right|"
    if isinstance(node, Call):
        if node.func == "sqrt":
            return rf"\sqrt{{{_latex(node.arg)}}}"
        args = ", ".join(_latex(a) for a in node.args)
        head = _LATEX_FUNCTIONS.get(node.func)
        if head is None:
            head = (node.func if len(node.func) == 1 and node.func not in LIST_FUNCTIONS
                    else r"\operatorname{" + node.func.replace("_", r"\_") + "}")
        return rf"{head}\left({args}\right)"
    if isinstance(node, Pow):
        base = _paren(_latex(node.base), _precedence(node.base) <= _BP_POW
                      or (isinstance(node.base, Num) and "e" in node.base.text))
        return f"{{{base}}}^{{{_latex(node.exponent)}}}"
    if node.op == "/":
        return rf"\frac{{{_latex(node.left)}}}{{{_latex(node.right)}}}"
    prec = _precedence(node)
    left = _paren(_latex(node.left), _precedence(node.left) < prec)
    right_needs = _precedence(node.right) < prec or isinstance(node.right, Neg) or (
        node.op == "-" and _precedence(node.right) == prec
    )
    right = _paren(_latex(node.right), right_needs)
    if node.op == "*":
        return rf"{left} \cdot {right}"
    return f"{left} {node.op} {right}"
