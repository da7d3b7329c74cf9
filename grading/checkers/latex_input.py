r"""LaTeX answers (and keys), where the part says ``latex = true``.

``\frac{1}{2}``, ``\sqrt{x}``, ``\sqrt[3]{x}``, ``x^{2}``, ``\sin\left(x\right)``, ``\cdot``,
``\times``, ``\pi``, Greek letters, ``\{1,2\}``, ``\left[0,1\right)``, ``2\times10^{3}``,
``\le``, ``\infty``, ``\pm``, ``\cup``, ``\mathbb{R}``, ``\land``/``\lor``/``\lnot``, ``\text{}``
and spacing commands are rewritten, by a small reader of our own, into the plain notation
the safe maths reader takes; the result goes through that same reader and the part's own
checker, so nothing is evaluated and every bound holds. Each plain character remembers the
LaTeX character it came from, so a refusal names the position in the student's own text. An
unknown command is refused with its position ("unknown LaTeX command '\foo' at character 3").
Math-Verify reads LaTeX with latex2sympy (a full LaTeX grammar into sympy); we translate the
school and university subset only, and only answers that contain a backslash or ``$``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from grading.checkers.base import Answer, Checker, Verdict
from grading.checkers.mathparse import FormatError
from grading.checkers.mathparse.characters import GREEK_NAMES

__all__ = ["LatexInput", "from_latex", "looks_like_latex"]

MAX_LATEX_LENGTH = 1000
_MAX_DEPTH = 40
_FRACTIONS = {"frac", "dfrac", "tfrac", "cfrac"}
_FUNCTIONS = {"sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh",
              "cosh", "tanh", "coth", "ln", "log", "lg", "exp", "det", "min", "max", "gcd"}
_SIMPLE = {
    "cdot": "*", "times": "*", "ast": "*", "div": "/", "pm": "±", "le": "<=", "leq": "<=",
    "leqslant": "<=", "ge": ">=", "geq": ">=", "geqslant": ">=", "ne": "!=", "neq": "!=",
    "lt": "<", "gt": ">", "infty": "oo", "emptyset": "{}", "varnothing": "{}", "cup": " U ",
    "land": " and ", "wedge": " and ", "lor": " or ", "vee": " or ", "lnot": " not ",
    "neg": " not ", "implies": " implies ", "Rightarrow": " implies ", "oplus": " xor ",
    "varepsilon": "epsilon", "varphi": "phi", "vartheta": "theta", "%": "%",
    "{": "{", "}": "}", ",": " ", ";": " ", "!": "", ":": " ", " ": " ", "quad": " ",
    "qquad": " ", "top": "true", "bot": "false",
}
_WRAPPERS = {"mathrm", "text", "textrm", "operatorname", "mathit", "mbox", "mathbf", "boldsymbol"}
_SIZES = {"left", "right", "bigl", "bigr", "Bigl", "Bigr", "big", "Big", "bigg", "Bigg",
          "biggl", "biggr"}
_DELIMITERS = {"(": "(", ")": ")", "[": "[", "]": "]", "|": "|", ".": ""}
_LATEX = re.compile(r"[\\$]")


def looks_like_latex(raw: str) -> bool:
    """True when ``raw`` has a backslash or ``$`` (plain answers are read as they are)."""
    return bool(_LATEX.search(raw))


class _Reader:
    def __init__(self, source: str) -> None:
        self.src = source
        self.i = 0
        self.out: list[str] = []
        self.origin: list[int] = []
        self.depth = 0

    def emit(self, text: str, at: int) -> None:
        self.out.append(text)
        self.origin.extend([at + 1] * len(text))

    def error(self, message: str, at: int) -> FormatError:
        return FormatError(f"{message} at character {at + 1}", at + 1)

    def run(self, closing: str | None = None) -> None:
        """Convert until the end, or until ``closing`` (consumed) at this level."""
        while self.i < len(self.src):
            ch, at = self.src[self.i], self.i
            if closing is not None and ch == closing:
                self.i += 1
                return
            if ch == "\\":
                self.command()
            elif ch == "{":
                self.group("(", ")")
            elif ch == "$":
                self.i += 1
            elif ch == "}":
                raise self.error("'}' closes nothing", at)
            else:
                self.emit(ch, at)
                self.i += 1
        if closing is not None:
            raise self.error(f"missing '{closing}'", len(self.src) - 1)

    def group(self, opening: str, closing: str) -> None:
        at = self.i
        if self.out and "".join(self.out)[-1:] == "_":  # a subscript stays as it is written
            end = self.src.find("}", at)
            if end < 0:
                raise self.error("missing '}'", at)
            self.emit(self.src[at:end + 1], at)
            self.i = end + 1
            return
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise self.error("the answer is nested too deeply", at)
        self.i += 1
        self.emit(opening, at)
        self.run("}")
        self.emit(closing, self.i - 1)
        self.depth -= 1

    def argument(self) -> None:
        """One argument: a {group}, a command, or one character (``\\frac12``)."""
        while self.i < len(self.src) and self.src[self.i].isspace():
            self.i += 1
        if self.i >= len(self.src):
            raise self.error("an argument is missing", len(self.src) - 1)
        at = self.i
        if self.src[at] == "{":
            self.group("(", ")")
        elif self.src[at] == "\\":
            self.emit("(", at)
            self.command()
            self.emit(")", at)
        else:
            self.emit(self.src[at], at)
            self.i += 1

    def command(self) -> None:
        at = self.i
        match = re.compile(r"\\([A-Za-z]+|.)").match(self.src, at)
        if match is None:
            raise self.error("a '\\' ends the answer", at)
        name = match.group(1)
        self.i = match.end()
        if name in _FRACTIONS:
            self.emit("((", at)
            self.argument()
            self.emit(")/(", at)
            self.argument()
            self.emit("))", at)
        elif name == "sqrt":
            self.root(at)
        elif name in _SIZES:
            self.delimiter(at)
        elif name in _WRAPPERS or name == "mathbb":
            self.plain_group(at)
        elif name in _SIMPLE:
            self.emit(_SIMPLE[name], at)
        elif name in _FUNCTIONS or name in GREEK_NAMES or name == "pi":
            self.emit(f" {name}" if self.out and self.out[-1][-1:].isalnum() else name, at)
        else:
            raise self.error(f"unknown LaTeX command '\\{name}'", at)

    def root(self, at: int) -> None:
        if not self.src.startswith("[", self.i):
            self.emit("sqrt(", at)
            self.argument()
            self.emit(")", at)
            return
        index = _Reader(self.src)  # \sqrt[n]{x} is root(x, n): the index is read first
        index.i, index.depth = self.i + 1, self.depth
        index.run("]")
        self.i = index.i
        self.emit("root((", at)
        self.argument()
        self.emit("),(", at)
        self.out.extend(index.out)
        self.origin.extend(index.origin)
        self.emit("))", at)

    def delimiter(self, at: int) -> None:
        while self.i < len(self.src) and self.src[self.i].isspace():
            self.i += 1
        if self.src.startswith("\\{", self.i) or self.src.startswith("\\}", self.i):
            self.emit(self.src[self.i + 1], self.i)
            self.i += 2
        elif self.i < len(self.src) and self.src[self.i] in _DELIMITERS:
            self.emit(_DELIMITERS[self.src[self.i]], self.i)
            self.i += 1
        else:
            raise self.error("\\left and \\right need a bracket after them", at)

    def plain_group(self, at: int) -> None:
        if not self.src.startswith("{", self.i):
            raise self.error("a '{' is missing after the command", at)
        self.i += 1
        self.run("}")


def from_latex(text: str) -> tuple[str, list[int]]:
    """The plain reading of LaTeX ``text`` and, for each of its characters, the 1-based
    position of the LaTeX character it came from. FormatError (with the position) for what
    cannot be read."""
    if len(text) > MAX_LATEX_LENGTH:
        raise FormatError(f"the answer is too long (at most {MAX_LATEX_LENGTH} characters)",
                          None)
    reader = _Reader(text)
    reader.run()
    return "".join(reader.out), reader.origin


def _moved(exc: FormatError, origin: list[int], length: int) -> FormatError:
    """``exc`` with its positions in the LaTeX text the student typed."""
    def where(position: int) -> int:
        return origin[position - 1] if 0 < position <= len(origin) else length + 1

    message = re.sub(r"character (\d+)", lambda m: f"character {where(int(m.group(1)))}",
                     exc.message)
    position = where(exc.position) if exc.position else exc.position
    return FormatError(message, position)


def _plain_spec(spec: Mapping[str, Any]) -> Mapping[str, Any]:
    reference = spec.get("reference")
    if isinstance(reference, str) and looks_like_latex(reference):
        return {**spec, "reference": from_latex(reference)[0]}
    return spec


class LatexInput(Checker[Any]):
    """A part's checker, reading LaTeX answers and keys first (``latex = true``)."""

    type_name = "latex"

    def __init__(self, inner: Checker[Any]) -> None:
        self.inner = inner

    def parse(self, raw: str, spec: Mapping[str, Any]) -> Answer:
        if not isinstance(raw, str) or not looks_like_latex(raw):
            return self.inner.parse(raw, spec)
        text, origin = from_latex(raw)
        try:
            return self.inner.parse(text, spec)
        except FormatError as exc:
            raise _moved(exc, origin, len(raw)) from None

    def check(self, answer: Answer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        return self.inner.check(answer, _plain_spec(spec), params)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        return self.inner.reference_answer(_plain_spec(spec), params)

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        try:
            plain = _plain_spec(spec)
        except FormatError as exc:
            return [f"'reference' cannot be read as LaTeX: {exc.message}"]
        problems = self.inner.validate_spec(plain)
        if not isinstance(spec.get("latex"), bool):
            problems.append("'latex' must be true or false")
        return problems

    def self_check(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
        return self.inner.self_check(_plain_spec(spec), params)

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        return self.inner.misconception_problems(_plain_spec(spec), params)
