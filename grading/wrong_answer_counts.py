"""Wrong answers counted on write.

Each PartProgress row keeps its student's counted wrong answers to the part as
{digest: count} (`wrong_answers`), and WrongAnswerCount keeps the course-wide sums per (part,
misconception, canonical form): the number of answers and of students. The transaction that
changes a row adds the difference to the sums (grading/progress.py), so the statistics pages
read a few rows per part instead of grouping every wrong answer of the class.

The sums count every member who answered; `class_wrong_answers` subtracts the rows of those
who are not active students (withdrawn students, staff who tried the questions), a cost that
grows with those members, not with the class.
"""

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Window
from django.db.models.functions import RowNumber

from courses.models import Course, Enrollment
from grading.models import PartProgress, WrongAnswerCount
from grading.sql import wrong_answer_sums_upsert

#: One kind of wrong answer of a row: (misconception, canonical form, answers).
Kind = tuple[str, str, int]


@dataclass(frozen=True)
class WrongAnswerTally:
    """How often the course's active students gave one wrong answer to one part."""

    canonical: str
    misconception: str
    answers: int  # counted wrong answers that read this way
    students: int  # distinct students who gave it


def wrong_answer_digest(misconception: str, canonical: str) -> str:
    """The key of a (misconception, canonical form) pair: 32 hex characters, whatever the
    length of the answer (a unique index cannot hold a long free-text answer)."""
    return hashlib.sha256(f"{misconception}\n{canonical}".encode()).hexdigest()[:32]


def wrong_answer_kinds(rows: Iterable[tuple[str, str, int]]) -> dict[str, Kind]:
    """{digest: (misconception, canonical, answers)} from (misconception, canonical,
    answers) groups; equal pairs add up."""
    kinds: dict[str, Kind] = {}
    for misconception, canonical, answers in rows:
        digest = wrong_answer_digest(misconception, canonical)
        before = kinds.get(digest, (misconception, canonical, 0))[2]
        kinds[digest] = (misconception, canonical, before + answers)
    return kinds


def kind_answers(kinds: Mapping[str, Kind]) -> dict[str, int]:
    """{digest: answers}: what a PartProgress row keeps of its wrong answers."""
    return {digest: answers for digest, (_, _, answers) in kinds.items()}


def wrong_answer_counts_change(*, course_id: int, part_id: int, before: Mapping[str, int],
                               after: Mapping[str, Kind]) -> None:
    """Add to the course's sums the difference between one row's wrong answers `before`
    ({digest: answers}) and `after`: one statement, none when nothing changed, one more
    when a count falls (forms that reach zero are deleted). Call it last
    in the transaction (the sums' rows stay locked until it commits); rows are written in
    digest order, so two transactions never wait for each other in a circle."""
    wrong_answer_counts_change_many(course_id=course_id, part_id=part_id,
                                    changes=[(before, after)])


def wrong_answer_counts_change_many(
        *, course_id: int, part_id: int,
        changes: Iterable[tuple[Mapping[str, int], Mapping[str, Kind]]]) -> None:
    """`wrong_answer_counts_change` for many rows of one part at once (`changes`: each row's
    (before, after)): their differences added up, in the same one or two statements."""
    summed: dict[str, list[Any]] = {}
    for before, after in changes:
        for digest in set(before) | set(after):
            old = before.get(digest, 0)
            misconception, canonical, new = after.get(digest, ("", "", 0))
            if old == new:
                continue
            entry = summed.setdefault(digest, [misconception, canonical, 0, 0])
            if new:  # the text of a form some row still gives
                entry[0], entry[1] = misconception, canonical
            entry[2] += new - old
            entry[3] += int(new > 0) - int(old > 0)
    changes_rows = [(course_id, part_id, digest, *summed[digest]) for digest in sorted(summed)
                    if summed[digest][2] or summed[digest][3]]
    _sums_add(course_id, part_id, changes_rows)


def _sums_add(course_id: int, part_id: int, changes: list[tuple[Any, ...]]) -> None:
    """Add (course, part, digest, misconception, canonical, answers, students) differences
    of one part to the sums."""
    if not changes:
        return
    wrong_answer_sums_upsert(changes)
    # A form nobody gives any more goes: its text may be the only copy of an erased answer.
    lowered = [change[2] for change in changes if change[5] < 0]
    if lowered:
        WrongAnswerCount.objects.filter(course_id=course_id, part_id=part_id, digest__in=lowered,
                                        answers__lte=0).delete()


#: {(part id, digest): [misconception, canonical, answers, students]}: what a rebuild writes.
Sums = dict[tuple[int, str], list[Any]]


def wrong_answer_counts_add(sums: Sums, part_id: int, kinds: Mapping[str, Kind]) -> None:
    """Add one row's wrong answers (to part `part_id`) to `sums`."""
    for digest, (misconception, canonical, answers) in kinds.items():
        entry = sums.setdefault((part_id, digest), [misconception, canonical, 0, 0])
        entry[2] += answers
        entry[3] += 1


def _not_counted(course: Course, part_ids: list[int] | None) -> Sums:
    """The sums (as `wrong_answer_counts_add` adds them; no text) of the rows of the members
    who are not active students."""
    members = (Enrollment.objects.filter(course=course)
               .exclude(role=Enrollment.Role.STUDENT, is_active=True).values("user_id"))
    rows = PartProgress.objects.filter(course=course, student_id__in=members)
    if part_ids is not None:
        rows = rows.filter(part_id__in=part_ids)
    less: Sums = {}
    for part_id, answers in rows.values_list("part_id", "wrong_answers"):
        wrong_answer_counts_add(less, part_id, {digest: ("", "", n)
                                                for digest, n in (answers or {}).items()})
    return less


def class_wrong_answers(*, course: Course, part_ids: list[int] | None = None,
                        top: int | None = None) -> dict[int, list[WrongAnswerTally]]:
    """The active students' counted wrong answers per part (of `part_ids`, else every part),
    grouped by (canonical form, misconception), commonest first then by canonical form; at
    most `top` per part when given. Two or three queries whatever the size of the class."""
    less = _not_counted(course, part_ids)
    counts = WrongAnswerCount.objects.filter(course=course, answers__gt=0)
    if part_ids is not None:
        counts = counts.filter(part_id__in=part_ids)
    fields = ("part_id", "digest", "misconception", "canonical", "answers", "students")
    if top is None:
        rows = list(counts.values_list(*fields))
    else:
        # The true top rows are within the top `top + len(less)` of the sums (subtracting
        # lowers only the rows in `less`), plus the rows in `less` themselves.
        rank = Window(RowNumber(), partition_by=F("part_id"),
                      order_by=(F("answers").desc(), F("canonical").asc(),
                                F("misconception").asc()))
        rows = list(counts.annotate(rank=rank).filter(rank__lte=top + len(less))
                    .values_list(*fields))
        if less:
            seen = {(row[0], row[1]) for row in rows}
            rows += [row for row in counts.filter(digest__in={d for _, d in less})
                     .values_list(*fields) if (row[0], row[1]) not in seen]
    result: dict[int, list[WrongAnswerTally]] = defaultdict(list)
    for part_id, digest, misconception, canonical, answers, students in rows:
        *_, minus_answers, minus_students = less.get((part_id, digest), ("", "", 0, 0))
        if answers - minus_answers > 0:
            result[part_id].append(WrongAnswerTally(
                canonical=canonical, misconception=misconception,
                answers=answers - minus_answers, students=students - minus_students))
    for tallies in result.values():
        tallies.sort(key=lambda t: (-t.answers, t.canonical, t.misconception))
        if top is not None:
            del tallies[top:]
    return dict(result)
