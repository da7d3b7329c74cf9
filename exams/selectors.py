"""Reads for the exam pages: an assessment a member of a course may open, and a student's
attempt as its page shows it (the paper with its drafts, or the review the policy allows)."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, Max, OuterRef, QuerySet, Subquery
from django.utils import timezone

from core.compiled_query import CompiledQuery
from courses.access import is_staff_role
from courses.models import Course, CourseModule, Enrollment
from courses.selectors import enrollment_find
from exams.models import Answer, Assessment, Attempt, Release, WindowExtension
from exams.paper import question_params, questions_of
from exams.policy import Visible, review_visibility
from grading.variants import format_value, reference_value, render_prompt


@dataclass(frozen=True)
class AssessmentPlace:
    course: Course
    enrollment: Enrollment
    assessment: Assessment


def _assessment_in_course(slug: str, course_id: int) -> QuerySet[Assessment]:
    link = CourseModule.objects.filter(course_id=course_id, module_id=OuterRef("module_id"))
    return (Assessment.objects.filter(slug=slug, archived_at__isnull=True)
            .annotate(linked=Exists(link), release_at=Subquery(link.values("release_at")[:1]))
            .order_by("id")[:1])


_IN_COURSE = CompiledQuery(_assessment_in_course, slug=str, course_id=int)


def assessment_for_member(*, user: User | AnonymousUser, course_slug: str, slug: str
                          ) -> AssessmentPlace | None:
    """The assessment `slug` of the course, for an active member of it; None otherwise
    (and for a student, while the assessment's module is not released). Two compiled
    queries (the enrolment with its course, the assessment with its link to the course)."""
    enrollment = _membership(user, course_slug)
    if enrollment is None:
        return None
    assessment = _IN_COURSE.first(slug=slug, course_id=enrollment.course_id)
    release_at = None if assessment is None else assessment.__dict__["release_at"]
    if assessment is None or not assessment.__dict__["linked"] or (
            not is_staff_role(enrollment.role)
            and release_at is not None and release_at > timezone.now()):
        return None
    return AssessmentPlace(enrollment.course, enrollment, assessment)


def course_for_member(*, user: User | AnonymousUser, course_slug: str) -> Course | None:
    """The course, for an active member of it; None otherwise."""
    enrollment = _membership(user, course_slug)
    return None if enrollment is None else enrollment.course


def _membership(user: User | AnonymousUser, course_slug: str) -> Enrollment | None:
    return enrollment_find(user_id=user.pk or 0, course_slug=course_slug)


def _course_assessments(course: Course) -> QuerySet[Assessment]:
    return Assessment.objects.filter(module_id__in=course.module_ids(), archived_at__isnull=True)


def assessments_for_member(*, course: Course) -> list[Assessment]:
    """The course's assessments (of the modules it runs), by opening time."""
    return list(_course_assessments(course).order_by("opens_at", "slug"))


def assessment_count(*, course: Course) -> int:
    """How many assessments the course runs (of its modules, not archived); one query."""
    return _course_assessments(course).count()


def attempts_of(*, place: AssessmentPlace, student_id: int) -> list[Attempt]:
    return list(Attempt.objects.filter(assessment=place.assessment, course=place.course,
                                       student_id=student_id).order_by("number"))


def _own_attempt(attempt_id: int, student_id: int) -> QuerySet[Attempt]:
    return Attempt.objects.filter(pk=attempt_id, student_id=student_id).select_related(
        "assessment", "course").order_by("pk")[:1]


_OWN_ATTEMPT = CompiledQuery(_own_attempt, attempt_id=int, student_id=int)


def attempt_for_student(*, user: User | AnonymousUser, attempt_id: int) -> Attempt | None:
    """The user's own attempt with its assessment and course (None for anyone else's:
    students never see others' work); one compiled query (every autosave starts with it)."""
    return _OWN_ATTEMPT.first(attempt_id=int(attempt_id), student_id=user.pk or 0)


@dataclass
class PartView:
    key: str
    name: str  # the form field: q<question uuid>-<part key>
    prompt: str
    answer_type: str
    options: list[tuple[str, str]]  # (key, text) of a single-choice part: radio buttons
    draft: str
    outcome: str = ""
    score: float | None = None
    feedback: str = ""
    key_text: str = ""


@dataclass
class QuestionView:
    number: int
    uuid: str
    title: str
    prompt: str
    points: float
    parts: list[PartView] = field(default_factory=list)


@dataclass
class PaperView:
    attempt: Attempt
    questions: list[QuestionView]
    visible: Visible
    release: Release | None
    last_saved: datetime | None


def field_name(question_uuid: str, part_key: str) -> str:
    return f"q{question_uuid}-{part_key}"


def parse_field_name(name: str) -> tuple[str, str] | None:
    """(question uuid, part key) of a form field named by `field_name`, else None."""
    if not name.startswith("q") or "-" not in name[1:]:
        return None
    head = name[1:37]
    key = name[38:]
    return (head, key) if len(head) == 36 and name[37:38] == "-" and key else None


def _options(spec: dict[str, Any], params: dict[str, Any]) -> list[tuple[str, str]]:
    if spec.get("type") != "choice" or spec.get("multiple"):
        return []
    return [(str(o["key"]), render_prompt(str(o.get("text", o["key"])), params))
            for o in spec.get("options", []) if isinstance(o, dict) and "key" in o]


def _key_text(spec: dict[str, Any], params: dict[str, Any]) -> str:
    if spec.get("type") == "choice":
        correct = spec.get("correct", [])
        return ", ".join(str(c) for c in (correct if isinstance(correct, list) else [correct]))
    reference = spec.get("reference", spec.get("answer", ""))
    if not isinstance(reference, str):
        return format_value(reference)
    try:
        return format_value(reference_value(reference, params,
                                            variables=spec.get("variables", ())))
    except (ValueError, TypeError):
        return render_prompt(reference, params)


def paper_view(*, attempt: Attempt, now: datetime | None = None) -> PaperView:
    """The attempt's paper with the student's drafts, and (once closed) what the release
    policy allows: outcome, score and feedback of each part, the key. Three queries."""
    now = now or timezone.now()
    release = Release.objects.filter(assessment_id=attempt.assessment_id,
                                     course_id=attempt.course_id).first()
    last_close = WindowExtension.objects.filter(
        assessment_id=attempt.assessment_id, course_id=attempt.course_id
    ).aggregate(last=Max("closes_at"))["last"]
    visible = review_visibility(attempt=attempt, now=now, release=release,
                                last_close=last_close)
    questions = questions_of(attempt.paper)
    answers = {(a.question_id, a.part_key): a for a in Answer.objects.filter(attempt=attempt)}
    views = []
    for number, entry in enumerate(attempt.paper, start=1):
        question = questions[entry["question"]]
        params = question_params(question, entry["seed"])
        view = QuestionView(number=number, uuid=str(question.uuid), title=question.title,
                            prompt=render_prompt(question.prompt, params), points=question.points)
        for spec in question.parts:
            answer: Answer | None = answers.get((question.pk, spec["key"]))
            part = PartView(key=spec["key"], name=field_name(str(question.uuid), spec["key"]),
                            prompt=render_prompt(str(spec.get("prompt", "")), params),
                            answer_type=str(spec["type"]),
                            options=_options(spec, params),
                            draft=answer.raw if answer else "")
            if visible.correctness and answer is not None:
                part.outcome, part.score, part.feedback = answer.outcome, answer.score, \
                    answer.feedback
            if visible.key:
                part.key_text = _key_text(spec, params)
            view.parts.append(part)
        views.append(view)
    saved = [a.saved_at for a in answers.values() if a.saves]
    return PaperView(attempt=attempt, questions=views, visible=visible, release=release,
                     last_saved=max(saved) if saved else None)
