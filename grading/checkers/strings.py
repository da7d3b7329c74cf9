"""String answers (``type = "string"``): a word or short phrase, compared as text.

The answer and every accepted string are read with Unicode NFKC (full-width letters are
letters), then, unless the spec says otherwise, compared case-insensitively with spaces
trimmed and runs of spaces read as one (``whitespace = "trim"``; ``"exact"`` keeps them,
``"ignore"`` removes them all: STACK's StringSloppy). ``reference`` is one accepted string or
a list of them; ``pattern`` is an author's regular expression that the whole answer must
match, run on RE2 (google-re2), whose matching time is linear in the answer, so no pattern
and no answer can hang a worker. ``max_distance`` accepts answers within that many
single-character edits (Levenshtein) of an accepted string, computed in a band of that
width (cost grows with the answer times the distance, never quadratically).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import re2

from grading.checkers.base import (
    MISCONCEPTION_KEYS,
    Answer,
    Checker,
    Verdict,
    feedback,
    misconception_list,
)
from grading.checkers.mathparse import FormatError

__all__ = ["WHITESPACE_RULES", "StringAnswer", "StringChecker", "edit_distance"]

WHITESPACE_RULES = ("trim", "exact", "ignore")
MAX_STRING_LENGTH = 1000
MAX_PATTERN_LENGTH = 2000
MAX_DISTANCE = 10
_PATTERN_MEMORY = 8 << 20  # RE2's budget for one compiled pattern (bytes)


@dataclass(frozen=True)
class StringAnswer(Answer):
    """The answer as compared (normalised)."""

    text: str = ""


def _normalize(text: str, spec: Mapping[str, Any]) -> str:
    text = unicodedata.normalize("NFKC", text)
    rule = spec.get("whitespace", "trim")
    if rule == "ignore":
        text = "".join(text.split())
    elif rule == "trim":
        text = " ".join(text.split())
    if not spec.get("case_sensitive", False):
        text = text.casefold()
    return text


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str, case_sensitive: bool) -> Any:
    options = re2.Options()
    options.max_mem = _PATTERN_MEMORY
    options.case_sensitive = case_sensitive
    options.log_errors = False
    return re2.compile(pattern, options)


def pattern_problem(pattern: object) -> str | None:
    """Why ``pattern`` is not an RE2 expression we accept, or None."""
    if not isinstance(pattern, str) or not pattern:
        return "a pattern must be a non-empty string"
    if len(pattern) > MAX_PATTERN_LENGTH:
        return f"a pattern may have at most {MAX_PATTERN_LENGTH} characters"
    try:
        _compiled(pattern, True)
    except re2.error as exc:
        detail = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) \
            else str(exc)
        return f"the pattern {pattern!r} is not a regular expression RE2 accepts: {detail}"
    return None


def edit_distance(a: str, b: str, limit: int) -> int | None:
    """The Levenshtein distance of ``a`` and ``b`` if it is at most ``limit``, else None
    (a band of width 2·limit+1 around the diagonal: O(len · limit))."""
    if abs(len(a) - len(b)) > limit:
        return None
    big = limit + 1
    previous = {j: j for j in range(min(len(b), limit) + 1)}
    for i in range(1, len(a) + 1):
        current = {}
        low, high = max(0, i - limit), min(len(b), i + limit)
        for j in range(low, high + 1):
            if j == 0:
                current[j] = i
                continue
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous.get(j, big) + 1, current.get(j - 1, big) + 1,
                             previous.get(j - 1, big) + cost)
        if min(current.values(), default=big) > limit:
            return None
        previous = current
    distance = previous.get(len(b), big)
    return distance if distance <= limit else None


def _accepted(spec_or_item: Mapping[str, Any], key: str) -> list[str]:
    value = spec_or_item.get(key)
    if value is None:
        return []
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]


class StringChecker(Checker[StringAnswer]):
    """Text equal to an accepted string (normalised), matching the pattern, or within the
    edit distance."""

    type_name = "string"
    spec_keys = frozenset({"pattern", "case_sensitive", "whitespace", "max_distance"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> StringAnswer:
        raw = raw or ""
        if len(raw) > MAX_STRING_LENGTH:
            raise FormatError(f"the answer is too long (at most {MAX_STRING_LENGTH} "
                              f"characters)", None)
        text = _normalize(raw, spec)
        if not text.strip():
            raise FormatError("empty answer", None)
        return StringAnswer(raw=raw, canonical=text, latex="", text=text)

    def _matches(self, text: str, item: Mapping[str, Any], spec: Mapping[str, Any],
                 answer_key: str) -> tuple[bool, bool]:
        """(matches, exactly): whether ``text`` is accepted by ``item``'s strings/pattern."""
        strings = [_normalize(s, spec) for s in _accepted(item, answer_key)]
        if text in strings:
            return True, True
        pattern = item.get("pattern")
        case_sensitive = bool(spec.get("case_sensitive", False))
        if isinstance(pattern, str) and pattern and _compiled(pattern, case_sensitive) \
                .fullmatch(text) is not None:
            return True, True
        limit = spec.get("max_distance", 0)
        if isinstance(limit, int) and limit > 0 and any(
                edit_distance(text, s, limit) is not None for s in strings):
            return True, False
        return False, False

    def check(self, answer: StringAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        matched, exactly = self._matches(answer.text, spec, spec, "reference")
        if matched:
            message = feedback(spec, True)
            if not exactly and "feedback_correct" not in spec:
                message = f"{message} (Accepted with a small spelling difference.)"
            return Verdict(1.0, "correct", message, None, [], answer.canonical)
        for item in misconception_list(spec):
            if self._matches(answer.text, item, {**spec, "max_distance": 0}, "answer")[0]:
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], answer.canonical)
        return Verdict(0.0, "incorrect", feedback(spec, False), None, [], answer.canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        accepted = _accepted(spec, "reference")
        if not accepted:
            raise ValueError("a part with only a 'pattern' has no key to write out")
        return accepted[0]

    def self_check(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
        if not _accepted(spec, "reference"):  # pattern only: nothing to write out
            problems = self.validate_spec(spec)
            return problems or self.misconception_problems(spec, params)
        return super().self_check(spec, params)

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        reference = spec.get("reference")
        if reference is None and "pattern" not in spec:
            problems.append("a string part needs 'reference' (accepted strings) or 'pattern'")
        if reference is not None and not _strings(reference):
            problems.append("'reference' must be a string or a non-empty list of strings")
        if "pattern" in spec:
            problem = pattern_problem(spec["pattern"])
            if problem:
                problems.append(f"'pattern': {problem}")
        if "case_sensitive" in spec and not isinstance(spec["case_sensitive"], bool):
            problems.append("'case_sensitive' must be true or false")
        if spec.get("whitespace", "trim") not in WHITESPACE_RULES:
            problems.append(f"'whitespace' must be one of {', '.join(WHITESPACE_RULES)}")
        limit = spec.get("max_distance", 0)
        if isinstance(limit, bool) or not isinstance(limit, int) \
                or not 0 <= limit <= MAX_DISTANCE:
            problems.append(f"'max_distance' must be a whole number from 0 to {MAX_DISTANCE}")
        problems += _misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        for index, item in enumerate(misconception_list(spec), start=1):
            for text in _accepted(item, "answer"):
                if self._matches(_normalize(text, spec), spec, spec, "reference")[0]:
                    problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') "
                                    f"would be graded correct")
                    break
        return problems


def _strings(value: object) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    return isinstance(value, list) and bool(value) and all(
        isinstance(v, str) and v.strip() for v in value)


def _misconception_shapes(spec: Mapping[str, Any]) -> list[str]:
    if "misconceptions" not in spec:
        return []
    value = spec["misconceptions"]
    if not isinstance(value, list):
        return ["'misconceptions' must be a list of tables"]
    problems: list[str] = []
    allowed = MISCONCEPTION_KEYS | {"answer", "pattern"}
    for index, item in enumerate(value, start=1):
        where = f"'misconceptions' entry {index}"
        if not isinstance(item, Mapping):
            problems.append(f"{where} must be a table")
            continue
        problems += [f"{where}: unknown key '{key}'" for key in sorted(set(item) - allowed)]
        if not isinstance(item.get("tag"), str) or not item.get("tag"):
            problems.append(f"{where} needs a 'tag' string")
        if not isinstance(item.get("feedback"), str):
            problems.append(f"{where} needs a 'feedback' string")
        if "answer" not in item and "pattern" not in item:
            problems.append(f"{where} needs 'answer' (strings) or 'pattern'")
        if "answer" in item and not _strings(item["answer"]):
            problems.append(f"{where}: 'answer' must be a string or a list of strings")
        if "pattern" in item:
            problem = pattern_problem(item["pattern"])
            if problem:
                problems.append(f"{where}: {problem}")
    return problems
