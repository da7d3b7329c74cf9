"""Text answers: short explanations graded against a rubric of concepts and their phrasings.

Matching is deliberately simple and explainable: the answer and each phrasing are lowercased,
stripped of punctuation (hyphens become spaces) and split into words; a phrasing is found when
its words appear in order, at most two other words apart, where a word matches the same word,
a simple inflection of it (vanish/vanishes/vanishing, gradient/gradients, dependency/
dependencies) or a longer word it begins (5+ letters: parallel -> parallelism). There is no
negation handling: "not parallel" contains "parallel". Answers the rubric cannot decide go to
a person when the spec says so (``review = "undecided"``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Outcome,
    Verdict,
    check_misconception_shapes,
    feedback,
    is_number,
    misconception_list,
)
from grading.checkers.mathparse import FormatError

__all__ = ["TextAnswer", "TextChecker", "find_phrase", "normalize_words"]

MAX_TEXT_LENGTH = 5000
MIN_WORDS = 5  # shorter answers are "undecided" (a bare list of keywords is not an explanation)
MAX_WORDS = 300  # longer answers are "undecided" (keyword stuffing)
MAX_GAP = 2  # other words allowed between the words of a phrasing
PREFIX_MIN = 5  # a phrasing word this long also matches longer words it begins
REVIEW_MODES = ("never", "undecided", "always")
_SUFFIXES = (
    "izations", "ization", "isations", "isation", "ations", "ation", "ities", "ity",
    "nesses", "ness", "ments", "ment", "isms", "ism", "ingly", "ings", "ing", "edly", "ed",
    "ies", "es", "s", "ly",
)
REVIEW_FEEDBACK = "Your answer has been saved and will be reviewed by a teacher."


def normalize_words(text: str) -> list[str]:
    """Lowercase words without punctuation; hyphens and underscores separate words."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"['\u2019\u2018`]", "", text)  # don't -> dont
    text = re.sub(r"[\W_]+", " ", text)
    return text.split()


@lru_cache(maxsize=4096)
def _forms(word: str) -> frozenset[str]:
    """The word and the stems its simple inflections share."""
    forms = {word}
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            forms.add(stem)
            if suffix == "ies":
                forms.add(stem + "y")
            if suffix in ("ing", "ed", "es", "ation", "ations"):
                forms.add(stem + "e")
    return frozenset(forms)


def _word_matches(answer_word: str, phrase_word: str) -> bool:
    if answer_word == phrase_word:
        return True
    answer_forms, phrase_forms = _forms(answer_word), _forms(phrase_word)
    if answer_forms & phrase_forms:
        return True
    return any(len(p) >= PREFIX_MIN and answer_word.startswith(p) for p in phrase_forms)


def find_phrase(words: Sequence[str], phrase: Sequence[str]) -> bool:
    """True if the phrase's words occur in ``words`` in order, at most MAX_GAP apart."""
    if not phrase:
        return False

    def match_from(k: int, start: int, end: int) -> bool:
        if k == len(phrase):
            return True
        for i in range(start, min(end, len(words))):
            if _word_matches(words[i], phrase[k]) and match_from(k + 1, i + 1, i + 2 + MAX_GAP):
                return True
        return False

    return any(
        _word_matches(w, phrase[0]) and match_from(1, i + 1, i + 2 + MAX_GAP)
        for i, w in enumerate(words)
    )


@dataclass(frozen=True)
class TextAnswer(Answer):
    """The normalised words of the answer."""

    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Concept:
    key: str
    points: float
    phrasings: tuple[tuple[str, ...], ...]
    feedback_missing: str


def _concepts(spec: Mapping[str, Any]) -> list[_Concept]:
    out = []
    for item in spec.get("rubric") or []:
        if not isinstance(item, Mapping):
            continue
        phrasings = tuple(tuple(normalize_words(p)) for p in item.get("phrasings") or []
                          if isinstance(p, str))
        out.append(_Concept(str(item.get("key")), float(item.get("points", 1)),
                            tuple(p for p in phrasings if p),
                            str(item.get("feedback_missing") or "")))
    return out


def _found(words: Sequence[str], phrasings: Sequence[Sequence[str]]) -> bool:
    return any(find_phrase(words, p) for p in phrasings)


class TextChecker(Checker[TextAnswer]):
    """Rubric concepts found by phrasing, partial credit, and review for undecided answers."""

    type_name = "text"
    spec_keys = frozenset({"rubric", "pass_score", "review", "review_rubric"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> TextAnswer:
        raw = raw or ""
        if len(raw) > MAX_TEXT_LENGTH:
            raise FormatError(f"the answer is too long (at most {MAX_TEXT_LENGTH} characters)",
                              None)
        words = normalize_words(raw)
        if not words:
            raise FormatError("empty answer", None)
        return TextAnswer(raw=raw, canonical=" ".join(raw.split()), latex="",
                          words=tuple(words))

    def check(self, answer: TextAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        concepts = _concepts(spec)
        words = answer.words
        found = [c.key for c in concepts if _found(words, c.phrasings)]
        total = sum(c.points for c in concepts)
        got = sum(c.points for c in concepts if c.key in found)
        fraction = got / total if total > 0 else 0.0
        pass_score = float(spec.get("pass_score", 1.0))
        passed = fraction >= pass_score - 1e-12
        review = spec.get("review", "never")
        misconception = self._misconception(words, spec, found)
        tag = str(misconception.get("tag")) if misconception is not None else None
        odd_length = len(words) < MIN_WORDS or len(words) > MAX_WORDS
        canonical = answer.canonical

        # The rubric's hints for the concepts not found, also while a teacher reviews it.
        hints = [c.feedback_missing for c in concepts if c.key not in found and c.feedback_missing]
        if review == "always":
            message = "\n\n".join((REVIEW_FEEDBACK, *hints))
            return Verdict(None, "review", message, tag, found, canonical)
        if passed and not (review == "undecided" and odd_length):
            return Verdict(1.0, "correct", feedback(spec, True), None, found, canonical)
        lead = str(misconception.get("feedback", "")) if misconception is not None else ""
        undecided = (0 < fraction < pass_score) or odd_length
        if review == "undecided" and undecided:
            message = "\n\n".join((" ".join(p for p in (lead, REVIEW_FEEDBACK) if p), *hints))
            return Verdict(None, "review", message, tag, found, canonical)
        if not lead and "feedback_incorrect" in spec:
            lead = feedback(spec, False)
        message = "\n\n".join(p for p in (lead, *hints) if p) or feedback(spec, False)
        outcome: Outcome = "partial" if fraction > 0 else "incorrect"
        return Verdict(round(fraction, 6), outcome, message, tag, found, canonical)

    @staticmethod
    def _misconception(words: Sequence[str], spec: Mapping[str, Any],
                       found: Sequence[str]) -> Mapping[str, Any] | None:
        for item in misconception_list(spec):
            phrasings = [normalize_words(p) for p in item.get("phrasings") or []
                         if isinstance(p, str)]
            unless = item.get("unless") or []
            if _found(words, phrasings) and not any(key in found for key in unless):
                return item
        return None

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        reference = spec.get("reference")
        if isinstance(reference, str) and reference.strip():
            return reference
        phrases = [" ".join(c.phrasings[0]) for c in _concepts(spec) if c.phrasings]
        return "The answer: " + "; ".join(phrases) + "."

    def self_check(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
        """The model answer must contain every concept and no misconception."""
        problems = self.validate_spec(spec)
        if problems:
            return problems
        raw = self.reference_answer(spec, params)
        try:
            answer = self.parse(raw, spec)
        except FormatError as exc:
            return [f"'reference' is not accepted: {exc.message}"]
        verdict = self.check(answer, spec, params)
        missing = [c.key for c in _concepts(spec) if c.key not in verdict.concepts_found]
        if missing:
            problems.append(f"'reference' (the model answer) does not contain the rubric "
                            f"concepts {', '.join(missing)}")
        if verdict.misconception is not None:
            problems.append(f"'reference' (the model answer) matches the misconception "
                            f"'{verdict.misconception}'")
        if spec.get("review", "never") != "always" and verdict.outcome != "correct":
            problems.append(f"'reference' (the model answer) grades {verdict.outcome}, "
                            f"not correct")
        return problems

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        rubric = spec.get("rubric")
        keys: list[str] = []
        if not isinstance(rubric, list) or not rubric:
            problems.append("'rubric' must be a non-empty list of concept tables")
            rubric = []
        for index, item in enumerate(rubric, start=1):
            where = f"'rubric' entry {index}"
            if not isinstance(item, Mapping):
                problems.append(f"{where} must be a table")
                continue
            for extra in sorted(set(item) - {"key", "points", "phrasings", "feedback_missing"}):
                problems.append(f"{where}: unknown key '{extra}'")
            key = item.get("key")
            if not isinstance(key, str) or not key:
                problems.append(f"{where} needs a 'key'")
            elif key in keys:
                problems.append(f"'rubric' key '{key}' appears twice")
            else:
                keys.append(key)
            if "points" in item and (not is_number(item["points"]) or item["points"] <= 0):
                problems.append(f"{where}: 'points' must be a positive number")
            problems += _phrasing_problems(item.get("phrasings"), where)
            if "feedback_missing" in item and not isinstance(item["feedback_missing"], str):
                problems.append(f"{where}: 'feedback_missing' must be a string")
        if "pass_score" in spec and (not is_number(spec["pass_score"])
                                     or not 0 < spec["pass_score"] <= 1):
            problems.append("'pass_score' must be a fraction in (0, 1]")
        if "review" in spec and spec["review"] not in REVIEW_MODES:
            problems.append(f"'review' must be one of {', '.join(REVIEW_MODES)}")
        for key in ("review_rubric", "reference"):
            if key in spec and not isinstance(spec[key], str):
                problems.append(f"'{key}' must be a string")
        problems += check_misconception_shapes(spec, answer_key="phrasings", extra=("unless",))
        for index, item in enumerate(misconception_list(spec), start=1):
            where = f"'misconceptions' entry {index}"
            if "phrasings" in item:
                problems += _phrasing_problems(item["phrasings"], where)
            unless = item.get("unless", [])
            if not isinstance(unless, list) or not all(isinstance(u, str) for u in unless):
                problems.append(f"{where}: 'unless' must be a list of rubric keys")
            else:
                for key in unless:
                    if key not in keys:
                        problems.append(f"{where}: 'unless' names '{key}', not a rubric key")
        return problems


def _phrasing_problems(phrasings: object, where: str) -> list[str]:
    if not isinstance(phrasings, list) or not phrasings:
        return [f"{where}: 'phrasings' must be a non-empty list of phrases"]
    problems = []
    for phrase in phrasings:
        if not isinstance(phrase, str) or not normalize_words(phrase):
            problems.append(f"{where}: phrasing {phrase!r} has no words")
    return problems
