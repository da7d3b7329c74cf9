"""Regrading one question of the closed attempts that had it, after a fix of its spec (a
wrong reference, a tolerance too tight), with the grader of today and each student's own
variant and saved answer; the attempts' scores follow.

The report is the one exercises have (grading/regrade.py): every stored verdict that
changed, before and after, and with `dry_run` what would change, storing nothing; plus each
attempt's score before and after. Each attempt is regraded under its row lock (as closing
locks it), so a regrade never races a reopen or a close; open attempts are left alone (they
are graded with the fixed question when they close). Every changed attempt gets a `regrade`
entry in the assessment's audit log, and its student's kept score is refreshed in the same
transaction (exams/scores.py: the gradebook, and the LMS once the score is released).
"""

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction

from courses.models import Course
from exams.grading import question_results
from exams.models import Answer, Attempt, AuditEntry, Question
from exams.paper import question_params, questions_of
from exams.scores import assessment_scores_refresh
from grading.regrade import RegradeReport, ScoreChange


@dataclass(frozen=True)
class AttemptScoreChange:
    """An attempt whose score (0..1 of the paper) changed, or would change in a dry run."""

    attempt_id: int
    student: str
    assessment: str
    before: float | None
    after: float


@dataclass
class ExamRegradeReport(RegradeReport):
    """`examined` counts answers (parts of the question on an attempt); `changed` lists
    their changed verdicts as exercises' reports do; `attempts` the changed scores."""

    attempts: list[AttemptScoreChange] = field(default_factory=list)


def question_regrade(*, question: Question, course: Course | None = None,
                     by: User | None = None, dry_run: bool = False) -> ExamRegradeReport:
    """Grade `question` again on every closed attempt that had it (in `course` only, when
    given); store and report the verdicts and attempt scores that changed (`dry_run`:
    report only). `by` is recorded in the audit log as who regraded."""
    attempts = Attempt.objects.filter(closed_at__isnull=False, answers__question=question)
    if course is not None:
        attempts = attempts.filter(course=course)
    report = ExamRegradeReport(dry_run=dry_run)
    for attempt_id in attempts.order_by("pk").values_list("pk", flat=True).distinct():
        with transaction.atomic():
            _attempt_regrade(attempt_id, question, report, by=by, dry_run=dry_run)
    return report


def _attempt_regrade(attempt_id: int, question: Question, report: ExamRegradeReport, *,
                     by: User | None, dry_run: bool) -> None:
    attempt = Attempt.objects.select_for_update().select_related("student", "assessment") \
        .get(pk=attempt_id)
    entry = next((e for e in attempt.paper if e["question"] == str(question.uuid)), None)
    if attempt.closed_at is None or entry is None:
        return  # reopened meanwhile: graded with the fixed question when it closes again
    answers = {a.part_key: a for a in Answer.objects.filter(attempt=attempt, question=question)}
    results = question_results(question, question_params(question, entry["seed"]),
                               {key: a.raw for key, a in answers.items()})
    for spec in question.parts:
        key = spec["key"]
        answer = answers.get(key) or Answer(attempt=attempt, question=question, part_key=key,
                                            raw="", saved_at=attempt.closed_at, saves=0)
        outcome, score, feedback = results[key]
        report.examined += 1
        before = (answer.outcome, answer.score)
        if before == (outcome, score) and answer.feedback == feedback and answer.pk:
            continue
        if before != (outcome, score):
            report.changed.append(ScoreChange(
                submission_id=answer.pk or 0, student=attempt.student.username,
                part=f"{attempt.assessment.slug}:{question.slug}/{key}", raw_answer=answer.raw,
                before=before, after=(outcome, score)))
        if not dry_run:
            answer.outcome, answer.score, answer.feedback = outcome, score, feedback
            answer.save()
    score = _paper_score(attempt, replaced=None if not dry_run else (question, results))
    if attempt.score is not None and abs(score - attempt.score) < 1e-12:
        return
    report.attempts.append(AttemptScoreChange(attempt.pk, attempt.student.username,
                                              attempt.assessment.slug, attempt.score, score))
    if dry_run:
        return
    AuditEntry.objects.create(
        course_id=attempt.course_id, assessment_id=attempt.assessment_id, attempt=attempt,
        actor=by, action="regrade",
        detail=f"{question.slug}: score {attempt.score or 0:.4f} -> {score:.4f}")
    attempt.score = score
    attempt.save(update_fields=["score"])
    # The kept score follows (the gradebook; the LMS gets a changed released score).
    assessment_scores_refresh(assessment=attempt.assessment, course_id=attempt.course_id,
                              student_ids=[attempt.student_id])


def _paper_score(attempt: Attempt, replaced: tuple[Question, dict] | None) -> float:
    """The paper's score 0..1 from its stored verdicts (with `replaced`: one question's new
    results instead of its stored ones, for a dry run)."""
    questions = questions_of(attempt.paper)
    stored = {(a.question_id, a.part_key): a.score or 0.0
              for a in Answer.objects.filter(attempt=attempt)}
    earned = total = 0.0
    for entry in attempt.paper:
        question = questions[entry["question"]]
        for spec in question.parts:
            points = float(spec.get("points", 1))
            if replaced is not None and replaced[0].pk == question.pk:
                score = replaced[1][spec["key"]][1]
            else:
                score = stored.get((question.pk, spec["key"]), 0.0)
            earned += points * score
            total += points
    return earned / total if total else 0.0
