"""Alternative answers, for every answer type: several accepted answers, each with its own
credit and feedback (Numbas' alternatives, WeBWorK's OneOf, mitx's tuple of answers).

A part spec may list ``alternatives``, tables of:

* ``answer``: the alternative's key, written as the type's ``reference`` (``correct`` for
  choice parts);
* ``credit``: the fraction of the marks it earns, 0 to 1 (default 1);
* ``feedback``: shown when it is the answer's best match; ``tag`` (and ``label``): counted on
  the dashboard as a misconception's tag is, for named wrong answers with credit 0;
* ``match``: ``"equivalent"`` (default: graded by the type's own rule) or ``"written"`` (the
  answer's reading, its canonical form, must be the alternative's reading: for "full marks
  for 2x, half for x + x" give the main key ``2x`` and an alternative ``x + x`` written);
* any key of the type itself, which replaces the part's value for this alternative only
  (``form = "any"`` beside a part with ``form = "sides"``; a wider ``rtol``).

An answer is graded against the part (credit 1) and each alternative; the best score wins,
ties going to the part and then to the earlier alternative. A ``written`` alternative that
matches wins over the part's own key, since it names that exact form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grading.checkers.base import Answer, Checker, Outcome, Verdict, feedback, is_number
from grading.checkers.mathparse import FormatError

__all__ = ["ALTERNATIVE_KEYS", "alternative_problems", "alternative_spec", "check_alternatives"]

ALTERNATIVE_KEYS = frozenset({"answer", "credit", "feedback", "tag", "label", "match"})
MATCHES = ("equivalent", "written")


def _key_name(spec: Mapping[str, Any]) -> str:
    return "correct" if spec.get("type") == "choice" else "reference"


def alternative_spec(spec: Mapping[str, Any], item: Mapping[str, Any]) -> dict[str, Any]:
    """The part's spec as seen by one alternative: its answer as the key, its overrides."""
    merged = {k: v for k, v in spec.items() if k not in ("alternatives", "misconceptions")}
    merged.update({k: v for k, v in item.items() if k not in ALTERNATIVE_KEYS})
    merged[_key_name(spec)] = item.get("answer")
    return merged


def _items(spec: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    value = spec.get("alternatives") or []
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def _credit(item: Mapping[str, Any]) -> float:
    credit = item.get("credit", 1)
    return float(credit) if is_number(credit) else 0.0


def _written_form(checker: Checker[Any], item: Mapping[str, Any],
                  alt_spec: Mapping[str, Any], params: Mapping[str, Any]) -> str | None:
    try:
        raw = checker.reference_answer(alt_spec, params)
        return checker.parse(raw, alt_spec).canonical
    except (FormatError, ValueError, TypeError, ArithmeticError):
        return None


def _as_alternative(verdict: Verdict, item: Mapping[str, Any], score: float,
                    spec: Mapping[str, Any]) -> Verdict:
    outcome: Outcome = "correct" if score >= 1 else ("partial" if score > 0 else "incorrect")
    message = item.get("feedback")
    if not isinstance(message, str) or not message:
        message = verdict.feedback if score >= 1 else (
            f"Partly correct ({score:.0%} of the marks)." if score > 0
            else feedback(spec, False))
    tag = item.get("tag") if isinstance(item.get("tag"), str) and item.get("tag") else None
    return Verdict(score, outcome, message, tag, list(verdict.concepts_found),
                   verdict.canonical)


def check_alternatives(checker: Checker[Any], answer: Answer, spec: Mapping[str, Any],
                       params: Mapping[str, Any], main: Verdict) -> Verdict:
    """The best of the part's own verdict ``main`` and the alternatives' (see the module)."""
    items = _items(spec)
    if not items:
        return main
    best, best_score = main, main.score if main.score is not None else -1.0
    for item in items:
        alt_spec = alternative_spec(spec, item)
        credit = _credit(item)
        if item.get("match") == "written":
            form = _written_form(checker, item, alt_spec, params)
            if form is not None and form == answer.canonical:
                return _as_alternative(main, item, credit, spec)
            continue
        if best_score >= 1:
            continue
        try:
            verdict = checker.check(checker.parse(answer.raw, alt_spec), alt_spec, params)
        except (FormatError, ValueError):
            continue
        if verdict.score is None or verdict.outcome != "correct":
            continue
        score = verdict.score * credit
        if score > best_score or (score == best_score == 0 and best.misconception is None
                                  and item.get("tag")):
            best, best_score = _as_alternative(verdict, item, score, spec), score
    return best


def alternative_problems(checker: Checker[Any], spec: Mapping[str, Any],
                         params: Mapping[str, Any] | None = None) -> list[str]:
    """Problems with ``alternatives``: shape, each merged spec, and (with ``params``) that each
    alternative's own answer reaches its credit."""
    if "alternatives" not in spec:
        return []
    value = spec["alternatives"]
    if not isinstance(value, list):
        return ["'alternatives' must be a list of tables"]
    problems: list[str] = []
    for index, item in enumerate(value, start=1):
        where = f"'alternatives' entry {index}"
        if not isinstance(item, Mapping):
            problems.append(f"{where} must be a table")
            continue
        if "answer" not in item:
            problems.append(f"{where} needs 'answer'")
        credit = item.get("credit", 1)
        if not is_number(credit) or not 0 <= credit <= 1:
            problems.append(f"{where}: 'credit' must be a number from 0 to 1")
        for key in ("feedback", "tag", "label"):
            if key in item and not isinstance(item[key], str):
                problems.append(f"{where}: '{key}' must be a string")
        if item.get("match", "equivalent") not in MATCHES:
            problems.append(f"{where}: 'match' must be one of {', '.join(MATCHES)}")
        if "answer" not in item:
            continue
        alt_spec = alternative_spec(spec, item)
        problems += [f"{where}: {p}" for p in checker.validate_spec(alt_spec)]
        if params is None or problems:
            continue
        try:
            raw = checker.reference_answer(alt_spec, params)
            verdict = checker.check(checker.parse(raw, alt_spec), alt_spec, params)
        except FormatError as exc:
            problems.append(f"{where}: its answer is not accepted: {exc.message}")
            continue
        except (ValueError, TypeError, ArithmeticError) as exc:
            problems.append(f"{where}: its answer cannot be computed: {exc}")
            continue
        if verdict.outcome != "correct":
            problems.append(f"{where}: its own answer '{raw}' grades {verdict.outcome}")
            continue
        if item.get("match") != "written" and _credit(item) < 1 \
                and not set(item) - ALTERNATIVE_KEYS:
            try:
                main = checker.check(checker.parse(raw, spec), spec, params)
            except (FormatError, ValueError, TypeError, ArithmeticError):
                continue
            if main.outcome == "correct":
                problems.append(f"{where}: its answer '{raw}' is accepted by the part's own "
                                f"key, so its credit never applies (use match = \"written\", "
                                f"or give it keys of its own such as a wider tolerance)")
    return problems
