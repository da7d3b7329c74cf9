"""Moodle calculated-question formulas, translated into the service's maths grammar.

A formula is read token by token into a small tree (numbers, `{wildcards}`, + - * / and
brackets, and an allowlist of functions) and written back in the service's spelling:
`pow(a, b)` becomes `(a)^(b)`, `pi()` becomes `pi`, `log(x)` (natural in Moodle) becomes
`ln(x)`. Nothing is evaluated here; anything outside the allowlist is a `FormulaError`.
The result is a reference expression that the checkers read with their own safe reader.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

MAX_FORMULA_LENGTH = 2000

#: Moodle function name -> (service name, number of arguments allowed).
FUNCTIONS: dict[str, tuple[str, tuple[int, ...]]] = {
    "abs": ("abs", (1,)), "acos": ("acos", (1,)), "acosh": ("acosh", (1,)),
    "asin": ("asin", (1,)), "asinh": ("asinh", (1,)), "atan": ("atan", (1,)),
    "atanh": ("atanh", (1,)), "atan2": ("atan2", (2,)), "ceil": ("ceil", (1,)),
    "cos": ("cos", (1,)), "cosh": ("cosh", (1,)), "exp": ("exp", (1,)),
    "floor": ("floor", (1,)), "log": ("ln", (1,)), "log10": ("log10", (1,)),
    "max": ("max", (2, 3, 4, 5, 6, 7, 8)), "min": ("min", (2, 3, 4, 5, 6, 7, 8)),
    "sin": ("sin", (1,)), "sinh": ("sinh", (1,)), "sqrt": ("sqrt", (1,)),
    "tan": ("tan", (1,)), "tanh": ("tanh", (1,)), "pow": ("pow", (2,)), "pi": ("pi", (0,)),
}

_TOKEN = re.compile(r"\s*(?:(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
                    r"|\{(?P<wild>[A-Za-z_][A-Za-z0-9_]*)\}"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<op>\*\*|[-+*/(),]))")


class FormulaError(ValueError):
    """The formula uses something the service cannot read (named in the message)."""


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    position: int


def _tokens(formula: str) -> list[_Token]:
    out: list[_Token] = []
    position = 0
    stripped = formula.rstrip()
    while position < len(stripped):
        match = _TOKEN.match(stripped, position)
        if match is None or match.end() == position:
            raise FormulaError(f"'{stripped[position:].strip()[:20]}' at character "
                               f"{position + 1} is not part of a formula the service reads")
        kind = match.lastgroup or ""
        out.append(_Token(kind, match.group(kind), match.start(kind) + 1))
        position = match.end()
    return out


class _Reader:
    """Recursive descent over the tokens, writing the service's spelling as it goes."""

    def __init__(self, tokens: list[_Token], name_of: Callable[[str], str]) -> None:
        self.tokens = tokens
        self.at = 0
        self.name_of = name_of
        self.wildcards: list[str] = []

    def peek(self) -> _Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, text: str | None = None) -> _Token:
        token = self.peek()
        if token is None:
            raise FormulaError("the formula ends too early")
        if text is not None and token.text != text:
            raise FormulaError(f"expected '{text}' at character {token.position}, "
                               f"found '{token.text}'")
        self.at += 1
        return token

    def sum(self) -> str:
        out = self.product()
        while (token := self.peek()) is not None and token.text in "+-" and token.kind == "op":
            self.take()
            out = f"{out} {token.text} {self.product()}"
        return out

    def product(self) -> str:
        out = self.power()
        while (token := self.peek()) is not None and token.text in ("*", "/"):
            self.take()
            out = f"{out}{token.text}{self.power()}"
        return out

    def power(self) -> str:
        base = self.unary()
        token = self.peek()
        if token is not None and token.text == "**":
            self.take()
            return f"({base})^({self.power()})"
        return base

    def unary(self) -> str:
        token = self.peek()
        if token is not None and token.text in ("-", "+"):
            self.take()
            return f"{'-' if token.text == '-' else ''}{self.unary()}"
        return self.atom()

    def atom(self) -> str:
        token = self.take()
        if token.kind == "number":
            return token.text
        if token.kind == "wild":
            if token.text not in self.wildcards:
                self.wildcards.append(token.text)
            return self.name_of(token.text)
        if token.text == "(":
            inner = self.sum()
            self.take(")")
            return f"({inner})"
        if token.kind == "name":
            return self.call(token)
        raise FormulaError(f"unexpected '{token.text}' at character {token.position}")

    def call(self, token: _Token) -> str:
        name = token.text.lower()
        if name not in FUNCTIONS:
            raise FormulaError(f"the function '{token.text}' (character {token.position}) "
                               "has no equivalent here")
        service, counts = FUNCTIONS[name]
        self.take("(")
        args: list[str] = []
        if (following := self.peek()) is not None and following.text != ")":
            args.append(self.sum())
            while (following := self.peek()) is not None and following.text == ",":
                self.take()
                args.append(self.sum())
        self.take(")")
        if len(args) not in counts:
            raise FormulaError(f"'{token.text}' takes {' or '.join(map(str, counts))} "
                               f"argument(s), not {len(args)}")
        if service == "pi":
            return "pi"
        if service == "pow":
            return f"({args[0]})^({args[1]})"
        return f"{service}({', '.join(args)})"


def translate(formula: str, name_of: Callable[[str], str] = lambda name: name) -> tuple[str, list[str]]:
    """The service's spelling of a Moodle `formula` and the wildcards it uses, in order.

    `name_of` maps a wildcard's name to the parameter name it becomes. Raises FormulaError
    for anything outside the grammar (unknown functions, `%`, strings, assignments).
    """
    if len(formula) > MAX_FORMULA_LENGTH:
        raise FormulaError(f"the formula is longer than {MAX_FORMULA_LENGTH} characters")
    tokens = _tokens(formula)
    if not tokens:
        raise FormulaError("the formula is empty")
    reader = _Reader(tokens, name_of)
    out = reader.sum()
    if (left := reader.peek()) is not None:
        raise FormulaError(f"unexpected '{left.text}' at character {left.position}")
    return out, reader.wildcards
