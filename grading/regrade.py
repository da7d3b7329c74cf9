"""Regrading stored submissions after a spec fix or a new grader, with the grader of today.

Outcomes a person decided (reviews) and predictions (graded against what a lab measured, not
against the spec: labs/predictions.py) are left alone; whether an answer used an attempt
is not changed, so a regrade never costs a student. With ``dry_run`` nothing is stored: the
report lists the stored verdicts (outcome, score, misconception) the current grader would
change, e.g. before deploying a new GRADER_VERSION. `carried_parts_regrade` regrades the later
parts that use an answer whose verdict just changed (error carried forward), through the
verdict writer, so the change is recorded as a regrade with its event.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import QuerySet

from grading.carried_answers import later_parts, part_grade
from grading.models import Submission
from grading.penalty import penalised
from grading.variant_assignment import variant_for
from grading.verdicts import NewVerdict, Why, verdict_record

REGRADABLE = (*Submission.GRADED_OUTCOMES, Submission.Outcome.INVALID, Submission.Outcome.ERROR)


@dataclass(frozen=True)
class ScoreChange:
    """A stored verdict that changed (or, in a dry run, would change)."""

    submission_id: int
    student: str
    part: str
    raw_answer: str
    before: tuple[str, float | None]
    after: tuple[str, float | None]
    misconception_before: str = ""
    misconception_after: str = ""
    grader_version_before: str = ""


@dataclass
class RegradeReport:
    """How many submissions were examined and which verdicts changed."""

    examined: int = 0
    changed: list[ScoreChange] = field(default_factory=list)
    dry_run: bool = False


def submissions_regrade(
    *, submissions: QuerySet[Submission], progress: Callable[[int, int], None] | None = None,
    dry_run: bool = False,
) -> RegradeReport:
    """Grade `submissions` again with the current specs and grader; store and report what
    changed (outcome or score; a changed misconception tag is reported too). With
    `dry_run`, nothing is stored and the report lists what would change.

    The attempt penalty is applied as at first grading (by the answer's attempt number).
    `progress(done, total)` is called after each submission.
    """
    queryset = (submissions.filter(outcome__in=REGRADABLE).exclude(part__spec__has_key="lab")
                .select_related("part__exercise", "student", "course").order_by("pk"))
    total = queryset.count()
    report = RegradeReport(dry_run=dry_run)
    for done, submission in enumerate(queryset.iterator(chunk_size=500), start=1):
        report.examined += 1
        change = _regrade_one(submission, dry_run=dry_run)
        if change is not None:
            report.changed.append(change)
        if progress is not None:
            progress(done, total)
    return report


def _regrade_one(submission: Submission, *, dry_run: bool) -> ScoreChange | None:
    part = submission.part
    variant = variant_for(student=submission.student, course=submission.course,
                          exercise=part.exercise)
    outcome: str
    try:
        result, _ = part_grade(raw=submission.raw_answer, part=part, params=variant.params,
                               student_id=submission.student_id,
                               course_id=submission.course_id,
                               submission_id=submission.pk)
    except ValueError:
        outcome, score, feedback, misconception, canonical = (
            Submission.Outcome.ERROR, None, "The grader could not grade this answer.", "", "")
    else:
        outcome = result.outcome  # the checkers' vocabulary is Submission.Outcome's
        score, feedback = result.score, result.feedback
        misconception, canonical = result.misconception or "", result.canonical
        if score is not None and part.exercise.penalty:
            # As at first grading: a repeated answer is scored as the latest attempt.
            attempt = Submission.objects.filter(
                student_id=submission.student_id, course_id=submission.course_id,
                part_id=part.pk, counts_as_attempt=True, pk__lte=submission.pk).count()
            score = penalised(score, part.exercise.penalty, max(1, attempt))
    before = (submission.outcome, submission.score)
    unchanged = (before == (outcome, score) and submission.feedback == feedback
                 and submission.misconception == misconception)
    if unchanged:
        return None
    misconception_before, version_before = submission.misconception, submission.grader_version
    if not dry_run:
        with transaction.atomic():
            verdict_record(submission=submission, why=Why.REGRADE, verdict=NewVerdict(
                outcome=outcome, score=score, feedback=feedback, misconception=misconception,
                canonical=canonical))
            carried_parts_regrade(submission=submission)  # later parts that use this answer
    if before == (outcome, score) and misconception_before == misconception:
        return None  # only the wording changed: stored, but not a verdict change
    return ScoreChange(submission_id=submission.pk, student=submission.student.username,
                       part=f"{part.exercise.slug}/{part.key}", raw_answer=submission.raw_answer,
                       before=before, after=(outcome, score),
                       misconception_before=misconception_before,
                       misconception_after=misconception,
                       grader_version_before=version_before)


def carried_parts_regrade(*, submission: Submission) -> int:
    """Regrade the student's latest counted answer to each later part that uses the part
    of `submission`, whose verdict just changed; returns how many verdicts changed."""
    later = later_parts(submission.part)
    if not later:
        return 0
    changed = 0
    for part in later:
        latest = (Submission.objects.filter(student_id=submission.student_id,
                                            course_id=submission.course_id, part=part,
                                            counts_as_attempt=True)
                  .order_by("-id").values_list("pk", flat=True)[:1])
        report = submissions_regrade(submissions=Submission.objects.filter(pk__in=list(latest)))
        changed += len(report.changed)
    return changed
