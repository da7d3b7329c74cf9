"""Batch checking for authors and CI: JSON lines in, one verdict per line out, in order.

Each input line is either an inline spec
    {"id": "a1", "answer": "0.85^40", "spec": {"type": "numeric", "reference": "0.85^40"}}
(optionally with "params" for the spec's parameters), or a part of the synced content
    {"id": "a3", "exercise": "<slug>", "part": "<key>", "answer": "34"}
graded in the default variant, or in variant "variant" (a number, as sync names them:
see grading.variant_space), or the variant of "seed", or with "params" (values that replace
the defaults; derived parameters are computed from them); such a line's result carries the
variant's "params" as drawn. A part whose key uses earlier
answers (`answer("scores")`) takes the student's earlier answers as "earlier":
{"scores": "[1, 2]"} (graded as carried.py says). Both go through `grade`, the
function the web's submission_grade uses. A bad line (not UTF-8, not JSON, nested too deeply,
not an object, a bad field, a grader failure) yields an `error` line with the reason; it never
stops the batch. `result_line` writes a result as one JSON line that any UTF-8 output can
take: a lone surrogate (from a "\\ud800" escape in the input) is written back as its escape.
"""

import json
import logging
import math
import re
import time
from collections.abc import Iterable, Iterator
from typing import Any

from courses.models import Part
from grading.checkers import grade, validate_spec
from grading.checkers.carried import Earlier, carried_keys, earlier_from_answers, grade_carried
from grading.variant_space import variant_numbered
from grading.variants import variant_params

logger = logging.getLogger(__name__)

_SURROGATE = re.compile("[\ud800-\udfff]")


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
        return part.spec, _content_params(item, part)
    raise BadLine("each line needs 'answer' and either 'spec' or 'exercise' and 'part'")


def _whole(item: dict[str, Any], name: str) -> int | None:
    value = item.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise BadLine(f"'{name}' must be an integer")
    return value


def _content_params(item: dict[str, Any], part: Part) -> dict[str, Any]:
    """The variant a content line asks for: "variant" N, "seed", "params", or the default."""
    exercise = part.exercise
    seed, number = _whole(item, "seed"), _whole(item, "variant")
    given = item.get("params")
    if sum(x is not None for x in (seed, number, given)) > 1:
        raise BadLine("give at most one of 'variant', 'seed' and 'params'")
    if number is not None:
        return variant_numbered(exercise.parameters, exercise.derived, number).params
    if given is not None:
        if not isinstance(given, dict):
            raise BadLine("'params' must be an object")
        unknown = sorted(set(given) - set(exercise.parameters or {}))
        if unknown:
            raise BadLine(f"'params' names no parameter of the exercise: {', '.join(unknown)}")
        overrides = {name: {**spec, "default": given.get(name, spec.get("default"))}
                     for name, spec in (exercise.parameters or {}).items()}
        return variant_params(overrides, exercise.derived, None)
    return variant_params(exercise.parameters, exercise.derived, seed)


def _echoable(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, str | int)


def _read(line: bytes | str, number: int) -> dict[str, Any]:
    """The JSON object on one input line; BadLine (with the reason) otherwise."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadLine(f"line {number} is not valid UTF-8 (byte 0x{line[exc.start]:02x} at "
                          f"column {exc.start + 1})") from None
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadLine(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise BadLine("not valid JSON here: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with too many digits
        raise BadLine(f"not valid JSON here: {exc}") from None
    if not isinstance(item, dict):
        raise BadLine("each line must be a JSON object")
    return item


def _error(item_id: Any, message: str) -> dict[str, Any]:
    return {"id": item_id, "outcome": "error", "score": None, "feedback": message,
            "misconception": None}


def _check_line(line: bytes | str, number: int, parts: dict[tuple[str, str], Part],
                defaults: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    item_id: Any = None
    try:
        item = _read(line, number)
        item_id = item.get("id")
        if not _echoable(item_id):
            item_id = None
            raise BadLine("'id' must be a string, a number or null")
        if "spec" not in item and not {"variant", "seed", "params"} & set(item):
            item = {**defaults, **item}
        answer = item.get("answer")
        if not isinstance(answer, str):
            raise BadLine("'answer' must be a string")
        spec, params = _spec_and_params(item, parts)
        if carried_keys(spec):
            result = grade_carried(answer, spec, params,
                                   _earlier(item, spec, params, parts))
        else:
            result = grade(answer, spec, params)
        out = {"id": item_id, "outcome": result.outcome, "score": result.score,
               "feedback": result.feedback, "misconception": result.misconception,
               "read_as": result.canonical}
        if "spec" not in item:
            out["params"] = params
    except (BadLine, ValueError, TypeError, KeyError, RecursionError) as exc:
        out = _error(item_id, str(exc) or type(exc).__name__)
    except Exception as exc:  # a grader bug must not stop the batch; it is logged
        logger.exception("check_answers: line %d could not be graded", number)
        out = _error(item_id, f"internal error while grading this line ({type(exc).__name__})")
    out["ms"] = round((time.perf_counter() - started) * 1000, 3)
    return out


def _earlier(item: dict[str, Any], spec: dict[str, Any], params: dict[str, Any],
             parts: dict[tuple[str, str], Part]) -> dict[str, Earlier]:
    """The earlier answers a carried part uses, from the line's ``earlier`` table (part key
    -> answer as typed); only for parts of synced content, whose earlier parts are known."""
    given = item.get("earlier") or {}
    if not isinstance(given, dict) or not all(isinstance(v, str) for v in given.values()):
        raise BadLine("'earlier' must map part keys to answers")
    exercise = str(item.get("exercise"))
    specs = {key: part.spec for (slug, key), part in parts.items() if slug == exercise}
    for key in carried_keys(spec):
        if key not in specs:
            raise BadLine(f"answer(\"{key}\") names no part of exercise {exercise!r}")
    return earlier_from_answers(spec, params, given, specs)


def answers_check(lines: Iterable[bytes | str], *,
                  defaults: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """One result per non-blank input line, in order (see the module docstring).

    Lines may be bytes (decoded here, so one bad byte spoils only its line) or text.
    `defaults` ({"variant": N} or {"params": {...}}) applies to content lines that choose no
    variant themselves.
    """
    parts = {
        (p.exercise.slug, p.key): p
        for p in Part.objects.active().filter(exercise__archived_at__isnull=True)
        .select_related("exercise")
    }
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield _check_line(line, number, parts, defaults or {})


def result_line(result: dict[str, Any]) -> str:
    """One result as a JSON line (no newline): non-ASCII kept as is, lone surrogates and
    other unencodable characters written as JSON escapes, so the line is valid UTF-8."""
    text = json.dumps(result, ensure_ascii=False, allow_nan=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
