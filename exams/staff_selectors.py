"""Reads for the course team's page of an assessment: the attempts, the accommodations, the
audit log and the item analysis of the counted attempts."""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from courses.access import is_staff_role
from courses.models import Course
from exams.item_statistics import (
    ChoicePart,
    Chosen,
    ItemStatistic,
    Taken,
    Timed,
    cronbach_alpha,
    item_statistics,
    score_distribution,
)
from exams.models import (
    Accommodation,
    Answer,
    Assessment,
    Attempt,
    AuditEntry,
    Proctoring,
    Release,
    WindowExtension,
)
from exams.paper import question_params, questions_of
from exams.selectors import AssessmentPlace, assessment_for_member


def staff_place(*, user: User | AnonymousUser, course_slug: str, slug: str
                ) -> AssessmentPlace | None:
    """The assessment for a TA or instructor of the course; None for anyone else."""
    place = assessment_for_member(user=user, course_slug=course_slug, slug=slug)
    if place is None or not is_staff_role(place.enrollment.role):
        return None
    return place


def attempts_for_staff(place: AssessmentPlace) -> list[Attempt]:
    return list(Attempt.objects.filter(assessment=place.assessment, course=place.course)
                .select_related("student").order_by("student__username", "number"))


def accommodations_for_staff(place: AssessmentPlace) -> list[Accommodation]:
    return list(Accommodation.objects.filter(course=place.course).select_related("student")
                .order_by("student__username"))


def audit_for_staff(place: AssessmentPlace) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(assessment=place.assessment, course=place.course)
                .select_related("actor", "attempt__student").order_by("-at", "-pk")[:500])


def access_code_of(place: AssessmentPlace) -> str:
    return Proctoring.objects.filter(assessment=place.assessment, course=place.course) \
        .values_list("access_code", flat=True).first() or ""


def extensions_for_staff(place: AssessmentPlace) -> list[WindowExtension]:
    return list(WindowExtension.objects.filter(assessment=place.assessment, course=place.course)
                .select_related("student").order_by("student__username"))


def release_of(place: AssessmentPlace) -> Release | None:
    return Release.objects.filter(assessment=place.assessment, course=place.course).first()


@dataclass
class ItemAnalysis:
    papers: int
    alpha: float | None
    distribution: list[int]
    items: list[ItemStatistic]


def counted_attempts(attempts: list[Attempt], counts: str) -> list[Attempt]:
    """Each student's attempt that counts (best score, or the last closed)."""
    chosen: dict[int, Attempt] = {}
    for attempt in attempts:
        if attempt.closed_at is None or attempt.score is None:
            continue
        held = chosen.get(attempt.student_id)
        if held is None or (attempt.number > held.number if counts == "last"
                            else attempt.score > held.score):  # type: ignore[operator]
            chosen[attempt.student_id] = attempt
    return list(chosen.values())


def item_analysis(place: AssessmentPlace) -> ItemAnalysis:
    """Facility, discrimination, single-choice option counts and median time per question
    and per variant, alpha over the paper's slots and the score distribution, over each
    student's counted attempt (three queries)."""
    attempts = counted_attempts(attempts_for_staff(place), place.assessment.counts)
    answers: dict[int, dict[tuple[int, str], Answer]] = {}
    for answer in Answer.objects.filter(attempt__in=attempts):
        answers.setdefault(answer.attempt_id, {})[(answer.question_id, answer.part_key)] = answer
    questions = questions_of([e for a in attempts for e in a.paper])
    taken: list[Taken] = []
    chosen: list[Chosen] = []
    timed: list[Timed] = []
    slots: list[list[float]] = []
    for attempt in attempts:
        own = answers.get(attempt.pk, {})
        scores: list[tuple[str, str, float, float]] = []  # item, variant, score, points
        for entry in attempt.paper:
            question = questions[entry["question"]]
            variant = _variant(question, entry)
            mine = [own.get((question.pk, p["key"])) for p in question.parts]
            got = sum(float(p.get("points", 1)) * ((a.score or 0.0) if a else 0.0)
                      for p, a in zip(question.parts, mine, strict=True))
            scores.append((question.slug, variant, got / (question.points or 1.0),
                           question.points or 1.0))
            chosen += [Chosen(question.slug, variant, p["key"], a.raw.strip() if a else "")
                       for p, a in zip(question.parts, mine, strict=True) if _single_choice(p)]
            saved = [a.saved_at for a in mine if a is not None and a.saves > 0]
            if saved:
                timed.append(Timed(question.slug, variant,
                                   (max(saved) - attempt.started_at).total_seconds()))
        total = sum(points for *_, points in scores) or 1.0
        for item, variant, score, points in scores:
            rest = (sum(s * p for _, _, s, p in scores) - score * points) / total
            taken.append(Taken(item=item, variant=variant, score=score, rest=rest))
        slots.append([score for _, _, score, _ in scores])
    same_length = [row for row in slots if len(row) == len(slots[0])] if slots else []
    return ItemAnalysis(papers=len(attempts), alpha=cronbach_alpha(same_length),
                        distribution=score_distribution([a.score or 0.0 for a in attempts]),
                        items=item_statistics(taken, chosen, _choice_parts(questions), timed))


def _single_choice(spec: dict[str, Any]) -> bool:
    return spec.get("type") == "choice" and not spec.get("multiple")


def _choice_parts(questions: dict[str, Any]) -> list[ChoicePart]:
    """The single-choice parts of the questions: option keys in order, the correct ones."""
    out = []
    for question in questions.values():
        for spec in question.parts:
            if not _single_choice(spec):
                continue
            correct = spec.get("correct") or []
            correct = [correct] if isinstance(correct, str) else correct
            out.append(ChoicePart(question.slug, spec["key"], tuple(
                str(o["key"]) for o in spec.get("options", [])
                if isinstance(o, dict) and "key" in o), frozenset(str(c) for c in correct)))
    return out


def _variant(question: Any, entry: dict[str, Any]) -> str:
    """The variant as its parameter values ("N=500"), the same for the same numbers."""
    params = question_params(question, entry["seed"])
    return ", ".join(f"{name}={params[name]}" for name in sorted(question.parameters)) \
        or "one variant"


def course_assessment(*, course: Course, slug: str) -> Assessment | None:
    """The course's assessment `slug` (of a module the course runs, not withdrawn), or None."""
    return Assessment.objects.filter(slug=slug, module_id__in=course.module_ids(),
                                     archived_at__isnull=True).first()


def course_accommodations(*, course: Course) -> QuerySet[Accommodation]:
    """The course's accommodations with their students, by user name."""
    return Accommodation.objects.filter(course=course).select_related("student") \
        .order_by("student__username")


def course_extensions(*, course: Course, assessment: Assessment | None
                      ) -> QuerySet[WindowExtension]:
    """The course's window extensions (of one assessment, unless None), with their students
    and assessments."""
    found = WindowExtension.objects.filter(course=course)
    if assessment is not None:
        found = found.filter(assessment=assessment)
    return found.select_related("student", "assessment").order_by("assessment__slug",
                                                                  "student__username", "pk")


def attempt_in(*, course: Course, assessment: Assessment, attempt_id: int) -> bool:
    """Whether attempt `attempt_id` is one of the assessment's in the course."""
    return Attempt.objects.filter(pk=attempt_id, course=course, assessment=assessment).exists()
