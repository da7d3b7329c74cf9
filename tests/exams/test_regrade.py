"""Regrading a question after a fix of its spec: the closed attempts that had it are graded
again with each student's own answer and variant, their scores follow, the report lists the
changed verdicts and scores as exercises' regrade does (a dry run stores nothing), open
attempts are left alone, and each changed attempt is audited."""

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

from exams.models import Answer, Attempt, AuditEntry, Question
from exams.regrade import question_regrade
from exams.services import attempt_close, attempt_start, drafts_save
from tests.exams.faults import students_enrolled
from tests.exams.test_attempts import right_answers

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_attempts(quiz_course) -> list[Attempt]:
    """Six students answered every question right and submitted; one more is still open."""
    attempts = []
    for user in students_enrolled(quiz_course, 7, "taker"):
        attempt = attempt_start(student=user, course=quiz_course.course,
                                assessment=quiz_course.assessment).attempt
        drafts_save(attempt_id=attempt.pk, student=user, drafts=right_answers(attempt))
        attempts.append(attempt)
    for attempt in attempts[:-1]:
        attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    return attempts


def _broken(slug: str) -> Question:
    """The question with a wrong reference, as a bad sync would leave it (N+1 for N)."""
    question = Question.objects.get(slug=slug)
    question.parts = [{**question.parts[0], "reference": f"{question.parts[0]['reference']}+1"}]
    question.save(update_fields=["parts"])
    return question


def _most_drawn(attempts: list[Attempt]) -> str:
    """The slug of the gradients pool's question most of the closed attempts drew."""
    drawn = Counter(e["question"] for a in attempts[:-1] for e in a.paper if e["zone"] == 1)
    slug = Question.objects.get(uuid=drawn.most_common(1)[0][0]).slug
    assert drawn.most_common(1)[0][1] >= 3  # of six, one of two questions
    return slug


def _with(attempts: list[Attempt], question: Question) -> list[Attempt]:
    return [a for a in attempts if str(question.uuid) in {e["question"] for e in a.paper}]


def test_a_fixed_question_regrades_the_closed_attempts_that_had_it_and_reports_the_change(
        closed_attempts):
    slug = _most_drawn(closed_attempts)
    question = Question.objects.get(slug=slug)
    had_it = _with(closed_attempts[:-1], question)
    right = question.parts
    _broken(slug)
    broken_report = question_regrade(question=Question.objects.get(pk=question.pk))
    assert {c.after[1] for c in broken_report.changed} == {0.0}
    question.parts = right  # the fix synced
    question.save(update_fields=["parts"])

    report = question_regrade(question=question)

    assert report.examined == len(had_it)
    assert [(c.before[1], c.after[1]) for c in report.changed] == [(0.0, 1.0)] * len(had_it)
    assert {c.part for c in report.changed} == {f"quiz-1:{slug}/{right[0]['key']}"}
    assert {(a.attempt_id, a.after) for a in report.attempts} == {(a.pk, 1.0) for a in had_it}
    for attempt in had_it:
        attempt.refresh_from_db()
        assert attempt.score == pytest.approx(1.0)
        assert AuditEntry.objects.filter(attempt=attempt, action="regrade").count() == 2
    open_one = closed_attempts[-1]
    assert not Answer.objects.filter(attempt=open_one).exclude(outcome="").exists()
    assert question_regrade(question=question).changed == []  # nothing left to change


def test_a_dry_run_reports_what_would_change_and_stores_nothing(closed_attempts):
    question = _broken(_most_drawn(closed_attempts))
    had_it = _with(closed_attempts[:-1], question)
    report = question_regrade(question=question, dry_run=True)
    assert report.dry_run and len(report.changed) == len(had_it)
    assert all(a.after < a.before for a in report.attempts if a.before is not None)
    assert all(a.score == pytest.approx(1.0) for a in Attempt.objects.filter(
        pk__in=[a.pk for a in had_it]))
    assert not AuditEntry.objects.filter(action="regrade").exists()


def test_the_command_lists_the_changes_like_the_exercise_regrade(closed_attempts):
    slug = _most_drawn(closed_attempts)
    question = _broken(slug)
    had_it = _with(closed_attempts[:-1], question)
    out = StringIO()
    call_command("regrade_exam", "--question", slug, "--dry-run", stdout=out)
    text = out.getvalue()
    assert text.count(f"quiz-1:{slug}/") == len(had_it)
    assert "-> wrong 0.0" in text or "-> incorrect 0.0" in text
    assert "(dry run: nothing stored)" in text
    out = StringIO()
    call_command("regrade_exam", "--question", slug, stdout=out)
    assert f"{len(had_it)} attempt score(s) changed" in out.getvalue()
