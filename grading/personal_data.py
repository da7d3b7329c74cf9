"""What grading holds about a person: their answers and verdicts, the reviews of their work,
overrides and extensions granted to them."""

from typing import Any

from django.contrib.auth.models import User

from core.personal_data import PersonalDataSource, personal_data_register
from grading.models import (
    DeadlineExtension,
    DefaultVariant,
    GradeOverride,
    PartProgress,
    Review,
    Submission,
)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def submissions_export(user: User) -> list[dict[str, Any]]:
    """Every answer the person typed, as typed, with its verdict and the reviews of it."""
    rows = (Submission.objects.filter(student=user)
            .select_related("course", "part__exercise").prefetch_related("reviews")
            .order_by("created_at", "id"))
    return [
        {"id": s.pk, "course": s.course.slug, "exercise": s.part.exercise.slug,
         "part": s.part.key, "answer": s.raw_answer, "read_as": s.canonical,
         "outcome": s.outcome, "score": s.score, "feedback": s.feedback,
         "misconception": s.misconception, "counted_as_attempt": s.counts_as_attempt,
         "variant_seed": s.variant_seed, "submitted_at": _iso(s.created_at),
         "graded_at": _iso(s.graded_at),
         "reviews": [{"score": r.score, "comment": r.comment, "at": _iso(r.created_at)}
                     for r in s.reviews.all()]}
        for s in rows
    ]


def submissions_erase(user: User, pseudonym: str) -> int:
    """The answer's text, how it was read and the feedback (which may quote it) go; outcome,
    score, misconception tag and times stay, so statistics still add up. Review comments on
    the person's work go too."""
    changed = Submission.objects.filter(student=user).exclude(
        raw_answer="", canonical="", feedback="", answer_key="").update(
        raw_answer="", canonical="", feedback="", answer_key="")
    return changed + Review.objects.filter(submission__student=user).exclude(comment="").update(
        comment="")


def progress_export(user: User) -> list[dict[str, Any]]:
    """The person's standing per part (kept from their answers), with their latest wrong
    answer as it was read."""
    return [
        {"course": p.course.slug, "part": str(p.part), "best_score": p.best_score,
         "attempts": p.attempts, "correct": p.correct, "latest_wrong_answer": p.last_wrong_key,
         "latest_misconception": p.last_wrong_misconception,
         "last_submitted_at": _iso(p.last_submitted_at)}
        for p in PartProgress.objects.filter(student=user).select_related(
            "course", "part__exercise").order_by("id")
    ]


def progress_erase(user: User, pseudonym: str) -> int:
    """Runs after the answers' erasure (a later `order`): each of the person's rows is
    refreshed from their erased answers, so the latest wrong answer's text goes and the
    course's wrong-answer counts move their answers to the erased (empty) form; scores and
    counts stay. Returns the rows refreshed."""
    # Imported here, not at start-up: progress reads variants, which import sympy (seconds).
    from grading.progress import progress_refresh

    rows = list(PartProgress.objects.filter(student=user).values_list("course_id", "part_id"))
    for course_id, part_id in rows:
        progress_refresh(course_id=course_id, student_id=user.pk, part_id=part_id)
    return len(rows)


def grade_changes_export(user: User) -> dict[str, Any]:
    """Overrides of the person's grades and extensions of their deadlines, with reasons."""
    return {
        "overrides": [
            {"course": o.course.slug, "part": str(o.part), "score": o.score, "reason": o.reason,
             "at": _iso(o.created_at)}
            for o in GradeOverride.objects.filter(student=user).select_related(
                "course", "part__exercise").order_by("id")],
        "extensions": [
            {"course": e.course.slug, "exercise": e.exercise.slug, "due_at": _iso(e.due_at),
             "reason": e.reason}
            for e in DeadlineExtension.objects.filter(student=user).select_related(
                "course", "exercise").order_by("id")],
        "module_numbers_in": [d.course.slug for d in
                              DefaultVariant.objects.filter(student=user).select_related("course")],
    }


def grade_changes_erase(user: User, pseudonym: str) -> int:
    """Reasons written about the person go; the grades and dates they set stay."""
    return (GradeOverride.objects.filter(student=user).exclude(reason="").update(reason="")
            + DeadlineExtension.objects.filter(student=user).exclude(reason="").update(reason=""))


def register() -> None:
    """Register grading's personal data (called from grading's hooks)."""
    personal_data_register(PersonalDataSource("submissions", submissions_export, submissions_erase))
    personal_data_register(PersonalDataSource("progress", progress_export, progress_erase,
                                              order=110))
    personal_data_register(PersonalDataSource("grade changes", grade_changes_export,
                                              grade_changes_erase))
