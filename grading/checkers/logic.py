# ruff: noqa: RUF001, RUF002 - logic symbols are the point here
"""Logic answers: propositional formulas compared by their truth tables.

STACK's propositional logic (doc/en/Topics/Propositional_Logic.md: ``and``, ``or``, ``not``,
``nand``, ``nor``, ``xor``, ``xnor``, ``implies``, truth values, compared as Boolean functions)
and the usual symbols: ``and`` ``&`` ``&&`` ``∧`` ``/\\``; ``or`` ``|`` ``||`` ``∨`` ``\\/``;
``not`` ``~`` ``!`` ``¬``; ``implies`` ``->`` ``=>`` ``→``; ``iff`` ``<->`` ``<=>`` ``↔``;
``xor`` ``⊕``; ``nand``, ``nor``, ``xnor``; ``true``/``false`` (``T``/``F``, ``1``/``0``,
``⊤``/``⊥``). Binding, tightest first: not, and/nand, xor/xnor, or/nor, implies (to the
right), iff. Names are the part's declared ``variables``; an unknown word is invalid with its
position and the closest name or keyword. Two formulas are equal when they agree on every row
of the truth table of the part's variables (at most 12 variables, 4,096 rows). A wrong answer
can be shown a row where it differs (``show_counterexample``).
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import FormatError

__all__ = ["LogicAnswer", "LogicChecker", "read_formula"]

MAX_LOGIC_LENGTH = 500
MAX_VARIABLES = 12
_MAX_DEPTH = 40
_MAX_NODES = 300
_WORDS = {"and": "and", "or": "or", "not": "not", "xor": "xor", "implies": "implies",
          "iff": "iff", "nand": "nand", "nor": "nor", "xnor": "xnor", "true": "T", "false": "F",
          "T": "T", "F": "F"}
_SYMBOLS = [("<->", "iff"), ("<=>", "iff"), ("->", "implies"), ("=>", "implies"),
            ("&&", "and"), ("||", "or"), ("/\\", "and"), ("\\/", "or"), ("&", "and"),
            ("|", "or"), ("~", "not"), ("!", "not"), ("¬", "not"), ("∧", "and"), ("∨", "or"),
            ("→", "implies"), ("⇒", "implies"), ("↔", "iff"), ("⇔", "iff"), ("⊕", "xor"),
            ("⊤", "T"), ("⊥", "F"), ("(", "("), (")", ")"), ("1", "T"), ("0", "F")]
_LEVELS = [("iff",), ("implies",), ("or", "nor"), ("xor", "xnor"), ("and", "nand")]
_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)")

Formula = tuple[Any, ...]  # ("var", name) | ("const", bool) | ("not", f) | (op, f, g)


@dataclass(frozen=True)
class LogicAnswer(Answer):
    """The formula read, as a small tree."""

    formula: Formula = ()


def _tokens(raw: str, names: list[str]) -> list[tuple[str, int]]:
    tokens: list[tuple[str, int]] = []
    i = 0
    while i < len(raw):
        if raw[i].isspace():
            i += 1
            continue
        word = _TOKEN.match(raw, i)
        if word:
            text, at = word.group(1), word.start(1) + 1
            if text in names:
                tokens.append(("var:" + text, at))
            elif text.lower() in _WORDS or text in _WORDS:
                tokens.append((_WORDS.get(text, _WORDS.get(text.lower(), "")), at))
            else:
                close = difflib.get_close_matches(text, [*names, *_WORDS], n=1, cutoff=0.6)
                hint = f": did you mean '{close[0]}'?" if close else \
                    f" (the names here are {', '.join(names) or 'none'})"
                raise FormatError(f"unknown name '{text}' at character {at}{hint}", at)
            i = word.end()
            continue
        for symbol, kind in _SYMBOLS:
            if raw.startswith(symbol, i):
                tokens.append((kind, i + 1))
                i += len(symbol)
                break
        else:
            raise FormatError(f"unexpected '{raw[i]}' at character {i + 1}", i + 1)
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, int]], length: int) -> None:
        self.tokens = tokens
        self.k = 0
        self.length = length
        self.nodes = 0
        self.depth = 0

    def peek(self) -> tuple[str, int]:
        return self.tokens[self.k] if self.k < len(self.tokens) else ("end", self.length + 1)

    def formula(self, level: int = 0) -> Formula:
        if level == len(_LEVELS):
            return self.unary()
        left = self.formula(level + 1)
        while self.peek()[0] in _LEVELS[level]:
            op, _ = self.peek()
            self.k += 1
            right = self.formula(level if op == "implies" else level + 1)
            left = self.count((op, left, right))
            if op == "implies":
                break
        return left

    def unary(self) -> Formula:
        kind, at = self.peek()
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise FormatError(f"the formula is nested too deeply at character {at}", at)
        try:
            if kind == "not":
                self.k += 1
                return self.count(("not", self.unary()))
            if kind == "(":
                self.k += 1
                inner = self.formula()
                if self.peek()[0] != ")":
                    raise FormatError(f"missing ')' for the '(' at character {at}", at)
                self.k += 1
                return inner
            if kind.startswith("var:"):
                self.k += 1
                return self.count(("var", kind[4:]))
            if kind in ("T", "F"):
                self.k += 1
                return self.count(("const", kind == "T"))
            what = "the formula ends too early" if kind == "end" else f"unexpected '{kind}'"
            raise FormatError(f"{what} at character {at}", at)
        finally:
            self.depth -= 1

    def count(self, node: Formula) -> Formula:
        self.nodes += 1
        if self.nodes > _MAX_NODES:
            raise FormatError("the formula is too long", None)
        return node


def read_formula(raw: str, names: list[str]) -> Formula:
    """The formula ``raw`` over ``names``; FormatError with the position otherwise."""
    text = raw if isinstance(raw, str) else ""
    if len(text) > MAX_LOGIC_LENGTH:
        raise FormatError(f"the answer is too long (at most {MAX_LOGIC_LENGTH} characters)",
                          None)
    if not text.strip():
        raise FormatError("empty answer", None)
    parser = _Parser(_tokens(text, names), len(text))
    formula = parser.formula()
    kind, at = parser.peek()
    if kind != "end":
        raise FormatError(f"unexpected '{text[at - 1]}' at character {at}", at)
    return formula


_OPS: Mapping[str, Callable[[bool, bool], bool]] = {
    "and": lambda a, b: a and b, "or": lambda a, b: a or b, "xor": lambda a, b: a != b,
    "implies": lambda a, b: (not a) or b, "iff": lambda a, b: a == b,
    "nand": lambda a, b: not (a and b), "nor": lambda a, b: not (a or b),
    "xnor": lambda a, b: a == b,
}


def _value(formula: Formula, row: Mapping[str, bool]) -> bool:
    kind = formula[0]
    if kind == "var":
        return row[formula[1]]
    if kind == "const":
        return bool(formula[1])
    if kind == "not":
        return not _value(formula[1], row)
    return _OPS[kind](_value(formula[1], row), _value(formula[2], row))


def _differing_row(a: Formula, b: Formula, names: list[str]) -> dict[str, bool] | None:
    for values in itertools.product((False, True), repeat=len(names)):
        row = dict(zip(names, values, strict=True))
        if _value(a, row) != _value(b, row):
            return row
    return None


def _text(formula: Formula) -> str:
    kind = formula[0]
    if kind == "var":
        return str(formula[1])
    if kind == "const":
        return "true" if formula[1] else "false"
    if kind == "not":
        inner = _text(formula[1])
        return f"not {inner}"  # a binary formula's text is bracketed already
    return f"({_text(formula[1])} {kind} {_text(formula[2])})"


class LogicChecker(Checker[LogicAnswer]):
    """A propositional formula equal to the key on every row of the truth table."""

    type_name = "logic"
    spec_keys = frozenset({"show_counterexample"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> LogicAnswer:
        formula = read_formula(raw, names_of(spec, "variables"))
        text = _text(formula)
        canonical = text[1:-1] if text.startswith("(") and text.endswith(")") else text
        return LogicAnswer(raw=raw, canonical=canonical, latex="", formula=formula)

    def check(self, answer: LogicAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        names = names_of(spec, "variables")
        key = read_formula(str(spec["reference"]), names)
        row = _differing_row(answer.formula, key, names)
        if row is None:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        for item in misconception_list(spec):
            try:
                wrong = read_formula(str(item.get("answer", "")), names)
            except FormatError:
                continue
            if _differing_row(answer.formula, wrong, names) is None:
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], answer.canonical)
        message = feedback(spec, False)
        if spec.get("show_counterexample"):
            where = ", ".join(f"{n} = {'true' if v else 'false'}" for n, v in row.items())
            said = "true" if _value(answer.formula, row) else "false"
            message += f" For {where or 'these values'} your answer is {said}; it should not be."
        return Verdict(0.0, "incorrect", message, None, [], answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        return str(spec["reference"])

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        names = names_of(spec, "variables")
        if len(names) > MAX_VARIABLES:
            problems.append(f"at most {MAX_VARIABLES} variables")
        clash = [n for n in names if n.lower() in _WORDS or n in _WORDS]
        if clash:
            problems.append(f"variables may not be named like a keyword: {', '.join(clash)}")
        if not isinstance(spec.get("reference"), str):
            problems.append("'reference' must be a formula string")
        elif not problems:
            try:
                read_formula(spec["reference"], names)
            except FormatError as exc:
                problems.append(f"'reference' cannot be read: {exc.message}")
        if "show_counterexample" in spec and not isinstance(spec["show_counterexample"], bool):
            problems.append("'show_counterexample' must be true or false")
        problems += check_misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        names = names_of(spec, "variables")
        key = read_formula(str(spec["reference"]), names)
        problems = []
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                wrong = read_formula(str(item.get("answer", "")), names)
            except FormatError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc.message}")
                continue
            if _differing_row(wrong, key, names) is None:
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') is "
                                f"equivalent to the reference")
        return problems
