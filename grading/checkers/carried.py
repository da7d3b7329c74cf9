"""Error carried forward: a later part marked against the student's own earlier answers.

A part's ``reference`` (and its misconceptions' answers) may write ``answer("scores")`` for
the student's own answer to the part ``scores`` of the same exercise (numeric, integer or
vector parts). The part is graded twice, as Numbas's adaptive marking does:

1. with the earlier part's **key** in place of ``answer("scores")``: a correct answer is
   correct, whatever the student answered earlier;
2. if not, and the student's earlier answer differs from its key, with **their earlier
   answer** in its place: a correct answer there gets ``carried_credit`` (default 1, full
   marks; the author may make it worth less) and the feedback says "Marked using your answer
   to scores".

An earlier answer that is *trivial* gives no carried credit (a student could otherwise
answer 0 to (a) and make (b) easy): zero (every entry zero), or a value the question itself
gives (one of the variant's parameters). When the later answer is right given such an
earlier answer, the feedback says why it earns nothing (the earlier answer is zero, or the
given value it equals).

A later answer keeps the better of its marks against the earlier answers as they are now
and as they were when it was given (``grade_carried_kept``): correcting (a) afterwards never
takes away what (b) earned from the old (a), and the feedback says the mark was kept.

A missing earlier answer (not answered, or unreadable) makes the part **invalid** with
"Answer scores first", so no attempt is used.
``grade_carried`` is pure: the caller (grading's services) hands it the earlier answers.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grading.checkers import CHECKERS, Result, grade
from grading.checkers.mathparse import FormatError
from grading.checkers.refs import answer_number, reference_number, reference_numbers

__all__ = [
    "CARRIED_TAG",
    "CARRIED_TYPES",
    "Earlier",
    "answer_value",
    "carried_keys",
    "carried_name",
    "earlier_from_answers",
    "grade_carried",
    "grade_carried_kept",
    "key_value",
    "resolved_spec",
]

#: The tag a verdict marked using the student's earlier answers carries (not a misconception:
#: the misconception profile leaves it out).
CARRIED_TAG = "carried"
#: The answer types whose value a later part may use.
CARRIED_TYPES = frozenset({"numeric", "integer", "vector"})
_ANSWER_OF = re.compile(r"""\banswer\(\s*["']?([A-Za-z][A-Za-z0-9_]*)["']?\s*\)""")


@dataclass(frozen=True)
class Earlier:
    """What a later part needs of an earlier one: how to name it, the student's value (None:
    not answered or unreadable) and the key's value in the student's variant."""

    label: str
    value: Any | None
    key_value: Any


def carried_name(key: str) -> str:
    """The parameter name that stands for the student's answer to part ``key``."""
    return f"answer_{key}"


def _texts(spec: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    reference = spec.get("reference")
    out += [reference] if isinstance(reference, str) else \
        [r for r in reference if isinstance(r, str)] if isinstance(reference, list) else []
    for item in spec.get("misconceptions") or []:
        if isinstance(item, Mapping) and isinstance(item.get("answer"), str):
            out.append(item["answer"])
    return out


def carried_keys(spec: Mapping[str, Any]) -> list[str]:
    """The keys of the earlier parts whose answers this part's spec uses, in order."""
    keys: list[str] = []
    for text in _texts(spec):
        for key in _ANSWER_OF.findall(text):
            if key not in keys:
                keys.append(key)
    return keys


def resolved_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The spec with each ``answer("k")`` written as the parameter ``answer_k``."""
    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return _ANSWER_OF.sub(lambda m: carried_name(m.group(1)), value)
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        return value

    out = {k: v for k, v in spec.items() if k != "carried_credit"}
    out["reference"] = rewrite(spec.get("reference"))
    if isinstance(spec.get("misconceptions"), list):
        out["misconceptions"] = [
            {**m, "answer": rewrite(m.get("answer"))} if isinstance(m, Mapping) else m
            for m in spec["misconceptions"]]
    return out


def key_value(spec: Mapping[str, Any], params: Mapping[str, Any],
              others: Mapping[str, Mapping[str, Any]] | None = None, _depth: int = 0) -> Any:
    """The value of a numeric, integer or vector part's key in a variant (float or list).

    A key that itself uses earlier answers (a chain: scores -> weight -> context) is computed
    with the earlier parts' keys, taken from ``others`` (part key -> spec)."""
    used = carried_keys(spec)
    if used:
        if _depth > 20:
            raise ValueError("parts use each other's answers in a cycle")
        others = others or {}
        missing = [k for k in used if k not in others]
        if missing:
            raise ValueError(f"answer(\"{missing[0]}\") names no earlier part")
        params = {**params, **{carried_name(k): key_value(others[k], params, others,
                                                          _depth + 1) for k in used}}
        spec = resolved_spec(spec)
    kind = spec.get("type")
    reference = spec.get("reference")
    if kind == "vector":
        if isinstance(reference, list):
            return [reference_number(r, params).value for r in reference]
        return [n.value for n in reference_numbers(reference, params)]
    if kind in ("numeric", "integer"):
        value = reference_number(reference, params).value
        return round(value) if kind == "integer" else value
    raise ValueError(f"a later part cannot use the answer of a '{kind}' part")


def answer_value(raw: str, spec: Mapping[str, Any], params: Mapping[str, Any]) -> Any | None:
    """The value of a student's answer to a numeric, integer or vector part (None when it
    cannot be read)."""
    kind = spec.get("type")
    if kind not in CARRIED_TYPES:
        return None
    try:
        answer = CHECKERS[str(kind)].parse(raw, spec)
        if kind == "integer":
            return int(answer.value)
        if kind == "numeric":
            number = answer.value if answer.value is not None else \
                answer_number(answer.expr, params)
            return number.value
        return [answer_number(expr, params).value for expr in answer.exprs]
    except (FormatError, ValueError, TypeError, ArithmeticError, AttributeError):
        return None


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            all(_close(x, y) for x, y in zip(a, b, strict=True))
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    except (TypeError, ValueError):
        return False


def _trivial(value: Any, params: Mapping[str, Any]) -> bool:
    flat = value if isinstance(value, list) else [value]
    if all(_close(v, 0) for v in flat):
        return True
    return any(_close(value, given) for given in params.values())


def grade_carried(raw: str, spec: Mapping[str, Any], params: Mapping[str, Any],
                  earlier: Mapping[str, Earlier]) -> Result:
    """Grade ``raw`` for a part whose key uses earlier answers (see the module docstring).

    ``earlier`` maps each key of ``carried_keys(spec)`` to the student's earlier answer.
    """
    keys = carried_keys(spec)
    resolved = resolved_spec(spec)
    missing = [earlier[k].label if k in earlier else k for k in keys
               if k not in earlier or earlier[k].value is None]
    true_params = {**params, **{carried_name(k): earlier[k].key_value
                                for k in keys if k in earlier}}
    if missing:
        return Result("invalid", None, f"Answer {', '.join(missing)} first: this part is "
                      f"marked using your answer to it.", None, [], "", "", None)
    result = grade(raw, resolved, true_params)
    if result.outcome in ("correct", "invalid") or result.outcome == "review":
        return result
    used = [k for k in keys if not _close(earlier[k].value, earlier[k].key_value)]
    if not used:
        return result
    carried_params = {**params, **{carried_name(k): earlier[k].value for k in keys}}
    carried = grade(raw, resolved, carried_params)
    if carried.outcome != "correct":
        return result
    refused = [k for k in used if _trivial(earlier[k].value, params)]
    if refused:  # right given a trivial earlier answer: no credit, and say why
        return dataclasses.replace(result, feedback=_refusal(
            result.feedback, [(earlier[k], _given_name(earlier[k].value, params))
                              for k in refused]))
    credit = float(spec.get("carried_credit", 1.0))
    labels = ", ".join(earlier[k].label for k in used)
    return dataclasses.replace(
        carried, score=credit, outcome="correct" if credit >= 1 - 1e-9 else "partial",
        feedback=f"Marked using your answer to {labels}: {carried.feedback}",
        misconception=CARRIED_TAG)


def earlier_from_answers(spec: Mapping[str, Any], params: Mapping[str, Any],
                         given: Mapping[str, str],
                         specs: Mapping[str, Mapping[str, Any]]) -> dict[str, Earlier]:
    """The earlier answers a part with ``spec`` uses, from answers typed as a student types
    them (``given``: part key -> raw answer; a key left out, or blank, is not answered), each
    with its part's key value in the variant; ``specs`` maps the exercise's part keys to
    their specs. ValueError when ``spec`` names a part that ``specs`` lacks. Pure: the author
    preview, question tests and check_answers build a carried part's earlier answers so."""
    out: dict[str, Earlier] = {}
    for key in carried_keys(spec):
        if key not in specs:
            raise ValueError(f"answer(\"{key}\") names no earlier part")
        raw = given.get(key)
        value = None if raw is None or not str(raw).strip() else \
            answer_value(str(raw), specs[key], params)
        out[key] = Earlier(f"({key})", value, key_value(specs[key], params, specs))
    return out


def grade_carried_kept(raw: str, spec: Mapping[str, Any], params: Mapping[str, Any],
                       earlier: Mapping[str, Earlier],
                       then: Mapping[str, Earlier] | None = None) -> Result:
    """``grade_carried`` against the student's earlier answers as they are now (``earlier``)
    and as they were when this answer was given (``then``; None: the same), keeping the
    better mark, as a teacher marks a later part against the earlier one written above it.

    When the earlier answers changed since and only those of the time earn this answer its
    mark, that verdict is kept and its feedback says so (correcting part (a) never takes
    away the credit part (b) earned from it).
    """
    result = grade_carried(raw, spec, params, earlier)
    if then is None:
        return result
    changed = [k for k in carried_keys(spec) if k in then and k in earlier
               and not _same_answer(then[k].value, earlier[k].value)]
    if not changed:
        return result
    kept = grade_carried(raw, spec, params, then)
    if kept.outcome == "invalid" or (kept.score or 0) <= (result.score or 0) + 1e-12:
        return result
    labels = ", ".join(then[k].label for k in changed)
    return dataclasses.replace(kept, feedback=(
        f"Kept from your answer to {labels} when you answered this part "
        f"({'; '.join(_shown(then[k].value) for k in changed)}): you have changed it since, "
        f"and a later part keeps the better of its two marks. {kept.feedback}"))


def _same_answer(a: Any, b: Any) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and _close(a, b))


def _shown(value: Any) -> str:
    if value is None:
        return "no answer"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    try:
        return f"{float(value):.6g}"
    except (TypeError, ValueError):
        return str(value)


def _given_name(value: Any, params: Mapping[str, Any]) -> str | None:
    for name, given in params.items():
        if _close(value, given):
            return name
    return None


def _refusal(feedback: str, refused: list[tuple[Earlier, str | None]]) -> str:
    reasons = []
    for item, given in refused:
        why = (f"is {_shown(item.value)}, a value the question gives ({given})"
               if given is not None and not all(_close(v, 0) for v in
                                                (item.value if isinstance(item.value, list)
                                                 else [item.value]))
               else "is zero")
        reasons.append(f"your answer to {item.label} {why}")
    return (f"{feedback} Your answer would be right given {' and '.join(reasons)}, but an "
            "earlier answer that is zero or a given value earns no carried credit (it would "
            "make this part too easy): work it out again.").strip()


def carried_problems(spec: Mapping[str, Any], earlier_specs: Mapping[str, Mapping[str, Any]],
                     earlier_keys: Sequence[str]) -> list[str]:
    """Problems with a part's use of earlier answers: each named part must come earlier in
    the exercise and be numeric, integer or vector; ``carried_credit`` in [0, 1]."""
    problems = []
    for key in carried_keys(spec):
        if key not in earlier_keys:
            problems.append(f"'reference': answer(\"{key}\") names no earlier part of this "
                            f"exercise")
        elif earlier_specs[key].get("type") not in CARRIED_TYPES:
            problems.append(f"'reference': answer(\"{key}\") must name a numeric, integer or "
                            f"vector part")
    credit = spec.get("carried_credit", 1.0)
    if isinstance(credit, bool) or not isinstance(credit, int | float) or not 0 <= credit <= 1:
        problems.append("'carried_credit' must be a number from 0 to 1")
    return problems
