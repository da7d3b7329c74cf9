"""How an answer is described on a page: its outcome in one phrase, and its score with the
attempt penalty explained ("0.8: correct on attempt 3, 10% off per earlier attempt").

Presentation only: stored verdicts are not changed. The attempt numbers follow the rule of
`grading.services.submission_grade`: answers that used an attempt are numbered in order; an
answer repeating an earlier one uses no attempt and is scored as the latest attempt so far.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from grading.checkers.carried import CARRIED_TAG
from grading.misconception_labels import misconception_label
from grading.models import Submission

#: Outcomes whose score is a grade (others have none, or none yet).
SCORED = Submission.GRADED_OUTCOMES
_NO_ATTEMPT = gettext_lazy("no attempt used")
#: An answer left for review that a later correct answer superseded (no review needed).
SUPERSEDED = gettext_lazy("Superseded by a later correct answer (no review needed)")


def score_text(score: float) -> str:
    """A score as pages show it: at most two decimals, no trailing zeros (0.8, 1, 0.25)."""
    return f"{score:.2f}".rstrip("0").rstrip(".")


def outcome_text(submission: Submission) -> str:
    """The outcome's label, saying once (never twice) when the answer used no attempt."""
    label = str(submission.get_outcome_display())
    if not submission.counts_as_attempt and str(_NO_ATTEMPT) not in label \
            and submission.outcome not in (Submission.Outcome.PENDING, Submission.Outcome.REVIEW):
        label += f" ({_NO_ATTEMPT})"
    return label


def penalty_note(*, outcome: str, attempt: int | None, penalty: float,
                 score: float | None = None) -> str:
    """Why a score is below the checker's: "correct on attempt 3, 10% off per earlier attempt";
    empty when no penalty applied (first attempt, no penalty, not a graded outcome, or a
    score of 0, which no penalty lowered)."""
    if not penalty or attempt is None or attempt <= 1 or outcome not in SCORED:
        return ""
    if score is not None and score <= 0:
        return ""
    numbers = {"attempt": attempt, "penalty": f"{penalty:.0%}"}
    if outcome == "correct":
        return _("correct on attempt %(attempt)s, %(penalty)s off per earlier attempt") % numbers
    if outcome == "partial":
        return _("partly correct on attempt %(attempt)s, %(penalty)s off per earlier "
                 "attempt") % numbers
    return _("answered on attempt %(attempt)s, %(penalty)s off per earlier attempt") % numbers


#: The phrases grading.checkers.carried writes at the start of a carried verdict's feedback.
_CARRIED_STARTS = ("Marked using your answer to ", "Kept from your answer to ")
_CARRIED_REFUSED = "earns no carried credit"


def carried_note(submission: Submission) -> str:
    """The first clause of a carried verdict's feedback (up to its colon), or a short note
    that carried credit was refused; empty otherwise (see `AnswerView.carried_note`)."""
    feedback = submission.feedback or ""
    if submission.misconception == CARRIED_TAG and feedback.startswith(_CARRIED_STARTS):
        return feedback.split(":", 1)[0]
    if _CARRIED_REFUSED in feedback:
        return _("no carried credit: the earlier answer is zero or a value the question gives")
    return ""


@dataclass(frozen=True)
class AnswerView:
    """One stored answer as a page lists it."""

    submission: Submission
    attempt: int | None  # the attempt it used, or was scored as (None: not scored as one)
    penalty: float
    superseded: bool = False  # awaiting review, but a later answer to the part is correct

    @property
    def outcome_text(self) -> str:
        if self.superseded:
            return str(SUPERSEDED)
        return outcome_text(self.submission)

    @property
    def scored(self) -> bool:
        return self.submission.score is not None and self.submission.outcome in SCORED

    @property
    def score_text(self) -> str:
        return score_text(self.submission.score) if self.submission.score is not None else ""

    @property
    def penalty_note(self) -> str:
        return penalty_note(outcome=self.submission.outcome, attempt=self.attempt,
                            penalty=self.penalty, score=self.submission.score)

    @property
    def carried_note(self) -> str:
        """How an answer marked against the student's earlier answers was marked, in a few
        words for a list of answers ("Marked using your answer to (a)", "Kept from your answer
        to (a) when you answered this part (12)"), or why it earned no carried credit; empty
        for any other answer."""
        return carried_note(self.submission)

    @property
    def misconception_label(self) -> str:
        """The matched tag's label (reads the part's spec: load the part with the answer)."""
        tag = self.submission.misconception
        return misconception_label(self.submission.part.spec, tag) if tag else ""


def answer_views(submissions: Iterable[Submission], *, penalty: float) -> list[AnswerView]:
    """One part's answers by one student, oldest first, each with its attempt number and
    whether it awaits review but was superseded by a later correct answer (the rule of
    `grading.progress.review_superseded`)."""
    views = []
    used = 0
    submissions = list(submissions)
    last_correct = max((i for i, s in enumerate(submissions)
                        if s.outcome == Submission.Outcome.CORRECT), default=-1)
    for index, submission in enumerate(submissions):
        if submission.counts_as_attempt:
            used += 1
            attempt: int | None = used
        else:
            attempt = max(1, used) if submission.outcome in SCORED else None
        superseded = submission.outcome == Submission.Outcome.REVIEW and index < last_correct
        views.append(AnswerView(submission=submission, attempt=attempt, penalty=penalty,
                                superseded=superseded))
    return views
