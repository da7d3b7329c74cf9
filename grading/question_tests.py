"""Question tests: answers an author writes beside a part with the outcome they expect, run by
sync in every variant (see grading.variant_space) so that a key, a misconception or a
marking rule that goes wrong in some variant is caught before a student meets it.

A part's ``[[parts.tests]]`` table holds ``answer`` (as a student types it; ``{{ name }}``
takes the variant's value of a parameter), ``outcome`` (correct, partial, incorrect,
review or invalid), and optionally ``misconception`` (the tag expected, or "" for none),
``score`` (0..1, compared to within 1e-9) and ``variant`` (run only in that variant number).
A part whose key uses earlier answers (``answer("scores")``) is tested with the earlier
answers a student might have given: ``earlier``, a table of part key -> answer as typed
(``{{ name }}`` allowed); an earlier part left out is unanswered (the test then expects
"invalid"). Pure Python.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from grading.checkers import Result, grade
from grading.checkers.carried import carried_keys, earlier_from_answers, grade_carried

OUTCOMES = ("correct", "partial", "incorrect", "review", "invalid")
TEST_KEYS = frozenset({"answer", "outcome", "misconception", "score", "variant", "note",
                       "earlier"})
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def question_tests(spec: Mapping[str, Any]) -> list[Any]:
    """The part's tests as written (a list, possibly empty)."""
    tests = spec.get("tests", [])
    return tests if isinstance(tests, list) else []


def question_test_problems(spec: Mapping[str, Any], known_params: set[str]) -> list[str]:
    """Problems with the shape of the part's ``tests`` (independent of any variant)."""
    if "tests" in spec and not isinstance(spec["tests"], list):
        return ["'tests' must be a list of [[parts.tests]] tables"]
    problems = []
    for number, test in enumerate(question_tests(spec), start=1):
        where = f"'tests' {number}"
        if not isinstance(test, Mapping):
            problems.append(f"{where} must be a table")
            continue
        for key in sorted(set(test) - TEST_KEYS):
            problems.append(f"{where}: unknown key '{key}' (known: {', '.join(sorted(TEST_KEYS))})")
        if not isinstance(test.get("answer"), str):
            problems.append(f"{where} needs an 'answer' string")
        else:
            unknown = sorted(set(_PLACEHOLDER.findall(test["answer"])) - known_params)
            if unknown:
                problems.append(f"{where}: the answer uses unknown parameters: {', '.join(unknown)}")
        earlier = test.get("earlier", {})
        if not isinstance(earlier, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in earlier.items()):
            problems.append(f"{where}: 'earlier' must be a table of part key = answer")
        else:
            unknown_keys = sorted(set(earlier) - set(carried_keys(spec)))
            if unknown_keys:
                problems.append(f"{where}: 'earlier' names parts whose answers this part does "
                                f"not use: {', '.join(unknown_keys)}")
            unknown = sorted({p for v in earlier.values() for p in _PLACEHOLDER.findall(v)}
                             - known_params)
            if unknown:
                problems.append(f"{where}: 'earlier' uses unknown parameters: "
                                f"{', '.join(unknown)}")
        if test.get("outcome") not in OUTCOMES:
            problems.append(f"{where} needs an 'outcome', one of {', '.join(OUTCOMES)}")
        if "misconception" in test and not isinstance(test["misconception"], str):
            problems.append(f"{where}: 'misconception' must be a tag (a string)")
        score = test.get("score")
        if "score" in test and (isinstance(score, bool) or not isinstance(score, int | float)
                                or not 0 <= score <= 1):
            problems.append(f"{where}: 'score' must be a number from 0 to 1")
        variant = test.get("variant")
        if "variant" in test and (isinstance(variant, bool) or not isinstance(variant, int)
                                  or variant < 0):
            problems.append(f"{where}: 'variant' must be a variant number (0 or more)")
    return problems


def answer_in_variant(template: str, params: Mapping[str, Any]) -> str:
    """A test's answer with ``{{ name }}`` replaced by the value as a student would type it
    (shortest decimal, no thousands separator, lists as [a, b])."""
    return _PLACEHOLDER.sub(lambda m: _typed(params[m.group(1)]), template)


def _typed(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_typed(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def question_test_failures(spec: Mapping[str, Any], params: Mapping[str, Any],
                           variant_number: int,
                           earlier_specs: Mapping[str, Mapping[str, Any]] | None = None,
                           ) -> list[str]:
    """Each test of the part (for this variant) whose grade differs from what it expects.

    A part that uses earlier answers is graded as a student's answer is, with the test's
    ``earlier`` answers (``earlier_specs``: the specs of the exercise's earlier parts)."""
    failures = []
    carried = bool(carried_keys(spec))
    for number, test in enumerate(question_tests(spec), start=1):
        if not isinstance(test, Mapping) or test.get("variant", variant_number) != variant_number:
            continue
        raw = answer_in_variant(str(test["answer"]), params)
        try:
            if carried:
                given = {k: answer_in_variant(v, params)
                         for k, v in (test.get("earlier") or {}).items()}
                result = grade_carried(raw, spec, params, earlier_from_answers(
                    spec, params, given, earlier_specs or {}))
            else:
                result = grade(raw, spec, params)
        except (ValueError, TypeError, ArithmeticError) as exc:
            failures.append(f"'tests' {number} ('{raw}') cannot be graded: {exc}")
            continue
        wrong = _mismatch(test, result)
        if wrong:
            failures.append(f"'tests' {number}: '{raw}' {wrong}")
    return failures


def _mismatch(test: Mapping[str, Any], result: Result) -> str:
    got = f"grades {result.outcome}" + (f" ({result.score:g})" if result.score is not None else "")
    if result.misconception:
        got += f" with misconception '{result.misconception}'"
    if result.outcome != test["outcome"]:
        return f"{got}, expected {test['outcome']}"
    if "misconception" in test and (result.misconception or "") != test["misconception"]:
        expected = f"misconception '{test['misconception']}'" if test["misconception"] \
            else "no misconception"
        return f"{got}, expected {expected}"
    if "score" in test and (result.score is None
                            or not math.isclose(result.score, test["score"], abs_tol=1e-9)):
        return f"{got}, expected score {test['score']:g}"
    return ""
