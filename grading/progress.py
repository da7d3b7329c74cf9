"""Progress kept on write: one PartProgress row per (student, part) and one StudentProgress
row per (student, course), changed in the transaction that changes a verdict.

Every write that changes what a student's submissions or overrides say (a submission stored
or graded, a review, an override, a regrade, a prediction graded from its lab run) calls
`progress_refresh` before its transaction commits. The refresh reads one (student, part)'s
rows through the (course, part, student) index, a bounded number of queries whatever the
history; `progress_rebuild` recomputes every row of a course from scratch (a different
computation: a fold over the submissions in order) and the two are tested to agree.
"""

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import DatabaseError, connection, connections, transaction
from django.db.models import (
    Count,
    Exists,
    F,
    FloatField,
    Max,
    Min,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from core.sql_rows import row_update
from courses.models import Course, Part
from grading.answer_statements import course_totals_moved, progress_locked
from grading.models import GradeOverride, PartProgress, StudentProgress, Submission, WrongAnswerCount
from grading.variant_keys import parameter_definitions, variant_key
from grading.wrong_answer_counts import (
    Kind,
    Sums,
    kind_answers,
    wrong_answer_counts_add,
    wrong_answer_counts_change,
    wrong_answer_counts_change_many,
    wrong_answer_digest,
    wrong_answer_kinds,
)

#: Outcomes whose score counts toward progress and the gradebook.
SCORED = Submission.GRADED_OUTCOMES
WRONG = (Submission.Outcome.INCORRECT, Submission.Outcome.PARTIAL)
WAITING = (Submission.Outcome.REVIEW, Submission.Outcome.PENDING)
#: A score at least this high is full marks (scores are floats: never compared with ==).
FULL_MARKS = 1.0 - 1e-9

#: The PartProgress fields computed from a (student, part)'s submissions and overrides.
PART_FIELDS = ("computed_best", "best_score", "overridden", "attempts", "submissions", "pending",
               "awaiting_review", "ungraded", "solved", "correct", "to_correct", "solved_at",
               "last_submitted_at", "changed_at", "last_wrong_key", "last_wrong_misconception",
               "wrong_answers", "variant_seed", "variant_key")
STUDENT_FIELDS = ("total", "attempts", "parts_solved", "awaiting_review", "last_activity",
                  "changed_at")


def review_superseded() -> Exists:
    """True for a submission the same student followed with a correct answer to the same
    part (a later id): an answer awaiting review that is superseded leaves the review queue
    and the counts of answers awaiting review, and stays in the student's history. For a
    queryset of submissions (`.filter(~review_superseded())`); the (student, part,
    answer_key) index serves it."""
    return Exists(Submission.objects.filter(
        student_id=OuterRef("student_id"), part_id=OuterRef("part_id"),
        outcome=Submission.Outcome.CORRECT, id__gt=OuterRef("id")))


def answer_digest(key: str | None) -> str:
    """The stored form of `grading.checkers.answer_key` (fixed length, indexable); "" for
    None (an unreadable answer never repeats another)."""
    return "" if key is None else hashlib.sha256(key.encode()).hexdigest()


def _later(a: datetime | None, b: datetime | None) -> datetime | None:
    if a is None or b is None:
        return a or b
    return max(a, b)


def _apply_override(values: dict[str, Any], override: tuple[float | None, datetime] | None) -> None:
    """The latest override's score replaces the computed best (None clears overrides)."""
    values["best_score"] = values["computed_best"]
    values["overridden"] = False
    values["correct"] = values["solved"]
    if override is None:
        return
    score, at = override
    values["changed_at"] = _later(values["changed_at"], at)
    if score is not None:
        values["best_score"], values["overridden"] = score, True
        values["correct"] = score >= FULL_MARKS


def _part_progress_refresh(*, course_id: int, student_id: int, part_id: int,
                           row: PartProgress | None = None,
                           ) -> tuple[PartProgress, dict[str, int], dict[str, Kind]]:
    """Recompute the (student, part) row from its submissions and overrides and store it;
    returns it with its wrong answers before and after (for the course's sums).

    Five queries however many answers the student gave (the row locked, aggregates over the
    (course, part, student) index, the wrong answers grouped, the latest override, the
    update), one more on the first answer to the part (its variant's key).
    """
    # Lock the row first: under READ COMMITTED the aggregates below then see every answer
    # committed by a concurrent refresh of the same row, which cannot overwrite ours.
    if row is None:
        row = progress_locked(course_id=course_id, student_id=student_id, part_id=part_id)
    before = dict(row.wrong_answers or {})
    mine = Submission.objects.filter(course_id=course_id, student_id=student_id, part_id=part_id)
    first_correct = (mine.filter(outcome=Submission.Outcome.CORRECT, counts_as_attempt=True)
                     .order_by("id").values("id")[:1])
    last_correct = mine.filter(outcome=Submission.Outcome.CORRECT).order_by("-id").values("id")[:1]
    live_review = Q(outcome=Submission.Outcome.REVIEW,
                    id__gt=Coalesce(Subquery(last_correct), Value(0)))
    agg = mine.aggregate(
        computed_best=Max("score", filter=Q(outcome__in=SCORED)),
        attempts=Count("id", filter=Q(counts_as_attempt=True)),
        submissions=Count("id"),
        # An answer superseded by a later correct one no longer waits for a reviewer.
        pending=Count("id", filter=Q(outcome=Submission.Outcome.PENDING) | live_review),
        awaiting_review=Count("id", filter=live_review),
        ungraded=Count("id", filter=Q(graded_at__isnull=True)),
        corrects=Count("id", filter=Q(outcome=Submission.Outcome.CORRECT)),
        to_correct=Count("id", filter=Q(counts_as_attempt=True,
                                        id__lte=Subquery(first_correct))),
        solved_at=Min("created_at", filter=Q(outcome=Submission.Outcome.CORRECT)),
        last_submitted_at=Max("created_at"),
        changed_at=Max("graded_at"),
        variant_seed=Max("variant_seed"),
    )
    wrong = list(mine.filter(outcome__in=WRONG, counts_as_attempt=True)
                 .values_list("misconception", "canonical")
                 .annotate(answers=Count("id"), latest=Max("id")).order_by())
    latest = max(wrong, key=lambda group: group[3], default=None)
    after = wrong_answer_kinds((m, c, n) for m, c, n, _ in wrong)
    override = (GradeOverride.objects.filter(course_id=course_id, student_id=student_id,
                                             part_id=part_id)
                .order_by("-created_at", "-id").values_list("score", "created_at").first())
    values: dict[str, Any] = {
        **{k: agg[k] for k in ("computed_best", "attempts", "submissions", "pending",
                               "awaiting_review", "ungraded", "to_correct", "solved_at",
                               "last_submitted_at", "changed_at", "variant_seed")},
        "solved": agg["corrects"] > 0,
        "last_wrong_key": latest[1] if latest else "",
        "last_wrong_misconception": latest[0] if latest else "",
        "wrong_answers": kind_answers(after),
    }
    # The key follows the seed: drawn on the first answer, and again if the seed changes.
    if agg["submissions"] and (row.submissions == 0 or agg["variant_seed"] != row.variant_seed):
        parameters = Part.objects.filter(pk=part_id).values_list(
            "exercise__parameters", flat=True).first()
        values["variant_key"] = variant_key(parameter_definitions(parameters),
                                            agg["variant_seed"])
    _apply_override(values, override)
    for name, value in values.items():
        setattr(row, name, value)
    row.save(update_fields=list(values))
    return row, before, after


def _active_parts() -> Any:
    return Part.objects.active().filter(exercise__archived_at__isnull=True)


def _student_totals(course_id: int, student_ids: Iterable[int] | None) -> Iterator[
        tuple[int, dict[str, Any]]]:
    """(student id, StudentProgress values) from the PartProgress rows of active parts."""
    rows = PartProgress.objects.filter(course_id=course_id)
    if student_ids is not None:
        rows = rows.filter(student_id__in=list(student_ids))
    active = _active_parts().filter(pk=OuterRef("part_id"))
    counted = Q(Exists(active))
    # Points and parts solved count the active parts (the gradebook's columns); attempts,
    # answers awaiting review and the last activity every part, as the gradebook rows do.
    grouped = rows.values("student_id").annotate(
        total=Coalesce(Sum(F("best_score") * F("part__points"), filter=counted,
                           output_field=FloatField()), Value(0.0)),
        attempts_sum=Coalesce(Sum("attempts"), Value(0)),
        parts_solved=Count("id", filter=counted & Q(correct=True)),
        review_sum=Coalesce(Sum("awaiting_review"), Value(0)),
        last_activity=Max("last_submitted_at"),
        changed=Max("changed_at"),
    ).order_by()
    for row in grouped:
        yield row["student_id"], {
            "total": float(row["total"]), "attempts": row["attempts_sum"],
            "parts_solved": row["parts_solved"], "awaiting_review": row["review_sum"],
            "last_activity": row["last_activity"], "changed_at": row["changed"]}


def student_progress_refresh(*, course_id: int, student_id: int) -> None:
    """Recompute the student's course totals from their PartProgress rows, the totals row
    locked first (so concurrent refreshes of two parts add up). Three queries."""
    row, _ = StudentProgress.objects.select_for_update().get_or_create(
        course_id=course_id, student_id=student_id)
    for _sid, values in _student_totals(course_id, [student_id]):
        for name, value in values.items():
            setattr(row, name, value)
        row.save(update_fields=list(values))


def progress_refresh(*, course_id: int, student_id: int, part_id: int,
                     row: PartProgress | None = None) -> PartProgress:
    """Bring the (student, part) row, the student's course totals and the course's wrong
    answer counts up to date from the submissions and overrides (re-aggregated): what the
    verdict writer (grading/verdicts.py) runs inside its caller's transaction when the change
    cannot be applied by difference. `row`: the row, already locked by the caller. Bounded
    query count (see `_part_progress_refresh`, then three for the totals and at most one
    for the counts)."""
    row, before, after = _part_progress_refresh(course_id=course_id, student_id=student_id,
                                                part_id=part_id, row=row)
    student_progress_refresh(course_id=course_id, student_id=student_id)
    wrong_answer_counts_change(course_id=course_id, part_id=part_id, before=before, after=after)
    return row


# --- By difference: the answer path's two steps, exact when the answer is the latest one


def progress_answer_stored(*, row: PartProgress, created_at: datetime, seed: int | None,
                           parameters: Any) -> int:
    """Count one more stored, ungraded answer on the locked `row` (an answer path's first
    transaction): submissions, ungraded and pending up by one, the latest answer time, the
    variant answered. Exact whatever the history; one UPDATE. The student's totals follow
    with the verdict (`progress_verdict_applied`) or the recovery sweep's refresh. Returns
    the row's number of stored answers, this one included (the verdict's exactness check)."""
    first = row.submissions == 0
    values: dict[str, Any] = {
        "submissions": row.submissions + 1, "ungraded": row.ungraded + 1,
        "pending": row.pending + 1,
        "last_submitted_at": _later(row.last_submitted_at, created_at),
    }
    new_seed = row.variant_seed if seed is None else (
        seed if row.variant_seed is None else max(row.variant_seed, seed))
    if first or new_seed != row.variant_seed:
        values["variant_seed"] = new_seed
        values["variant_key"] = variant_key(parameter_definitions(parameters), new_seed)
    for name, value in values.items():
        setattr(row, name, value)
    _stored(row, list(values))
    return row.submissions


def _stored(row: PartProgress, fields: list[str]) -> None:
    """`row.save(update_fields=fields)` in one uncompiled statement (the answer path's)."""
    if not row_update(row, fields):
        raise DatabaseError("The progress row to update is gone.")


def progress_is_latest(row: PartProgress, stored_as: int | None) -> bool:
    """Whether the verdict of the answer stored as the row's `stored_as`-th can be applied
    by difference: no answer stored after it and none other waiting for its first grading
    (so it is the latest, and every earlier one is counted in the row as graded)."""
    return stored_as is not None and row.submissions == stored_as and row.ungraded == 1


def progress_is_latest_pending(row: PartProgress) -> bool:
    """Whether the lab verdict of a pending prediction can be applied by difference to the
    `row` read by `grading.answer_statements.progress_locked_for_lab_verdict`: no answer
    stored after the prediction (`later`) and none waiting for its first grading, so that
    every answer, the prediction included, is counted in the row as graded (a row that
    counts no pending answer does not count this one: it is re-aggregated)."""
    return not getattr(row, "later", True) and row.ungraded == 0 and row.pending > 0


def progress_verdict_applied(*, row: PartProgress, outcome: str, score: float | None,
                             counts: bool, canonical: str, misconception: str,
                             created_at: datetime, graded_at: datetime,
                             points: float, active: bool, replaces_pending: bool = False,
                             ) -> None:
    """Apply the first verdict of the latest answer (see `progress_is_latest`) to the locked
    `row`, the student's course totals and the course's wrong-answer sums, by difference:
    what `progress_refresh` would compute, without re-aggregating earlier answers. Three
    statements, four for a wrong answer, more only on the student's first answer in the
    course. `points`, `active`: the part's points and whether it counts toward the totals
    (not archived).

    `replaces_pending`: the verdict replaces the "pending" verdict of the latest answer, a
    prediction graded from its lab run (see `progress_is_latest_pending`); that answer is
    then already counted as graded and, if it `counts`, as an attempt.
    """
    old_best, old_correct = row.best_score, row.correct
    old_attempts, old_review = row.attempts, row.awaiting_review
    before = dict(row.wrong_answers or {})
    if not replaces_pending:
        row.ungraded -= 1
        if counts:
            row.attempts += 1
    if outcome not in WAITING:
        row.pending -= 1
    if outcome == Submission.Outcome.REVIEW:
        row.awaiting_review += 1
    if outcome in SCORED and score is not None:
        row.computed_best = score if row.computed_best is None else max(row.computed_best, score)
    if outcome == Submission.Outcome.CORRECT:
        if counts and not row.to_correct:
            row.to_correct = row.attempts
        # The earlier answers awaiting review are superseded (`review_superseded`).
        row.pending -= row.awaiting_review
        row.awaiting_review = 0
        row.solved = True
        row.solved_at = created_at if row.solved_at is None else min(row.solved_at, created_at)
    row.changed_at = _later(row.changed_at, graded_at)
    after: dict[str, Kind] = {}
    if outcome in WRONG and counts:
        row.last_wrong_key, row.last_wrong_misconception = canonical, misconception
        digest = wrong_answer_digest(misconception, canonical)
        after[digest] = (misconception, canonical, before.get(digest, 0) + 1)
        row.wrong_answers = {**before, digest: after[digest][2]}
    if not row.overridden:  # an override's score stays; else the computed best counts
        row.best_score, row.correct = row.computed_best, row.solved
    _stored(row, list(PART_FIELDS))
    d_total = ((row.best_score or 0.0) - (old_best or 0.0)) * points if active else 0.0
    d_solved = (int(row.correct) - int(old_correct)) if active else 0
    updated = course_totals_moved(
        course_id=row.course_id, student_id=row.student_id, total=d_total, solved=d_solved,
        attempts=row.attempts - old_attempts, awaiting_review=row.awaiting_review - old_review,
        last_activity=row.last_submitted_at, changed_at=row.changed_at)
    if not updated:  # the student's first answer in the course: the totals row is new
        student_progress_refresh(course_id=row.course_id, student_id=row.student_id)
    if after:
        wrong_answer_counts_change(course_id=row.course_id, part_id=row.part_id,
                                   before={d: before.get(d, 0) for d in after}, after=after)


# --- Rebuild: the same numbers by a different road (a fold over each student's answers)


@dataclass
class _Fold:
    computed_best: float | None = None
    attempts: int = 0
    submissions: int = 0
    pending: int = 0
    awaiting_review: int = 0
    ungraded: int = 0
    solved: bool = False
    to_correct: int = 0
    solved_at: datetime | None = None
    last_submitted_at: datetime | None = None
    changed_at: datetime | None = None
    last_wrong_key: str = ""
    last_wrong_misconception: str = ""
    variant_seed: int | None = None
    wrong: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, outcome: Any, score: Any, counts: Any, created: Any, graded: Any,
            canonical: Any, misconception: Any, seed: Any) -> None:
        """Count one more submission (the columns of `progress_rebuild`'s query, in id order)."""
        self.submissions += 1
        if counts:
            self.attempts += 1
        if outcome in SCORED and score is not None:
            self.computed_best = score if self.computed_best is None else max(
                self.computed_best, score)
        if outcome in WAITING:
            self.pending += 1
        if outcome == Submission.Outcome.REVIEW:
            self.awaiting_review += 1
        if graded is None:
            self.ungraded += 1
        if outcome == Submission.Outcome.CORRECT:
            if counts and not self.to_correct:
                self.to_correct = self.attempts
            self.pending -= self.awaiting_review  # superseded: see `review_superseded`
            self.awaiting_review = 0
            self.solved = True
            self.solved_at = created if self.solved_at is None else min(self.solved_at, created)
        if outcome in WRONG and counts:
            self.last_wrong_key, self.last_wrong_misconception = canonical, misconception
            self.wrong[(misconception, canonical)] = self.wrong.get((misconception, canonical), 0) + 1
        if seed is not None:
            self.variant_seed = seed if self.variant_seed is None else max(self.variant_seed, seed)
        self.last_submitted_at = _later(self.last_submitted_at, created)
        self.changed_at = _later(self.changed_at, graded)


