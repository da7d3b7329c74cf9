"""Student-facing reads of one part and one submission: the part of the student's course
with their variant, the part's fragment as the module page shows it, and one of their own
submissions in detail."""

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User

from core.not_found import NotFound
from courses.models import Course, Enrollment, Part
from grading.answer_display import AnswerView, answer_views
from grading.course_dates import ExerciseDates
from grading.models import Submission
from grading.variant_assignment import Variant, variant_for, variant_of
from grading.variant_numbers import StudentQuestion, student_question
from labs.models import LabRun
from student.enrolled_part import enrolled_part_get, part_history
from student.part_views import WAITING, PartView, choice_texts, part_options, part_view


@dataclass(frozen=True)
class StudentPart:
    """A part of the student's course with the student's variant parameters."""

    enrollment: Enrollment
    part: Part
    params: dict[str, Any]
    variant: Variant | None = None  # drawn once per request, passed down to grading
    dates: ExerciseDates | None = None  # the exercise's dates in the course, read with it

    @property
    def course(self) -> Course:
        return self.enrollment.course

    @cached_property
    def question(self) -> StudentQuestion | None:
        """The exercise and this part in the student's variant, worked out on first use (an
        answer and a live preview never show it; the no-JavaScript preview page does)."""
        if self.variant is None:
            return None
        return student_question(exercise=self.part.exercise,
                                part_prompts=[(self.part.key, self.part.prompt)],
                                variant=self.variant)

    @property
    def part_prompt(self) -> str:
        """This part's prompt with the student's numbers."""
        return self.question.part_prompts[0][1] if self.question else ""


def part_for_student(*, user: User | AnonymousUser, course_slug: str,
                     part_id: int) -> StudentPart | NotFound:
    """An active part of the course's module with the user's variant; NotFound.COURSE when
    the user is not an active member, NotFound.ITEM when the part is not in the course."""
    if not user.is_authenticated:
        return NotFound.COURSE
    found = enrolled_part_get(user_id=user.pk, course_slug=course_slug, part_id=part_id)
    enrollment, part = found.enrollment, found.part
    if enrollment is None:
        return NotFound.COURSE
    if part is None:
        return NotFound.ITEM
    variant = variant_of(course=enrollment.course, exercise=part.exercise, student_id=user.pk,
                         default=found.module_numbers)
    return StudentPart(enrollment=enrollment, part=part, params=variant.params, variant=variant,
                       dates=found.dates)


def part_view_for_student(*, user: User | AnonymousUser, target: StudentPart,
                          notice: str = "") -> PartView:
    """One part as the module page shows it, for the answered-in-place fragment: the user's
    answers to it, its attempts and, for a prediction, its lab run. One query (two for a
    prediction), with the part and variant already read by `part_for_student`."""
    part = target.part
    history = part_history(student_id=cast(User, user).pk, course_id=target.course.pk,
                           part_id=part.pk)
    runs: dict[int, LabRun] = {}
    if part.spec.get("lab"):
        for run in LabRun.objects.filter(requester_id=user.pk, course_id=target.course.pk,
                                         submission__in=[s.pk for s in history]) \
                .order_by("queued_at", "id"):
            runs[cast(int, run.submission_id)] = run
    variant = target.variant or variant_for(student=cast(User, user), course=target.course,
                                            exercise=part.exercise)
    return part_view(part, variant, history, runs, notice)


@dataclass(frozen=True)
class SubmissionDetail:
    submission: Submission
    prompt: str
    run: LabRun | None
    answer: AnswerView | None = None  # its outcome and score, described
    options: list[tuple[str, str]] = field(default_factory=list)  # a choice part's

    @property
    def waiting(self) -> bool:
        return self.submission.outcome in WAITING

    @property
    def given(self) -> str:
        """What the student gave: a choice as its options' texts, else as typed."""
        raw = self.submission.raw_answer
        return choice_texts(raw, self.options) if self.options else raw

    @property
    def read_as(self) -> str:
        canonical = self.submission.canonical
        return choice_texts(canonical, self.options) if self.options and canonical else canonical


def submission_for_student(*, user: User | AnonymousUser, course_slug: str,
                           submission_id: int) -> SubmissionDetail | None:
    """The user's own submission in the course, its part's prompt in the user's variant, the
    lab run grading it (predictions) and its attempt number; None for anyone else's
    submission (or none)."""
    if not user.is_authenticated:
        return None
    submission = (
        Submission.objects.select_related("part__exercise", "course")
        .filter(pk=submission_id, student_id=user.pk, course__slug=course_slug,
                course__enrollments__user_id=user.pk, course__enrollments__is_active=True)
        .first()
    )
    if submission is None:
        return None
    part = submission.part
    variant = variant_for(student=cast(User, user), course=submission.course, exercise=part.exercise)
    run = (LabRun.objects.filter(submission=submission, requester_id=user.pk)
           .order_by("-queued_at", "-id").first()) if part.spec.get("lab") else None
    # its attempt number, counted as submission_grade counts them (in id order)
    so_far = list(Submission.objects.filter(student_id=user.pk, course=submission.course,
                                            part=part, pk__lt=submission.pk)
                  .only("outcome", "counts_as_attempt", "score").order_by("id"))
    answer = answer_views([*so_far, submission], penalty=part.exercise.penalty)[-1]
    return SubmissionDetail(submission=submission, prompt=variant.prompt(part.prompt or ""),
                            run=run, answer=answer, options=part_options(part.spec))
