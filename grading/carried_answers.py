"""Parts marked against the student's own earlier answers (error carried forward), with the
database: reading those earlier answers, and regrading the later parts when one changes.

The marking rule itself is pure (grading/checkers/carried.py). Here, `part_grade` grades an
answer to any part, reading the student's latest answers to the earlier parts it names (one
query) when its key uses them; `later_parts` names the parts whose keys use a part's answer
(grading.regrade.carried_parts_regrade regrades them when that answer's verdict changes).
"""

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet

from courses.models import Part
from grading.checkers import Result, answer_key, grade_keyed
from grading.checkers.carried import (
    Earlier,
    answer_value,
    carried_keys,
    grade_carried_kept,
    key_value,
    resolved_spec,
)
from grading.models import Submission

#: Earlier answers a later part may use: graded ones, and those waiting for a person.
_USABLE = (*Submission.GRADED_OUTCOMES, Submission.Outcome.REVIEW)


def part_grade(*, raw: str, part: Part, params: Mapping[str, Any], student_id: int,
               course_id: int, submission_id: int | None = None) -> tuple[Result, str | None]:
    """The verdict and answer key of `raw` for `part` in the student's variant (`params`);
    a part whose key uses earlier answers is marked against the student's own (one query).

    `submission_id`: the stored answer being graded, whose mark is then the better of the
    marks against the earlier answers as they are now and as they were when it was given
    (those stored before it): see ``grade_carried_kept``."""
    keys = carried_keys(part.spec)
    if not keys:
        return grade_keyed(raw, part.spec, params)
    now, then = earlier_answers(part=part, keys=keys, params=params,
                                     student_id=student_id, course_id=course_id,
                                     before_id=submission_id)
    result = grade_carried_kept(raw, part.spec, params, now, then)
    return result, answer_key(raw, resolved_spec(part.spec))


def earlier_answers(*, part: Part, keys: list[str], params: Mapping[str, Any],
                         student_id: int, course_id: int, before_id: int | None,
                         ) -> tuple[dict[str, Earlier], dict[str, Earlier] | None]:
    """The student's latest usable answer to each earlier part named in `keys`, with each
    part's key value in the variant; and the same as they stood before the answer
    `before_id` was stored (None without `before_id`). One query for the answers, one for
    the exercise's parts, whose keys a chain of carried parts needs."""
    siblings = {p.key: p for p in Part.objects.filter(exercise_id=part.exercise_id)}
    parts = {k: siblings[k] for k in keys if k in siblings}
    specs = {k: p.spec for k, p in siblings.items()}
    latest: dict[int, str] = {}
    earlier: dict[int, str] = {}
    rows = (Submission.objects.filter(student_id=student_id, course_id=course_id,
                                      part_id__in=[p.pk for p in parts.values()],
                                      outcome__in=_USABLE)
            .order_by("part_id", "-id").values_list("part_id", "id", "raw_answer"))
    for part_id, answer_id, raw in rows:
        latest.setdefault(part_id, raw)
        if before_id is not None and answer_id < before_id:
            earlier.setdefault(part_id, raw)

    def table(stored_by_part: dict[int, str]) -> dict[str, Earlier]:
        out: dict[str, Earlier] = {}
        for key, earlier_part in parts.items():
            stored = stored_by_part.get(earlier_part.pk)
            value = None if stored is None else answer_value(stored, earlier_part.spec, params)
            out[key] = Earlier(f"({key})", value, key_value(earlier_part.spec, params, specs))
        return out

    return table(latest), None if before_id is None else table(earlier)


def carrying_parts(part: Part) -> QuerySet[Part]:
    """The later parts of `part`'s exercise whose key may use earlier answers (a superset of
    those that use `part`'s: the answer path asks it inside the query that locks the
    progress row, so it costs no query of its own)."""
    return Part.objects.filter(exercise_id=part.exercise_id, archived_at__isnull=True,
                               order__gt=part.order, spec__reference__icontains="answer(")


def later_parts(part: Part) -> list[Part]:
    """The parts of `part`'s exercise whose keys use the answer to `part`."""
    return [p for p in carrying_parts(part) if part.key in carried_keys(p.spec)]
