"""Progress kept on write: one PartProgress row per (student, part) and one StudentProgress
row per (student, course), changed in the transaction that changes a verdict.

Every write that changes what a student's submissions or overrides say (a submission stored
or graded, a review, an override, a regrade, a prediction graded from its lab run) calls
`progress_refresh` before its transaction commits. The refresh reads one (student, part)'s
rows through the (course, part, student) index, a bounded number of queries whatever the
history, and folds them as every computation of a row does (grading/progress_fold.py);
`progress_rebuild` (grading/progress_rebuild.py) recomputes every row of a course from
scratch. On the answer path the rows move by difference (the fold's step applied to the
stored row); tests hold every road equal to a rebuild.
"""

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import DatabaseError
from django.db.models import Exists, OuterRef

from core.sql import row_update
from courses.models import Part
from grading.models import GradeOverride, PartProgress, Submission
from grading.progress_fold import (
    FOLD_COLUMNS,
    PART_FIELDS,
    SCORED,
    WAITING,
    WRONG,
    Fold,
    fold_values,
    later,
)
from grading.progress_locks import progress_locked
from grading.progress_totals import (
    rows_locked,
    rows_save,
    student_progress_refresh,
    students_progress_refresh,
)
from grading.sql import course_totals_moved
from grading.variant_keys import parameter_definitions, variant_key
from grading.wrong_answer_counts import (
    Kind,
    wrong_answer_counts_change,
    wrong_answer_counts_change_many,
    wrong_answer_digest,
)


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


def _part_progress_refresh(*, course_id: int, student_id: int, part_id: int,
                           row: PartProgress | None = None,
                           ) -> tuple[PartProgress, dict[str, int], dict[str, Kind]]:
    """Recompute the (student, part) row from its submissions and overrides and store it;
    returns it with its wrong answers before and after (for the course's sums).

    Four queries whatever the history (the row locked, its submissions through the (course,
    part, student) index, folded; the latest override; the update), one more on the first
    answer to the part or a new seed (its variant's key).
    """
    # Lock the row first: under READ COMMITTED the read below then sees every answer
    # committed by a concurrent refresh of the same row, which cannot overwrite ours.
    if row is None:
        row = progress_locked(course_id=course_id, student_id=student_id, part_id=part_id)
    before = dict(row.wrong_answers or {})
    fold = Fold()
    for columns in (Submission.objects.filter(course_id=course_id, student_id=student_id,
                                              part_id=part_id)
                    .order_by("id").values_list(*FOLD_COLUMNS)):
        fold.add(*columns)
    override = (GradeOverride.objects.filter(course_id=course_id, student_id=student_id,
                                             part_id=part_id)
                .order_by("-created_at", "-id").values_list("score", "created_at").first())
    # The key follows the seed: drawn on the first answer, and again if the seed changes.
    definitions = None
    if fold.submissions and (row.submissions == 0 or fold.variant_seed != row.variant_seed):
        definitions = parameter_definitions(Part.objects.filter(pk=part_id).values_list(
            "exercise__parameters", flat=True).first())
    values, after = fold_values(fold, override, definitions)
    fields = [name for name in PART_FIELDS if name in values]
    for name in fields:
        setattr(row, name, values[name])
    row.save(update_fields=fields)
    return row, before, after


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
        "last_submitted_at": later(row.last_submitted_at, created_at),
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
    `row` read by `grading.progress_locks.progress_locked_with_later`: no answer
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
    row.changed_at = later(row.changed_at, graded_at)
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
    rows = rows_locked(PartProgress, course_id=course_id, student_ids=ids, part_id=part_id)
    folds = {student_id: Fold() for student_id in ids}
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
        rows = rows_locked(PartProgress, course_id=course_id, student_ids=ids,
                            create=[sid for sid in worked if sid not in rows], part_id=part_id)
    definitions = parameter_definitions(Part.objects.filter(pk=part_id).values_list(
        "exercise__parameters", flat=True).first())
    changes: list[tuple[dict[str, int], dict[str, Kind]]] = []
    for student_id, row in rows.items():
        before = dict(row.wrong_answers or {})
        values, kinds = fold_values(folds[student_id], overrides.get(student_id), definitions)
        for name in PART_FIELDS:
            setattr(row, name, values[name])
        changes.append((before, kinds))
    rows_save(PartProgress, list(rows.values()), PART_FIELDS)
    students_progress_refresh(course_id=course_id, student_ids=list(rows), create=worked)
    wrong_answer_counts_change_many(course_id=course_id, part_id=part_id, changes=changes)
