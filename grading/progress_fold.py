"""The one definition of a progress row: the PartProgress values of a (student, part) are a
fold over its submissions in id order (`Fold.add`) and its latest override (`fold_values`).

Everything that computes rows uses it: the refresh of one row (grading/progress.py), of one
part for many students, and the rebuild of a course (grading/progress_rebuild.py). The
answer path's two steps by difference (grading/progress.py, `progress_answer_stored` and
`progress_verdict_applied`) are this fold's step applied to the stored row for the latest
answer; tests hold them equal to a rebuild.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from grading.models import Submission
from grading.variant_keys import variant_key
from grading.wrong_answer_counts import Kind, kind_answers, wrong_answer_kinds

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

#: The columns of a submission a `Fold` adds, in its `add` order.
FOLD_COLUMNS = ("outcome", "score", "counts_as_attempt", "created_at", "graded_at", "canonical",
                "misconception", "variant_seed")


def later(a: datetime | None, b: datetime | None) -> datetime | None:
    """The later of two times, either of which may be missing."""
    if a is None or b is None:
        return a or b
    return max(a, b)


def apply_override(values: dict[str, Any], override: tuple[float | None, datetime] | None) -> None:
    """The latest override's score replaces the computed best (None clears overrides)."""
    values["best_score"] = values["computed_best"]
    values["overridden"] = False
    values["correct"] = values["solved"]
    if override is None:
        return
    score, at = override
    values["changed_at"] = later(values["changed_at"], at)
    if score is not None:
        values["best_score"], values["overridden"] = score, True
        values["correct"] = score >= FULL_MARKS


@dataclass
class Fold:
    """The PartProgress values of one (student, part) so far, one submission at a time."""

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
        self.last_submitted_at = later(self.last_submitted_at, created)
        self.changed_at = later(self.changed_at, graded)


def fold_values(fold: Fold, override: tuple[float | None, datetime] | None,
                definitions: str | None) -> tuple[dict[str, Any], dict[str, Kind]]:
    """The PartProgress values of a fold with the latest `override` (score, when) and its
    wrong answers. `definitions`: its exercise's parameter definitions, for the variant's
    key; None leaves the key out of the values (the stored row's stands)."""
    values: dict[str, Any] = {name: getattr(fold, name) for name in fold.__dataclass_fields__}
    values["correct"] = fold.solved
    kinds = wrong_answer_kinds((m, c, n) for (m, c), n in fold.wrong.items())
    values["wrong_answers"] = kind_answers(kinds)
    if definitions is not None:
        values["variant_key"] = (variant_key(definitions, fold.variant_seed)
                                 if fold.submissions else "")
    apply_override(values, override)
    return values, kinds
