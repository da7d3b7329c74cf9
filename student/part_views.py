"""A part as the student sees it: its prompt, choice options' texts and the student's own
answers, attempts and prediction; never a reference, misconception, rubric or correct key
(part specs stay on the server)."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from courses.models import Part
from grading.answer_display import AnswerView, answer_views
from grading.models import Submission
from grading.preview import PREVIEWED_TYPES
from grading.public_spec import matrix_shape, public_spec
from grading.services import AttemptState, attempt_state_from
from grading.variant_assignment import Variant
from labs.models import LabRun
from labs.predictions import measured_value

#: Outcomes shown while the answer is still being graded (by a worker or a person).
WAITING = (Submission.Outcome.PENDING, Submission.Outcome.REVIEW)


@dataclass(frozen=True)
class PredictionView:
    """A locked prediction beside what the lab measured (None until the run has finished)."""

    lab_slug: str
    run: LabRun | None
    predicted: str
    measured: str | None

    @property
    def waiting(self) -> bool:
        return self.measured is None


@dataclass(frozen=True)
class PartView:
    """One answer box as the student sees it: prompt, options, their own attempts."""

    id: int
    key: str
    answer_type: str
    prompt: str
    points: float
    options: list[tuple[str, str]]
    multiple: bool
    state: AttemptState
    history: list[Submission]
    prediction: PredictionView | None = None
    answers: list[AnswerView] = field(default_factory=list)  # the history, described
    #: why the last answer sent was not accepted (deadline, attempts, not enrolled, ...),
    #: shown at the part
    notice: str = ""
    closed: bool = False  # the exercise's deadline (and late window) has passed
    shape: list[int] | None = None  # a matrix part's [rows, columns]: the grid of cells

    @property
    def cells(self) -> list[list[tuple[int, int, bool]]]:
        """A matrix part's grid, row by row: (row, column, marked wrong in the latest
        answer), 1-based; the wrong entries are those the latest verdict's feedback names
        ("Entries (1, 2), (2, 1) (row, column) are not right.", matrix.py)."""
        if not self.shape:
            return []
        latest = self.latest
        marks: set[tuple[int, int]] = set()
        if latest is not None and latest.outcome in ("incorrect", "partial"):
            named = re.search(r"Entr(?:y|ies) (.*?) \(row, column\)", latest.feedback or "")
            if named:
                marks = {(int(a), int(b)) for a, b in re.findall(r"\((\d+), (\d+)\)",
                                                                 named.group(1))}
        rows, cols = self.shape
        return [[(i, j, (i, j) in marks) for j in range(1, cols + 1)]
                for i in range(1, rows + 1)]

    @property
    def latest(self) -> Submission | None:
        return self.history[-1] if self.history else None

    @property
    def prediction_due(self) -> bool:
        """Whether this is a prediction not yet committed (its section's figures stay folded)."""
        return self.prediction is not None and not self.state.used

    @property
    def latest_answer(self) -> AnswerView | None:
        return self.answers[-1] if self.answers else None

    @property
    def history_summary(self) -> str:
        """The answers list's title: how many were stored, and how many used an attempt when
        that differs (it must agree with "Attempts used")."""
        stored, used = len(self.history), self.state.used
        if used == stored:
            return _("Your answers (%(stored)s)") % {"stored": stored}
        if not used:
            return _("Your answers (%(stored)s, none used an attempt)") % {"stored": stored}
        return _("Your answers (%(stored)s, %(used)s used an attempt)") % {
            "stored": stored, "used": used}

    @property
    def previewable(self) -> bool:
        return self.answer_type in PREVIEWED_TYPES

    @property
    def state_sentence(self) -> str:
        """The part's state in one sentence, the attempts counted in it: answerable ("Attempts
        used: 1 of 5 (4 left)."), solved, closed by its deadline, waiting to be graded, or out
        of attempts; never two states at once (a closed part does not count what is left)."""
        state = self.state
        numbers = {"used": state.used, "limit": state.limit, "left": state.left}
        used = (_("attempts used: %(used)s of %(limit)s") if state.limit
                else _("attempts used: %(used)s")) % numbers
        if self.can_answer or self.prediction:
            if not state.limit:
                return _("Attempts used: %(used)s (no limit).") % numbers
            if self.can_answer:
                return _("Attempts used: %(used)s of %(limit)s (%(left)s left).") % numbers
            return _("Attempts used: %(used)s of %(limit)s.") % numbers
        if state.solved:
            return _("Solved (%(used)s).") % {"used": used}
        if self.waiting:
            return _("Your answer is saved and waiting to be graded (%(used)s).") % {"used": used}
        if self.closed:
            return _("Closed (%(used)s).") % {"used": used}
        return _("No attempts left (%(used)s).") % {"used": used}

    @property
    def can_answer(self) -> bool:
        """Whether a form is shown: attempts left, not yet solved, not closed by a deadline."""
        return not self.state.solved and self.state.left != 0 and not self.closed

    @property
    def waiting(self) -> bool:
        latest = self.latest
        return latest is not None and latest.outcome in WAITING

    @property
    def initial(self) -> str:
        """What the answer box starts with: the last answer typed (nothing typed is lost)."""
        latest = self.latest
        return latest.raw_answer if latest is not None and self.can_answer else ""

    @property
    def read_as(self) -> str:
        """How the latest answer was read: a choice answer as its options' texts, never
        their keys."""
        latest = self.latest
        if latest is None or not latest.canonical:
            return ""
        return choice_texts(latest.canonical, self.options) if self.options else latest.canonical

    @property
    def history_rows(self) -> list[tuple[AnswerView, str]]:
        """Each answer described, with what the student gave (a choice as its text)."""
        return [(a, choice_texts(a.submission.raw_answer, self.options) if self.options
                 else a.submission.raw_answer) for a in self.answers]

    @property
    def chosen(self) -> list[str]:
        """Option keys of the latest answer (choice parts), to keep the selection checked."""
        latest = self.latest
        if latest is None:
            return []
        return [key.strip().lower() for key in latest.raw_answer.split(",") if key.strip()]


def part_options(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """A choice part's options as (key, text), from its public spec (none for other parts)."""
    return [(o["key"], o["text"]) for o in public_spec(spec).get("options", [])]


def choice_texts(keys: str, options: Sequence[tuple[str, str]]) -> str:
    """Comma-separated option keys ("diagonal, uniform") as their options' texts, joined by
    "; " (a key the part does not have is shown as typed)."""
    texts = {key.lower(): text for key, text in options}
    return "; ".join(texts.get(k.strip().lower(), k.strip())
                     for k in re.split(r"[,;\s]+", keys) if k.strip())


def _display(value: Any, options: Sequence[tuple[str, str]]) -> str:
    texts = dict(options)
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, list):
        return "[" + ", ".join(_display(v, options) for v in value) + "]"
    return texts.get(str(value), str(value))


def _prediction(part: Part, history: list[Submission], runs: dict[int, LabRun],
                options: list[tuple[str, str]]) -> PredictionView | None:
    spec = part.spec
    if not spec.get("lab"):
        return None
    charged = [s for s in history if s.counts_as_attempt]
    if not charged:
        return PredictionView(lab_slug=spec["lab"], run=None, predicted="", measured=None)
    submission = charged[-1]
    run = runs.get(submission.pk)
    predicted = _display(submission.raw_answer.strip().lower(), options) if options \
        else submission.raw_answer.strip()
    measured = None
    if (run is not None and run.status == LabRun.Status.SUCCEEDED and run.result is not None
            and submission.outcome not in WAITING):
        measured = _display(measured_value(run.result, spec["measure"]), options)
    return PredictionView(lab_slug=spec["lab"], run=run, predicted=predicted, measured=measured)


def part_view(part: Part, variant: Variant, history: list[Submission],
               runs: dict[int, LabRun], notice: str = "") -> PartView:
    spec = part.spec
    options = part_options(spec)
    return PartView(
        id=part.pk, key=part.key, answer_type=part.answer_type,
        prompt=variant.prompt(part.prompt or ""), points=part.points,
        options=options, multiple=bool(spec.get("multiple")),
        state=attempt_state_from(history, max_attempts=part.exercise.max_attempts),
        history=history, prediction=_prediction(part, history, runs, options),
        answers=answer_views(history, penalty=part.exercise.penalty), notice=notice,
        shape=matrix_shape(spec, variant.params) if part.answer_type == "matrix" else None,
    )
