"""What exams hold about a person: their attempts with every answer as saved (drafts and
graded answers), their kept assessment scores, the audit entries about their attempts or by
them, their accommodations and window extensions (with the reasons written about them)."""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from core.personal_data import PersonalDataSource, personal_data_register
from exams.models import (
    Accommodation,
    Answer,
    AssessmentScore,
    Attempt,
    AuditEntry,
    WindowExtension,
)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _their_audit(user: User) -> Q:
    """Entries about the person's attempts, their own actions, and the window extensions
    granted to them (whose entry names them: no attempt exists yet)."""
    return (Q(attempt__student=user) | Q(actor=user)
            | Q(action="extend", detail__startswith=f"{user.username} until "))


def attempts_export(user: User) -> list[dict[str, Any]]:
    """Every attempt of the person with each answer as last saved (a draft while open) and
    its grade once closed."""
    attempts = (Attempt.objects.filter(student=user).select_related("course", "assessment")
                .prefetch_related("answers__question").order_by("started_at", "id"))
    return [
        {"id": a.pk, "course": a.course.slug, "assessment": a.assessment.slug,
         "number": a.number, "started_at": _iso(a.started_at), "deadline_at": _iso(a.deadline_at),
         "closed_at": _iso(a.closed_at), "closed_by": a.closed_by, "score": a.score,
         "answers": [{"question": answer.question.slug, "part": answer.part_key,
                      "answer": answer.raw, "saved_at": _iso(answer.saved_at),
                      "saves": answer.saves, "outcome": answer.outcome, "score": answer.score,
                      "feedback": answer.feedback}
                     for answer in sorted(a.answers.all(), key=lambda x: x.pk)]}
        for a in attempts
    ]


def attempts_erase(user: User, pseudonym: str) -> int:
    """The answers' text and feedback (which may quote it) go; outcomes, scores, save counts
    and times stay, so the attempts' scores and the item analysis still add up."""
    return Answer.objects.filter(attempt__student=user).exclude(raw="", feedback="").update(
        raw="", feedback="")


def exam_scores_export(user: User) -> list[dict[str, Any]]:
    """The person's kept score on each assessment (exams/scores.py's rows): the score
    counted, closed attempts, whether one is open, whether and what was released."""
    return [
        {"course": s.course.slug, "assessment": s.assessment.slug, "score": s.score,
         "attempts": s.attempts, "in_progress": s.in_progress, "released": s.released,
         "released_score": s.released_score, "changed_at": _iso(s.changed_at)}
        for s in AssessmentScore.objects.filter(student=user).select_related(
            "course", "assessment").order_by("course__slug", "assessment__slug", "pk")
    ]


def exam_scores_erase(user: User, pseudonym: str) -> int:
    """Nothing goes: the scores hold no text of the person and stay, as the attempts'
    scores do, so the gradebook and the course's results still add up."""
    return 0


def exam_audit_export(user: User) -> list[dict[str, Any]]:
    """The audit log's entries about the person's attempts or by them, oldest first."""
    return [
        {"course": e.course.slug, "assessment": e.assessment.slug, "action": e.action,
         "detail": e.detail, "at": _iso(e.at), "by_them": e.actor_id == user.pk}
        for e in AuditEntry.objects.filter(_their_audit(user)).select_related(
            "course", "assessment").order_by("at", "pk")
    ]


def exam_audit_erase(user: User, pseudonym: str) -> int:
    """The entries' free text goes (reasons, names); who did what and when stays, as the
    course's record of the exam."""
    return AuditEntry.objects.filter(_their_audit(user)).exclude(detail="").update(detail="")


def exam_arrangements_export(user: User) -> dict[str, Any]:
    """The person's accommodations (time factor, extra attempts) and window extensions."""
    return {
        "accommodations": [
            {"course": a.course.slug, "time_factor": a.time_factor,
             "extra_attempts": a.extra_attempts}
            for a in Accommodation.objects.filter(student=user).select_related("course")
            .order_by("id")],
        "window_extensions": [
            {"course": e.course.slug, "assessment": e.assessment.slug,
             "closes_at": _iso(e.closes_at), "reason": e.reason}
            for e in WindowExtension.objects.filter(student=user).select_related(
                "course", "assessment").order_by("id")],
    }


def exam_arrangements_erase(user: User, pseudonym: str) -> int:
    """The extensions' reasons go; the arrangements themselves stay (they decided times)."""
    return WindowExtension.objects.filter(student=user).exclude(reason="").update(reason="")


def register() -> None:
    """Register exams' personal data (called from exams' hooks)."""
    personal_data_register(PersonalDataSource("exam attempts", attempts_export, attempts_erase))
    personal_data_register(PersonalDataSource("exam scores", exam_scores_export,
                                              exam_scores_erase))
    personal_data_register(PersonalDataSource("exam audit", exam_audit_export, exam_audit_erase))
    personal_data_register(PersonalDataSource("exam arrangements", exam_arrangements_export,
                                              exam_arrangements_erase))
