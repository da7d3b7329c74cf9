"""What the projector shows of the room's answers: how many, and how they are spread.

Read from LiveAnswer alone (a bucket per answer, kept when it is stored) in a fixed number
of queries whatever the number of answers; never a student's name.
"""

from collections import Counter
from typing import Any

from django.db.models import Count

from courses.models import Part
from grading.misconception_labels import part_misconception_labels
from live.histogram import histogram
from live.models import LiveAnswer, LiveSession

#: The commonest canonical forms shown for an expression question.
TOP_FORMS = 8
NUMBER_TYPES = ("numeric", "integer")


def part_kind(part: Part) -> str:
    """How the room's answers to `part` are drawn: choice bars, a number histogram, the
    commonest expressions, or (free text) a count only."""
    if part.answer_type == "choice":
        return "choice"
    if part.answer_type in NUMBER_TYPES:
        return "number"
    if part.answer_type == "text":
        return "text"
    return "expression"


def choice_options(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, text) of a choice part's options, in their order."""
    return [(str(o.get("key", "")), str(o.get("text", o.get("key", ""))))
            for o in spec.get("options") or [] if isinstance(o, dict)]


def answer_text(raw_answer: str, options: list[tuple[str, str]]) -> str:
    """`raw_answer` with each chosen option key ("near-queen, king") replaced by its text
    ("Near queen; Near king"); any other answer as it was typed."""
    if not options:
        return raw_answer
    texts = {key.strip().lower(): text for key, text in options}
    keys = [k.strip().lower() for k in raw_answer.split(",") if k.strip()]
    if not keys or any(k not in texts for k in keys):
        return raw_answer
    return "; ".join(texts[k] for k in keys)


def choice_misconceptions(spec: dict[str, Any]) -> dict[str, str]:
    """option key -> the label of the misconception that choosing it shows."""
    labels = part_misconception_labels(spec)
    found: dict[str, str] = {}
    for item in spec.get("misconceptions") or []:
        if isinstance(item, dict) and str(item.get("tag", "")) in labels:
            found.setdefault(str(item.get("answer", "")).strip(), labels[str(item["tag"])])
    return found


def live_distribution(*, session: LiveSession) -> dict[str, Any]:
    """{"kind", "count", "bars": [{"label", "count", "note"}], "log"} for the session's valid
    answers (two queries at most)."""
    part = session.part
    spec = part.spec
    answers = LiveAnswer.objects.filter(session=session, valid=True)
    kind = part_kind(part)
    bars: list[dict[str, Any]] = []
    log = False
    if kind == "choice":
        counts: Counter[str] = Counter()
        total = 0
        for bucket, n in answers.values_list("bucket").annotate(n=Count("id")).order_by():
            total += n
            for key in {k.strip() for k in bucket.split(",") if k.strip()}:
                counts[key] += n
        notes = choice_misconceptions(spec)
        bars = [{"key": key, "label": text, "count": counts.get(key.strip().lower(), 0),
                 "note": notes.get(key, "")} for key, text in choice_options(spec)]
        return {"kind": kind, "count": total, "bars": bars, "log": False}
    if kind == "number":
        values = [v for v in answers.values_list("number", flat=True) if v is not None]
        total = answers.count()
        shape = histogram(values)
        log = shape.log
        bars = [{"label": _range(b.low, b.high), "count": b.count, "note": ""} for b in shape.bins]
        return {"kind": kind, "count": total, "bars": bars, "log": log}
    total = answers.count()
    if kind == "expression":
        labels = part_misconception_labels(spec)
        rows = (answers.values("bucket", "misconception").annotate(n=Count("id"))
                .order_by("-n", "bucket")[:TOP_FORMS])
        bars = [{"label": r["bucket"] or "(unreadable)", "count": r["n"],
                 "note": labels.get(r["misconception"], r["misconception"])} for r in rows]
    return {"kind": kind, "count": total, "bars": bars, "log": log}


def _range(low: float, high: float) -> str:
    return f"{low:.3g} to {high:.3g}" if low != high else f"{low:.3g}"


def live_verdict_counts(*, session: LiveSession) -> dict[str, int]:
    """outcome -> number of the session's valid answers with it (one query)."""
    rows = (LiveAnswer.objects.filter(session=session, valid=True)
            .values_list("submission__outcome").annotate(n=Count("id")).order_by())
    return {outcome: n for outcome, n in rows}
