"""Choice answers: one option key, or several comma-separated keys when ``multiple``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Outcome,
    Verdict,
    check_misconception_shapes,
    feedback,
    misconception_list,
)
from grading.checkers.mathparse import FormatError

__all__ = ["ChoiceAnswer", "ChoiceChecker"]

MAX_CHOICE_LENGTH = 1000


@dataclass(frozen=True)
class ChoiceAnswer(Answer):
    """The chosen option keys, in the spec's spelling, without repeats."""

    keys: tuple[str, ...] = ()


def _option_keys(spec: Mapping[str, Any]) -> list[str]:
    options = spec.get("options") or []
    return [str(o["key"]) for o in options if isinstance(o, Mapping) and "key" in o]


def _correct_keys(spec: Mapping[str, Any]) -> set[str]:
    value = spec.get("correct") or []
    if isinstance(value, str):
        value = [value]
    return {str(v) for v in value}


class ChoiceChecker(Checker[ChoiceAnswer]):
    """Single or multiple choice, with optional partial credit."""

    type_name = "choice"
    spec_keys = frozenset({"options", "correct", "multiple", "partial"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> ChoiceAnswer:
        raw = raw or ""
        if len(raw) > MAX_CHOICE_LENGTH:
            raise FormatError("the answer is too long", None)
        pieces = [p for p in re.split(r"[,;\s]+", raw.strip()) if p]
        if not pieces:
            raise FormatError("empty answer: choose an option", None)
        keys = _option_keys(spec)
        by_lower: dict[str, str] = {}
        for option in keys:
            by_lower.setdefault(option.lower(), option)
        chosen: list[str] = []
        for piece in pieces:
            key = piece if piece in keys else by_lower.get(piece.lower())
            if key is None:
                choices = ", ".join(keys)
                raise FormatError(f"unknown option '{piece}': choose from {choices}", None)
            if key not in chosen:
                chosen.append(key)
        if len(chosen) > 1 and not spec.get("multiple"):
            raise FormatError("choose exactly one option", None)
        order = {key: i for i, key in enumerate(keys)}
        chosen.sort(key=order.__getitem__)
        canonical = ", ".join(chosen)
        return ChoiceAnswer(raw=raw, canonical=canonical, latex="", keys=tuple(chosen))

    def check(self, answer: ChoiceAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        correct = _correct_keys(spec)
        chosen = set(answer.keys)
        if chosen == correct:
            return Verdict(1.0, "correct", feedback(spec, True), None, [], answer.canonical)
        misconception = next(
            (m for m in misconception_list(spec) if str(m.get("answer")) in chosen), None
        )
        score = 0.0
        if spec.get("multiple") and spec.get("partial") and correct:
            right = len(chosen & correct)
            wrong = len(chosen - correct)
            score = max(0.0, (right - wrong) / len(correct))
        outcome: Outcome = "partial" if score > 0 else "incorrect"
        if misconception is not None:
            return Verdict(score, outcome, str(misconception.get("feedback", "")),
                           str(misconception.get("tag")), [], answer.canonical)
        return Verdict(score, outcome, feedback(spec, False), None, [], answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        correct = _correct_keys(spec)
        return ", ".join(k for k in _option_keys(spec) if k in correct)

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        options = spec.get("options")
        if not isinstance(options, list) or not options:
            problems.append("'options' must be a non-empty list of {key, text} tables")
            options = []
        keys: list[str] = []
        for index, option in enumerate(options, start=1):
            if not isinstance(option, Mapping):
                problems.append(f"'options' entry {index} must be a table")
                continue
            for extra in sorted(set(option) - {"key", "text"}):
                problems.append(f"'options' entry {index}: unknown key '{extra}'")
            key, text = option.get("key"), option.get("text")
            if not isinstance(key, str) or not re.fullmatch(r"[^\s,;]+", key):
                problems.append(f"'options' entry {index} needs a 'key' without spaces or "
                                f"commas")
            elif key.lower() in {k.lower() for k in keys}:
                problems.append(f"'options' key '{key}' appears twice")
            else:
                keys.append(key)
            if not isinstance(text, str) or not text.strip():
                problems.append(f"'options' entry {index} needs a 'text'")
        correct = spec.get("correct")
        if not isinstance(correct, list) or not correct or \
                not all(isinstance(c, str) for c in correct):
            problems.append("'correct' must be a non-empty list of option keys")
        else:
            for key in correct:
                if key not in keys:
                    problems.append(f"'correct' names '{key}', which is not an option")
            if len(correct) > 1 and not spec.get("multiple"):
                problems.append("'correct' has several keys but 'multiple' is false")
        for flag in ("multiple", "partial"):
            if flag in spec and not isinstance(spec[flag], bool):
                problems.append(f"'{flag}' must be true or false")
        problems += check_misconception_shapes(spec)
        for index, item in enumerate(misconception_list(spec), start=1):
            if str(item.get("answer")) not in keys:
                problems.append(f"'misconceptions' entry {index}: answer '{item.get('answer')}' "
                                f"is not an option key")
            elif isinstance(correct, list) and item.get("answer") in correct:
                problems.append(f"'misconceptions' entry {index}: answer "
                                f"'{item.get('answer')}' is a correct option")
        return problems
