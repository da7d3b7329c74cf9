# ruff: noqa: RUF002 - Greek letters and maths symbols are the point here
"""The parser: tokens to a tree, with the grammar's rules and the student-facing messages.

A Pratt parser over the tokenizer's tokens. Binding, loosest first: ``+ -``; ``* /`` and
implicit multiplication (``2x``, ``2 sigma``, ``(a)(b)``); unary minus (``-2^2 = -4``); ``^``
(right-associative, ``2^-3`` allowed); postfix ``!`` (``2n! = 2·(n!)``, ``2^3! = 2^6``).
Names are resolved in this order: a declared variable; a function (declared, built-in by any
alias in any case, or an opt-in built-in such as ``σ`` for the sigmoid when the spec declares
it); ``log_b`` with a number or declared base; a constant (``pi``, ``e``, and infinity where
allowed); a split into declared names (``xy`` -> x·y); a function glued to its argument
(``lnx``); otherwise an error with a suggestion. A function without brackets takes the next
factor (``40 ln 0.85``, ``ln x^2`` = ln(x²)). Bounds (length, depth, nodes, sizes) are checked
as the tree is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.bounds import check_sizes
from grading.checkers.mathparse.cursor import TokenCursor
from grading.checkers.mathparse.errors import FormatError
from grading.checkers.mathparse.expr import Expr
from grading.checkers.mathparse.limits import MAX_DEPTH, MAX_LENGTH
from grading.checkers.mathparse.names import (
    Functions,
    Vocabulary,
    clashes_with_builtin,
    declared_functions,
    normalize_name,
    rewrite_times_letter,
)
from grading.checkers.mathparse.nodes import (
    BP_ADD,
    BP_MUL,
    BP_POSTFIX,
    BP_POW,
    BP_UNARY,
    Abs,
    BinOp,
    Call,
    Const,
    Neg,
    Node,
    Num,
    Pow,
    Var,
)
from grading.checkers.mathparse.tokenizer import Token, tokenize

__all__ = ["INFINITY_NAMES", "parse"]

#: Spellings of infinity (any case), read where the spec allows infinity; also the sign ∞.
INFINITY_NAMES = frozenset({"oo", "inf", "infty", "infinity"})
_OPENERS = {"(": ")", "[": "]", "{": "}"}


class _Parser(TokenCursor):
    """The grammar over a token cursor (see the module docstring)."""

    def __init__(self, tokens: list[Token], variables: frozenset[str],
                 functions: Mapping[str, int], opted: Mapping[str, str],
                 list_functions: bool, infinity: bool, imaginary: str | None = None) -> None:
        super().__init__(tokens)
        self.variables = variables
        self.functions = functions  # declared undefined functions: name -> arity
        self.opted = opted  # declared names meaning a built-in: sigma -> sigmoid
        self.list_functions = list_functions
        self.infinity = infinity
        self.imaginary = imaginary  # "i" or "j" where the spec reads complex numbers
        self.constants = frozenset(c for c in ("pi", "e", imaginary or "pi")
                                   if c not in variables)
        self.vocabulary = Vocabulary(variables, functions, opted, list_functions, imaginary)
        self.depth = 0
        self.abs_depth = 0

    # -- grammar
    def parse(self) -> Node:
        node = self.expression(0)
        tok = self.peek()
        if tok.kind != "end":
            raise self.unexpected(tok)
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
                if tok.kind == "bang":
                    if min_bp >= BP_POSTFIX:
                        break
                    left = self.factorial(left, tok)
                    continue
                if tok.kind == "op" and tok.text in "+-":
                    bp, op = BP_ADD, tok.text
                elif tok.kind == "op" and tok.text in "*/":
                    bp, op = BP_MUL, tok.text
                elif tok.kind == "op" and tok.text == "^":
                    bp, op = BP_POW, "^"
                elif self.starts_implicit(tok):
                    bp, op = BP_MUL, ""
                else:
                    break
                if bp <= min_bp:
                    break
                if op == "":
                    self.check_implicit(tok)
                    right = self.expression(BP_MUL)
                    left = self.count(BinOp("*", left, right, tok.pos))
                    continue
                self.advance()
                if op == "^":
                    right = self.expression(BP_POW - 1)
                    left = self.count(Pow(left, right, tok.pos))
                else:
                    right = self.expression(bp)
                    left = self.count(BinOp(op, left, right, tok.pos))
            return left
        finally:
            self.depth -= 1

    def factorial(self, operand: Node, bang: Token) -> Node:
        self.advance()
        if self.peek().kind == "bang":
            raise FormatError(
                f"'!!' at character {bang.pos}: a double factorial is not read here; "
                f"write (n!)! for the factorial of a factorial",
                bang.pos,
            )
        return self.count(Call("factorial", (operand,), bang.pos))

    def starts_implicit(self, tok: Token) -> bool:
        if tok.kind in ("num", "name", "open", "sqrt"):
            return True
        return tok.kind == "bar" and self.abs_depth == 0

    def check_implicit(self, tok: Token) -> None:
        prev = self.previous()
        if tok.kind == "num" and prev is not None and prev.kind == "num":
            raise FormatError(
                f"two numbers side by side at character {tok.pos}: use * to multiply, and "
                f"write numbers without spaces (1000, not 1 000)",
                tok.pos,
            )
        if self.parenless is not None and not (
            tok.kind == "name" and self.vocabulary.function_for(tok.text) is not None
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
            operand = self.expression(BP_UNARY)
            return self.count(Neg(operand, tok.pos))
        if kind == "op" and tok.text == "+":
            self.require_operand(tok)
            return self.expression(BP_UNARY)
        if kind == "open":
            return self.group(tok)
        if kind == "bar":
            return self.absolute(tok)
        if kind == "sqrt":
            self.require_operand(tok)
            nxt = self.peek()
            arg = self.group(self.advance()) if nxt.kind == "open" else self.expression(BP_UNARY)
            return self.count(Call("sqrt", (arg,), tok.pos))
        if kind == "end":
            prev = self.tokens[self.i - 1] if self.i > 0 else None
            if prev is not None:
                raise FormatError(
                    f"the answer ends with '{prev.raw}': something is missing after it",
                    prev.pos,
                )
            raise FormatError("empty answer", None)
        if kind == "bang":
            raise FormatError(
                f"'!' at character {tok.pos} must follow a number or a bracket, as in 5!",
                tok.pos,
            )
        raise self.unexpected(tok)

    def require_operand(self, after: Token) -> None:
        if self.peek().kind == "end":
            raise FormatError(
                f"the answer ends with '{after.raw}': something is missing after it", after.pos
            )

    def group(self, open_tok: Token) -> Node:
        want = _OPENERS[open_tok.text]
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

    def absolute(self, bar: Token) -> Node:
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
        raise self.unexpected(tok)

    # -- names
    def name(self, tok: Token) -> Node:
        name = tok.text
        if name in self.variables:
            return self.count(Var(name, tok.pos))
        fn = self.vocabulary.function_for(name)
        if fn is not None:
            brackets_needed = not self.vocabulary.parenless_allowed(fn)
            if not (brackets_needed and self.peek().kind != "open" and self.vocabulary.splits(name)):
                return self.call(tok, fn)
        base = self.log_base(tok)
        if isinstance(base, Const) and base.name == "e":
            return self.call(tok, "ln", base=base, base_is_e=True)
        if base is not None:
            return self.call(tok, "log", base=base)
        lowered = name.lower()
        if name in self.constants or (lowered == "pi" and "pi" in self.constants
                                      and name not in self.functions):
            return self.count(Const("pi" if lowered == "pi" else name, tok.pos))
        if lowered in INFINITY_NAMES and self.infinity:
            return self.count(Const("oo", tok.pos))
        pieces = self.vocabulary.splits(name)
        if pieces:
            # Read "xy^2" as x*y^2: the later pieces go back into the token stream as names,
            # so they multiply implicitly and a power binds to the last one only.
            self.tokens[self.i:self.i] = [
                Token("name", piece, tok.pos, piece) for piece in pieces[1:]
            ]
            first = pieces[0]
            return self.count(Var(first, tok.pos) if first in self.variables
                              else Const(first, tok.pos))
        glued = self.glued_function(tok)
        if glued is not None:
            return glued
        if lowered in INFINITY_NAMES:
            raise FormatError(
                f"infinity ('{tok.raw}' at character {tok.pos}) is not an answer here: "
                f"type a number or an expression",
                tok.pos,
            )
        nxt = self.peek()
        raise self.vocabulary.unknown(tok, powered=nxt.kind == "op" and nxt.text == "^")

    def log_base(self, tok: Token) -> Node | None:
        """The base of ``log_b`` (``log_2``, ``log_{10}``, ``log_b`` with b declared)."""
        head, _, sub = tok.text.partition("_")
        if head.lower() != "log" or not sub or "_" in sub or tok.text in self.variables:
            return None
        if sub.isdigit():
            value = Fraction(int(sub))
            return self.count(Num(value, str(int(sub)), tok.pos)) if value > 0 else None
        if sub in self.variables:
            return self.count(Var(sub, tok.pos))
        if sub in self.constants:
            return self.count(Const(sub, tok.pos))
        return None

    def glued_function(self, tok: Token) -> Node | None:
        """A function glued to its argument: lnx, sinx, exptau."""
        name = tok.text
        for length in range(len(name) - 1, 1, -1):
            fn = self.vocabulary.function_for(name[:length])
            rest = name[length:]
            if fn is not None and fn not in self.functions and self.vocabulary.parenless_allowed(fn) \
                    and (rest in self.variables or rest in self.constants):
                arg: Node = Var(rest, tok.pos) if rest in self.variables else Const(rest, tok.pos)
                self.count(arg)
                node = self.count(Abs(arg, tok.pos) if fn == "abs" else Call(fn, (arg,), tok.pos))
                self.parenless = fn
                return node
        return None

    def power_prefix(self, tok: Token, fn: str) -> tuple[str, Token | None]:
        """``sin^2(x)`` (a small whole power) or ``sin^-1(x)`` (the inverse function)."""
        found = registry.find(fn) if fn not in self.functions else None
        nxt = self.peek()
        if not (nxt.kind == "op" and nxt.text == "^" and found is not None and found.powerable):
            return fn, None
        self.advance()
        bracketed = self.peek().kind == "open" and self.peek(1).kind == "op" \
            and self.peek(1).text == "-"
        if bracketed:
            self.advance()
        negative = self.peek().kind == "op" and self.peek().text == "-"
        if negative:
            self.advance()
        power = self.advance()
        if bracketed:
            if self.peek().kind != "close":
                raise FormatError(f"after '{tok.raw}^(-' only 1 may come, as in sin^(-1)(x)",
                                  power.pos)
            self.advance()
        if negative:
            if power.kind == "num" and power.value == 1 and found.inverse is not None:
                return found.inverse, None
            raise FormatError(
                f"'{tok.raw}^-1' at character {tok.pos} would be the inverse function; "
                f"only -1 may come after '{tok.raw}^-'" if found.inverse is not None else
                f"'{tok.raw}' at character {tok.pos} has no inverse written with ^-1",
                power.pos,
            )
        if power.kind != "num" or power.value is None or power.value.denominator != 1 \
                or not 1 <= power.value <= 9:
            raise FormatError(
                f"after '{tok.raw}^' only a small whole number may come (as in sin^2(x)), "
                f"at character {power.pos}",
                power.pos,
            )
        return fn, power

    def call(self, tok: Token, fn: str, base: Node | None = None,
             base_is_e: bool = False) -> Node:
        fn, power = self.power_prefix(tok, fn)
        low, high = self.vocabulary.arity(fn)
        if base is not None:
            low = high = 1
        nxt = self.peek()
        parenless = False
        if nxt.kind == "open":
            args = self.arguments(tok, fn, low, high)
        else:
            if not self.vocabulary.parenless_allowed(fn) or base is not None:
                raise FormatError(
                    f"'{tok.raw}' at character {tok.pos} is a function: write "
                    f"{tok.raw}(...) with brackets",
                    tok.pos,
                )
            if nxt.kind in ("end", "close", "comma", "bang") or (
                nxt.kind == "op" and nxt.text in "*/^"
            ) or (nxt.kind == "bar" and self.abs_depth > 0):
                raise FormatError(
                    f"'{tok.raw}' at character {tok.pos} needs an argument, as in {fn}(2)",
                    tok.pos,
                )
            args = [self.expression(BP_UNARY)]
            parenless = True
        if base is not None and not base_is_e:
            args.append(base)
        node: Node
        if fn == "abs":
            node = self.count(Abs(args[0], tok.pos))
        else:
            node = self.count(Call(fn, tuple(args), tok.pos))
        if power is not None:
            assert power.value is not None  # noqa: S101 - checked in power_prefix
            exponent = self.count(Num(power.value, power.text, power.pos))
            node = self.count(Pow(node, exponent, tok.pos))
        if parenless:
            self.parenless = tok.raw
        return node

    def arguments(self, tok: Token, fn: str, low: int, high: int | None) -> list[Node]:
        open_tok = self.advance()
        want = _OPENERS[open_tok.text]
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
        while self.peek().kind == "comma" and (high is None or len(args) < high):
            self.advance()
            args.append(self.expression(0))
        self.abs_depth = saved
        takes = _arity_text(low, high)
        if self.peek().kind == "comma":
            comma = self.peek()
            raise FormatError(
                f"'{tok.raw}' takes {takes}: unexpected ',' at character {comma.pos}",
                comma.pos,
            )
        self.expect_close(open_tok, want)
        if len(args) < low:
            raise FormatError(f"'{tok.raw}' at character {tok.pos} takes {takes}", tok.pos)
        return args


def _arity_text(low: int, high: int | None) -> str:
    if high is None:
        return f"{low} or more arguments separated by commas"
    if low == high:
        return "one argument" if low == 1 else f"{low} arguments separated by commas"
    return f"{low} or {high} arguments"


def parse(
    text: str,
    *,
    variables: Sequence[str] = (),
    functions: Functions = (),
    list_functions: bool = False,
    offset: int = 0,
    max_length: int = MAX_LENGTH,
    infinity: bool = False,
    imaginary: str | None = None,
) -> Expr:
    """Read ``text`` as an expression in the declared ``variables`` and ``functions``.

    Raises FormatError (message for the student, 1-based ``position`` in their own text) for
    anything that is not a bounded expression of the whitelisted grammar; ValueError only for
    a bad declaration (an author's mistake). ``functions`` is a list of names (one argument
    each) or a table of name to argument count; a declared name that is an opt-in spelling of
    a built-in (``sigma``/``σ``) means that built-in (the sigmoid). ``offset`` shifts reported
    positions (for elements of a list); ``list_functions`` enables dot/sum/mean/len for
    references over list parameters; ``infinity`` accepts ``oo``, ``inf``, ``infty``, ``∞``;
    ``imaginary`` (``"i"`` or ``"j"``) reads that name as the imaginary unit and enables
    ``Re``, ``Im``, ``arg``, ``conj``.
    """
    if not isinstance(text, str):
        raise FormatError("empty answer", None)
    if len(text) > max_length:
        raise FormatError(f"the answer is too long (at most {max_length} characters)", None)
    if not text.strip():
        raise FormatError("empty answer", None)
    declared = frozenset(normalize_name(v) for v in variables)
    funcs = declared_functions(functions)
    for name in declared | set(funcs):
        if clashes_with_builtin(name):
            raise ValueError(f"'{name}' is a built-in function and cannot be declared")
    if declared & set(funcs):
        clash = ", ".join(sorted(declared & set(funcs)))
        raise ValueError(f"declared both as variable and function: {clash}")
    opted = {name: registry.OPT_IN[name] for name in funcs if name in registry.OPT_IN}
    undefined = {name: arity for name, arity in funcs.items() if name not in opted}
    tokens = rewrite_times_letter(tokenize(text, offset), declared)
    if imaginary is not None and imaginary not in ("i", "j"):
        raise ValueError("the imaginary unit is 'i' or 'j'")
    if imaginary is not None and imaginary in declared:
        raise ValueError(f"'{imaginary}' is the imaginary unit and cannot be declared")
    parser = _Parser(tokens, declared, undefined, opted, list_functions, infinity, imaginary)
    node = parser.parse()
    check_sizes(node)
    return Expr(node, text)
