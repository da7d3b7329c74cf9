"""± in answers and keys: a value written with ± stands for the set of its two values.

``3 ± 2`` is {1, 5}; ``(-b ± sqrt(b^2 - 4*a*c))/(2*a)`` the two roots (STACK's ``+-``
operator, expanded to a set by its answer tests; WeBWorK's "plus or minus" answers). Each ±
(also typed ``+-`` or ``+/-``) is one sign then the other, independently, at most three of
them. An answer and a key are compared as sets, each value by the part's own rule (numeric
tolerance, symbolic equivalence): every value of the answer must be a value of the key and
every value of the key must be given. One value for a ± key, or a ± answer for a one-value
key, is incorrect with a message saying so. Signs are replaced in place, so positions in
messages stay the student's own.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import Answer, Checker, Verdict, feedback
from grading.checkers.mathparse import FormatError
from grading.checkers.numeric import NumericChecker
from grading.checkers.symbolic import SymbolicChecker

__all__ = ["MAX_SIGNS", "PlusMinusAnswer", "PlusMinusNumeric", "PlusMinusSymbolic",
           "expansions"]

MAX_SIGNS = 3
_SIGN = re.compile(r"±|\+/-|\+-")


def expansions(text: str) -> list[str] | None:
    """The texts ``text`` stands for, one per choice of signs (None without ±). Raises
    FormatError, with the position, beyond MAX_SIGNS signs."""
    matches = list(_SIGN.finditer(text))
    if not matches:
        return None
    if len(matches) > MAX_SIGNS:
        position = matches[MAX_SIGNS].start() + 1
        raise FormatError(f"at most {MAX_SIGNS} ± signs in one answer (one more at character "
                          f"{position})", position)
    texts = []
    for signs in itertools.product("+-", repeat=len(matches)):
        pieces, last = [], 0
        for match, sign in zip(matches, signs, strict=True):
            pieces += [text[last:match.start()], sign.rjust(len(match.group(0)))]
            last = match.end()
        texts.append("".join(pieces) + text[last:])
    return texts


@dataclass(frozen=True)
class PlusMinusAnswer(Answer):
    """An answer written with ±: its values, each read by the part's own checker."""

    answers: tuple[Answer, ...] = ()


class _PlusMinus(Checker[Any]):
    """Reads ± around the checker it is mixed into (listed first among the bases)."""

    def parse(self, raw: str, spec: Mapping[str, Any]) -> Answer:
        texts = expansions(raw) if isinstance(raw, str) else None
        if texts is None:
            return super().parse(raw, spec)  # type: ignore[safe-super]
        answers = tuple(super(_PlusMinus, self).parse(text, spec)  # type: ignore[safe-super]
                        for text in texts)
        canonical = _SIGN.sub("±", " ".join(raw.split()))
        return PlusMinusAnswer(raw=raw, canonical=canonical, latex=canonical.replace(
            "±", r"\pm "), answers=answers)

    def check(self, answer: Answer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        keys = _keys(spec)
        if keys is None and not isinstance(answer, PlusMinusAnswer):
            return super().check(answer, spec, params)  # type: ignore[safe-super]
        key_specs: list[Mapping[str, Any]] = [{**spec, "reference": key} for key in keys] \
            if keys else [spec]
        values = answer.answers if isinstance(answer, PlusMinusAnswer) else (answer,)
        meets = [[self._correct(value, key_spec, params) for key_spec in key_specs]
                 for value in values]
        every_value = all(any(row) for row in meets)
        every_key = all(any(row[k] for row in meets) for k in range(len(key_specs)))
        if every_value and every_key:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        message = feedback(spec, False)
        if keys and not isinstance(answer, PlusMinusAnswer):
            message += " There is more than one value: write them with ±."
        elif not keys:
            message += " Your answer has more than one value (±); one is expected."
        return Verdict(0.0, "incorrect", message, None, [], answer.canonical)

    def _correct(self, value: Answer, spec: Mapping[str, Any],
                 params: Mapping[str, Any] | None) -> bool:
        verdict = super().check(value, spec, params)  # type: ignore[safe-super]
        return verdict.outcome == "correct"

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        keys = _keys(spec)
        if not keys:
            return super().reference_answer(spec, params)  # type: ignore[safe-super]
        if len(keys) != 2:
            raise ValueError("a key with more than one ± has no one-± form to show")
        first, second = (super(_PlusMinus, self).reference_answer(  # type: ignore[safe-super]
            {**spec, "reference": key}, params) for key in keys)
        return f"(({first}) + ({second}))/2 ± (({first}) - ({second}))/2"

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        try:
            keys = _keys(spec)
        except FormatError as exc:
            return [f"'reference': {exc.message}"]
        return super().validate_spec({**spec, "reference": keys[0]} if keys else spec)

    def self_check(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
        if _keys(spec) is None:
            return super().self_check(spec, params)
        return Checker.self_check(self, spec, params)

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        if _keys(spec) is None:
            return super().misconception_problems(spec, params)
        return []  # a misconception may be one of the two values


def _keys(spec: Mapping[str, Any]) -> list[str] | None:
    reference = spec.get("reference")
    return expansions(reference) if isinstance(reference, str) else None


class PlusMinusNumeric(_PlusMinus, NumericChecker):  # type: ignore[misc]
    """A numeric part whose answer or key may carry ±."""


class PlusMinusSymbolic(_PlusMinus, SymbolicChecker):  # type: ignore[misc]
    """A symbolic part whose answer or key may carry ±."""
