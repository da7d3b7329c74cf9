"""Batch checking for authors and CI: JSON lines in, one verdict per line out, in order.

Each input line is either an inline spec
    {"id": "a1", "answer": "0.85^40", "spec": {"type": "numeric", "reference": "0.85^40"}}
(optionally with "params" for the spec's parameters), or a part of the synced content
    {"id": "a3", "exercise": "<slug>", "part": "<key>", "answer": "34"}
graded in the default variant (or the variant of "seed"). Both go through `grade`, the
function the web's submission_grade uses. A bad line yields an `error` line with the
reason; it never stops the batch.
"""

import json
import time
from collections.abc import Iterable, Iterator
from typing import Any

from courses.models import Part
from grading.checkers import grade, validate_spec
from grading.variants import variant_params

OUTCOMES = {"pending": "review"}


class BadLine(ValueError):
    """An input line that cannot be checked; the message says why."""


def _spec_and_params(item: dict[str, Any], parts: dict[tuple[str, str], Part]) -> tuple[dict, dict]:
    if "spec" in item:
        spec = item["spec"]
        if not isinstance(spec, dict):
            raise BadLine("'spec' must be an object")
        problems = validate_spec(spec)
        if problems:
            raise BadLine("invalid spec: " + "; ".join(problems))
        params = item.get("params", {})
        if not isinstance(params, dict):
            raise BadLine("'params' must be an object")
        return spec, params
    if "exercise" in item and "part" in item:
        part = parts.get((str(item["exercise"]), str(item["part"])))
        if part is None:
            raise BadLine(f"no active part '{item['part']}' in exercise '{item['exercise']}'")
        seed = item.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise BadLine("'seed' must be an integer")
        exercise = part.exercise
        return part.spec, variant_params(exercise.parameters, exercise.derived, seed)
    raise BadLine("each line needs 'answer' and either 'spec' or 'exercise' and 'part'")


def _check_line(line: str, parts: dict[tuple[str, str], Part]) -> dict[str, Any]:
    started = time.perf_counter()
    item_id: Any = None
    try:
        item = json.loads(line)
        if not isinstance(item, dict):
            raise BadLine("each line must be a JSON object")
        item_id = item.get("id")
        answer = item.get("answer")
        if not isinstance(answer, str):
            raise BadLine("'answer' must be a string")
        spec, params = _spec_and_params(item, parts)
        result = grade(answer, spec, params)
        out = {"id": item_id, "outcome": OUTCOMES.get(result.outcome, result.outcome),
               "score": result.score, "feedback": result.feedback,
               "misconception": result.misconception, "read_as": result.canonical}
    except json.JSONDecodeError as exc:
        out = {"id": item_id, "outcome": "error", "score": None,
               "feedback": f"not valid JSON: {exc.msg} at column {exc.colno}", "misconception": None}
    except (BadLine, ValueError, TypeError, KeyError) as exc:
        out = {"id": item_id, "outcome": "error", "score": None, "feedback": str(exc),
               "misconception": None}
    out["ms"] = round((time.perf_counter() - started) * 1000, 3)
    return out


def answers_check(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One result per non-blank input line, in order (see the module docstring)."""
    parts = {
        (p.exercise.slug, p.key): p
        for p in Part.objects.active().filter(exercise__archived_at__isnull=True)
        .select_related("exercise")
    }
    for line in lines:
        if line.strip():
            yield _check_line(line, parts)