def _chunks(rows: Any) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of a values_list query, 5,000 at a time, through a server-side cursor; on
    PostgreSQL read raw (the driver's values are final; the ORM's per-row work would double
    the time), elsewhere through the ORM (SQLite's raw times are naive)."""
    if connection.vendor != "postgresql":
        chunk = []
        for row in rows.iterator(chunk_size=5000):
            chunk.append(row)
            if len(chunk) >= 5000:
                yield chunk
                chunk = []
        if chunk:
            yield chunk
        return
    sql, params = rows.query.sql_with_params()
    with connections[rows.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while chunk := cursor.fetchmany(5000):
            yield chunk


def _fold_values(fold: _Fold, override: tuple[float | None, datetime] | None,
                 definitions: str) -> tuple[dict[str, Any], dict[str, Kind]]:
    """The PartProgress values of a fold (`definitions`: its exercise's parameter
    definitions) and its wrong answers."""
    values: dict[str, Any] = {name: getattr(fold, name) for name in fold.__dataclass_fields__}
    values["correct"] = fold.solved
    kinds = wrong_answer_kinds((m, c, n) for (m, c), n in fold.wrong.items())
    values["wrong_answers"] = kind_answers(kinds)
    values["variant_key"] = (variant_key(definitions, fold.variant_seed)
                             if fold.submissions else "")
    _apply_override(values, override)
    return values, kinds


def _row(course_id: int, key: tuple[int, int], fold: _Fold,
         overrides: dict[tuple[int, int], tuple[float | None, datetime]],
         definitions: dict[int, str], sums: Sums) -> tuple[Any, ...]:
    """The PartProgress values of a fold (its wrong answers also added to `sums`)."""
    values, kinds = _fold_values(fold, overrides.pop(key, None), definitions.get(key[1], "{}"))
    wrong_answer_counts_add(sums, key[1], kinds)
    return (course_id, key[0], key[1], *(values[name] for name in PART_FIELDS))


#: The columns of a submission a `_Fold` adds, in its `add` order.
FOLD_COLUMNS = ("outcome", "score", "counts_as_attempt", "created_at", "graded_at", "canonical",
                "misconception", "variant_seed")


def _write_rows(model: Any, columns: tuple[str, ...], rows: Iterator[tuple[Any, ...]]) -> int:
    """Insert `rows` (values of `columns`): PostgreSQL's COPY, else bulk_create in batches.
    Returns how many."""
    written = 0
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= 20000:
            written += _insert(model, columns, batch)
            batch = []
    return written + _insert(model, columns, batch)


def _insert(model: Any, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> int:
    if not rows:
        return 0
    if connection.vendor == "postgresql":
        # One COPY per batch: between batches the connection is free again for the
        # server-side cursor the rows come from.
        quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor, cursor.cursor.copy(
                f"COPY {table} ({quoted}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([json.dumps(v) if isinstance(v, dict) else v for v in row])
    else:
        model.objects.bulk_create([model(**dict(zip(columns, row, strict=True))) for row in rows])
    return len(rows)


def progress_rebuild(*, course: Course,
                     progress: Callable[[int, int], None] | None = None) -> int:
    """Delete and recompute every progress row of the course from its submissions and
    overrides (for repair, and after bulk loads). Returns the PartProgress rows written.
    Reads the submissions once, in (student, part, id) order, through a server-side
    cursor; `progress(done, total)` is called every 10,000 submissions and at the end."""
    submissions = Submission.objects.filter(course_id=course.pk)
    total = submissions.count()
    latest_override: dict[tuple[int, int], tuple[float | None, datetime]] = {}
    for student_id, part_id, score, at in (
            GradeOverride.objects.filter(course_id=course.pk).order_by("created_at", "id")
            .values_list("student_id", "part_id", "score", "created_at")):
        latest_override[(student_id, part_id)] = (score, at)
    columns = ("course_id", "student_id", "part_id", *PART_FIELDS)
    definitions = {pk: parameter_definitions(parameters) for pk, parameters in
                   Part.objects.values_list("pk", "exercise__parameters")}
    sums: Sums = {}
    with transaction.atomic():
        PartProgress.objects.filter(course_id=course.pk).delete()
        StudentProgress.objects.filter(course_id=course.pk).delete()
        WrongAnswerCount.objects.filter(course_id=course.pk).delete()

        def part_rows() -> Iterator[tuple[Any, ...]]:
            rows = submissions.order_by("student_id", "part_id", "id").values_list(
                "student_id", "part_id", *FOLD_COLUMNS)
            current: tuple[int, int] | None = None
            fold = _Fold()
            done = 0
            for chunk in _chunks(rows):
                for student_id, part_id, *rest in chunk:
                    key = (student_id, part_id)
                    if key != current:
                        if current is not None:
                            yield _row(course.pk, current, fold, latest_override, definitions,
                                       sums)
                        current, fold = key, _Fold()
                    fold.add(*rest)
                done += len(chunk)
                if progress is not None:
                    progress(done, total)
            if current is not None:
                yield _row(course.pk, current, fold, latest_override, definitions, sums)
            for key in list(latest_override):  # overridden parts without any answer
                yield _row(course.pk, key, _Fold(), latest_override, definitions, sums)

        written = _write_rows(PartProgress, columns, part_rows())
        StudentProgress.objects.bulk_create(
            (StudentProgress(course_id=course.pk, student_id=sid, **values)
             for sid, values in _student_totals(course.pk, None)), batch_size=5000)
        _write_rows(WrongAnswerCount, ("course_id", "part_id", "digest", "misconception",
                                       "canonical", "answers", "students"),
                    ((course.pk, part_id, digest, *entry) for (part_id, digest), entry
                     in sums.items()))
    if progress is not None:
        progress(total, total)
    return written


# --- Many students of one part at once (the reveal of a lecture-hall prediction)


def progress_refresh_many(*, course_id: int, part_id: int, student_ids: Iterable[int]) -> None:
    """What `progress_refresh` does for each of `student_ids` on one part, at once: their rows
    locked (in id order), recomputed by the rebuild's fold over their submissions, their
    course totals and the course's wrong-answer sums moved. A row is created only for a
    student with an answer or an override on the part. Eight queries whatever the number of
    students (three more when rows are created)."""
    ids = sorted(set(student_ids))
    if not ids:
        return
    # Locked before the answers are read (see `_part_progress_refresh`).
    rows = _rows_locked(PartProgress, course_id=course_id, student_ids=ids, part_id=part_id)
    folds = {student_id: _Fold() for student_id in ids}
    for student_id, *columns in (
            Submission.objects.filter(course_id=course_id, part_id=part_id, student_id__in=ids)
            .order_by("student_id", "id").values_list("student_id", *FOLD_COLUMNS)):
        folds[student_id].add(*columns)
    overrides: dict[int, tuple[float | None, datetime]] = {}
    for student_id, score, at in (
            GradeOverride.objects.filter(course_id=course_id, part_id=part_id, student_id__in=ids)
            .order_by("created_at", "id").values_list("student_id", "score", "created_at")):
        overrides[student_id] = (score, at)
    worked = [sid for sid in ids if folds[sid].submissions or sid in overrides]
    if any(sid not in rows for sid in worked):
        rows = _rows_locked(PartProgress, course_id=course_id, student_ids=ids,
                            create=[sid for sid in worked if sid not in rows], part_id=part_id)
    definitions = parameter_definitions(Part.objects.filter(pk=part_id).values_list(
        "exercise__parameters", flat=True).first())
    changes: list[tuple[dict[str, int], dict[str, Kind]]] = []
    for student_id, row in rows.items():
        before = dict(row.wrong_answers or {})
        values, kinds = _fold_values(folds[student_id], overrides.get(student_id), definitions)
        for name in PART_FIELDS:
            setattr(row, name, values[name])
        changes.append((before, kinds))
    _rows_save(PartProgress, list(rows.values()), PART_FIELDS)
    students_progress_refresh(course_id=course_id, student_ids=list(rows), create=worked)
    wrong_answer_counts_change_many(course_id=course_id, part_id=part_id, changes=changes)


def students_progress_refresh(*, course_id: int, student_ids: Iterable[int],
                              create: Iterable[int] = ()) -> None:
    """`student_progress_refresh` for many students: their totals rows locked (in id order;
    created if missing for the students in `create`) and recomputed from their PartProgress
    rows; three queries (five when rows are created)."""
    ids = sorted(set(student_ids) | set(create))
    if not ids:
        return
    rows = _rows_locked(StudentProgress, course_id=course_id, student_ids=ids, create=create)
    for student_id, values in _student_totals(course_id, list(rows)):
        for name, value in values.items():
            setattr(rows[student_id], name, value)
    _rows_save(StudentProgress, list(rows.values()), STUDENT_FIELDS)


def _rows_locked(model: Any, *, course_id: int, student_ids: list[int],
                 create: Iterable[int] = (), **key: int) -> dict[int, Any]:
    """The course's existing rows of `model` for `student_ids` (and `key`), {student id:
    row}, locked in id order (so two batches never wait for each other in a circle); the
    rows of the students in `create` are created first if missing (a concurrent creator's
    row is then the one locked)."""
    rows = model.objects.select_for_update().filter(course_id=course_id,
                                                   student_id__in=student_ids, **key)
    found = {row.student_id: row for row in rows.order_by("pk")}
    missing = set(create) - set(found)
    if missing:
        model.objects.bulk_create([model(course_id=course_id, student_id=student_id, **key)
                                   for student_id in sorted(missing)], ignore_conflicts=True)
        found = {row.student_id: row for row in rows.order_by("pk")}
    return found


def _rows_save(model: Any, rows: list[Any], fields: tuple[str, ...]) -> None:
    """Store `fields` of each of `rows` (instances of `model`): one plain UPDATE statement
    executed for every row at once (Django's bulk_update builds a CASE expression per row
    and field, which cost 80% of a reveal's time at 100 rows)."""
    if not rows:
        return
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(column.column)} = %s" for column in columns)
    # Only quoted names and placeholders are interpolated; the values are parameters.
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.executemany(sql, [
            [column.get_db_prep_save(getattr(row, column.attname), connection)
             for column in columns] + [row.pk] for row in rows])
