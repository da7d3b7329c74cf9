"""Types shared by all checkers: Answer, Verdict, the Checker base class and spec helpers."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

from grading.checkers.mathparse import FormatError, declared_functions, normalize_name
from grading.checkers.mathparse.errors import gettext_noop

__all__ = [
    "COMMON_KEYS",
    "MISCONCEPTION_KEYS",
    "Answer",
    "Checker",
    "FormatError",
    "Outcome",
    "Verdict",
]

#: "review": a person decides (the score is None), as in Submission.Outcome.
Outcome = Literal["correct", "partial", "incorrect", "review"]

# Keys every part spec may carry. points/prompt/key/label and lab/measure/lab_params are read
# by other layers (gradebook, page, staff pages, predictions) and ignored by the checkers.
COMMON_KEYS = frozenset({
    "type", "reference", "variables", "functions", "points", "prompt", "key", "label",
    "misconceptions", "feedback_correct", "feedback_incorrect", "lab", "measure", "lab_params",
    "alternatives",
    "carried_credit",  # carried.py: the credit of an answer right given an earlier answer
    "tests",  # question_tests.py: answers with their expected outcome, run by sync
    "difficulty_guard",  # difficulty_guard.py: bands the key keeps in every variant (sync)
    "allow_empty", "empty_credit", "empty_feedback",  # an empty answer graded (__init__.py)
    "latex",  # latex_input.py: LaTeX answers and keys are read
    "decimal_comma",  # decimal_comma.py: 0,5 read as 0.5, ';' between items
})

#: Keys every misconception entry may carry, beside the type's own way to name the answer
#: (``answer``, ``phrasings``, ``pattern``) and its tolerances: ``credit`` is scored by the
#: pipeline for every type (pipeline.py).
MISCONCEPTION_KEYS = frozenset({"tag", "feedback", "label", "credit"})

DEFAULT_CORRECT = gettext_noop("Correct.")
DEFAULT_INCORRECT = gettext_noop("Not correct yet.")


@dataclass(frozen=True)
class Answer:
    """A parsed answer: what was typed and how we read it."""

    raw: str
    canonical: str
    latex: str = ""


@dataclass(frozen=True)
class Verdict:
    """The grade of one parsed answer.

    ``score`` is in [0, 1], or None when the outcome is "review" (a person decides).
    ``misconception`` is the tag of an anticipated wrong answer that matched.
    ``concepts_found`` lists rubric concept keys (text answers only).
    """

    score: float | None
    outcome: Outcome
    feedback: str
    misconception: str | None = None
    concepts_found: list[str] = field(default_factory=list)
    canonical: str = ""

A = TypeVar("A", bound=Answer)


class Checker(ABC, Generic[A]):
    """One answer type: read a raw answer, grade it, validate a spec, check a spec's key."""

    type_name: ClassVar[str]
    spec_keys: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def parse(self, raw: str, spec: Mapping[str, Any]) -> A:
        """Read ``raw``; raise FormatError (outcome "invalid", no attempt used) if unreadable."""

    @abstractmethod
    def check(self, answer: A, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        """Grade a parsed answer against the spec, with the variant's parameters."""

    @abstractmethod
    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        """The key written as a student would type it (must grade correct)."""

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        """Problems with the spec's shape (unknown keys, wrong types, missing reference)."""
        problems = unknown_keys(spec, COMMON_KEYS | self.spec_keys)
        if spec.get("type") != self.type_name:
            problems.append(f"'type' must be '{self.type_name}'")
        problems += check_names(spec)
        for key in ("feedback_correct", "feedback_incorrect", "prompt", "key", "label", "lab",
                    "measure"):
            if key in spec and not isinstance(spec[key], str):
                problems.append(f"'{key}' must be a string")
        if "lab_params" in spec and not (
            isinstance(spec["lab_params"], Mapping)
            and all(isinstance(v, str) for v in spec["lab_params"].values())
        ):
            problems.append("'lab_params' must map lab parameters to variant parameter names")
        if "points" in spec and not is_number(spec["points"]):
            problems.append("'points' must be a number")
        if "allow_empty" in spec and not isinstance(spec["allow_empty"], bool):
            problems.append("'allow_empty' must be true or false")
        if "empty_credit" in spec and not (is_number(spec["empty_credit"])
                                           and 0 <= spec["empty_credit"] <= 1):
            problems.append("'empty_credit' must be a number from 0 to 1")
        return problems

    def self_check(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
        """Problems found by grading the key (and the misconceptions) in one variant.

        The key must parse and grade 1.0; no misconception may grade as correct.
        """
        problems = self.validate_spec(spec)
        if problems:
            return problems
        try:
            raw = self.reference_answer(spec, params)
        except (ValueError, TypeError, ArithmeticError) as exc:
            return [f"'reference' cannot be computed: {exc}"]
        try:
            verdict = self.check(self.parse(raw, spec), spec, params)
        except FormatError as exc:
            return [f"'reference' written as '{raw}' is not accepted: {exc.message}"]
        except (ValueError, TypeError, ArithmeticError) as exc:
            return [f"'reference' cannot be graded: {exc}"]
        if (verdict.misconception or "").startswith("form:"):
            problems.append(
                f"'reference' written as '{raw}' is not in the form it asks for "
                f"({verdict.misconception}): write the key itself in that form (a student's "
                f"equal answer in another form gets 'form_credit'); {verdict.feedback}")
        elif verdict.score is None or not math.isclose(verdict.score, 1.0) \
                or verdict.outcome != "correct":
            problems.append(
                f"'reference' written as '{raw}' grades {verdict.outcome} "
                f"({verdict.score}), not correct (1.0)"
            )
        problems += self.misconception_problems(spec, params)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        """Misconceptions that cannot be computed or that would grade as correct."""
        return []


# --------------------------------------------------------------------------- spec helpers


def is_number(value: object) -> bool:
    """True for int/float values (not bool) that are finite."""
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


def unknown_keys(spec: Mapping[str, Any], allowed: frozenset[str]) -> list[str]:
    """One problem per key the vocabulary does not know."""
    return [f"unknown key '{key}' (known: {', '.join(sorted(allowed))})"
            for key in sorted(set(spec) - allowed)]


def names_of(spec: Mapping[str, Any], key: str) -> list[str]:
    """The declared names under ``key`` (variables or functions), normalised."""
    value = spec.get(key) or []
    if isinstance(value, str):
        value = [value]
    return [normalize_name(v) for v in value]


def functions_of(spec: Mapping[str, Any]) -> dict[str, int]:
    """The declared functions as {name: number of arguments}: ``functions`` is a list of
    names (one argument each) or a table ``{f = 2, g = 1}``."""
    return declared_functions(spec.get("functions") or [])


def check_names(spec: Mapping[str, Any]) -> list[str]:
    """Problems with the ``variables`` and ``functions`` declarations."""
    problems = []
    if "variables" in spec:
        value = spec["variables"]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append("'variables' must be a list of names")
        else:
            for name in value:
                try:
                    normalize_name(name)
                except ValueError as exc:
                    problems.append(f"'variables': {exc}")
    if "functions" in spec:
        value = spec["functions"]
        if not isinstance(value, list | Mapping) or (
            isinstance(value, list) and not all(isinstance(v, str) for v in value)
        ):
            problems.append("'functions' must be a list of names or a table of name = "
                            "number of arguments")
        else:
            try:
                declared_functions(value)
            except ValueError as exc:
                problems.append(f"'functions': {exc}")
    return problems


def misconception_list(spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The spec's misconceptions (empty list when absent or malformed)."""
    value = spec.get("misconceptions") or []
    return [m for m in value if isinstance(m, Mapping)] if isinstance(value, list) else []


def check_misconception_shapes(spec: Mapping[str, Any], *, answer_key: str = "answer",
                               extra: Sequence[str] = ()) -> list[str]:
    """Problems with the shape of the ``misconceptions`` list."""
    if "misconceptions" not in spec:
        return []
    value = spec["misconceptions"]
    if not isinstance(value, list):
        return ["'misconceptions' must be a list of tables"]
    problems = []
    allowed = {*MISCONCEPTION_KEYS, answer_key, *extra}
    for index, item in enumerate(value, start=1):
        where = f"'misconceptions' entry {index}"
        if not isinstance(item, Mapping):
            problems.append(f"{where} must be a table")
            continue
        for key in sorted(set(item) - allowed):
            problems.append(f"{where}: unknown key '{key}'")
        if not isinstance(item.get("tag"), str) or not item.get("tag"):
            problems.append(f"{where} needs a 'tag' string")
        if not isinstance(item.get("feedback"), str):
            problems.append(f"{where} needs a 'feedback' string")
        if "label" in item and (not isinstance(item["label"], str) or "\n" in item["label"]
                                or not item["label"].strip()):
            problems.append(f"{where}: 'label' must be a one-line string")
        if answer_key not in item:
            problems.append(f"{where} needs '{answer_key}'")
    return problems


def feedback(spec: Mapping[str, Any], correct: bool) -> str:
    """The spec's feedback for a correct or incorrect answer, or a default."""
    key = "feedback_correct" if correct else "feedback_incorrect"
    value = spec.get(key)
    if isinstance(value, str) and value.strip():
        return value
    return DEFAULT_CORRECT if correct else DEFAULT_INCORRECT
