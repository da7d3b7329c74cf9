"""Student-facing reads for labs: a lab of the student's course, their runs, key numbers."""

import uuid
from functools import cached_property
from typing import cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, QuerySet, TextField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from core.compiled_query import CompiledQuery
from core.not_found import NotFound
from courses.content_reads import course_lab
from courses.models import Course, Enrollment, Exercise, Lab, Part
from courses.selectors import enrollment_find
from grading.models import Submission
from labs.models import LabRun
from labs.simulations import SIMULATIONS

#: How many of a student's earlier runs a lab page lists.
RUNS_LISTED = 20


def _runs(lab_id: int, course_id: int, requester_id: int) -> QuerySet[LabRun]:
    return (LabRun.objects.filter(lab_id=lab_id, course_id=course_id, requester_id=requester_id)
            .defer("result").order_by("-queued_at", "-id")[:RUNS_LISTED])


def _due(module_id: int, lab_slug: str, course_id: int, student_id: int) -> QuerySet[Exercise]:
    committed = Submission.objects.filter(part_id=OuterRef("pk"), student_id=student_id,
                                          course_id=course_id, counts_as_attempt=True)
    # The key as text (a plain comparison, so the slug can be a compiled parameter).
    due_parts = (Part.objects.active().annotate(lab=Cast(KT("spec__lab"), TextField()))
                 .filter(exercise_id=OuterRef("pk"), lab=lab_slug).exclude(Exists(committed)))
    return (Exercise.objects.active().filter(module_id=module_id)
            .filter(Exists(due_parts)).order_by("order", "id"))


_RUNS = CompiledQuery(_runs, lab_id=int, course_id=int, requester_id=int)
_DUE = CompiledQuery(_due, module_id=int, lab_slug=str, course_id=int, student_id=int)


class LabPage:
    """A lab of the student's course; the student's earlier runs and the predictions it grades
    that they have yet to commit are read when first used (a request that only asks for a run
    and redirects never reads them)."""

    def __init__(self, *, enrollment: Enrollment, lab: Lab, runs_listed: int = RUNS_LISTED):
        self.enrollment, self.lab, self._runs_listed = enrollment, lab, runs_listed

    @cached_property
    def runs(self) -> list[LabRun]:
        """The student's latest runs of the lab, newest first, without results or plots."""
        return _RUNS.rows(lab_id=self.lab.pk, course_id=self.enrollment.course_id,
                          requester_id=self.enrollment.user_id)[:self._runs_listed]

    @cached_property
    def predictions_due(self) -> list[Exercise]:
        """Predictions graded by this lab that the student has not committed yet (the lab
        would show the answer); see `predictions_due`."""
        return predictions_due(lab=self.lab, course=self.enrollment.course,
                               student_id=self.enrollment.user_id)


def lab_for_student(*, user: User | AnonymousUser, course_slug: str, lab_slug: str,
                    runs: int = RUNS_LISTED) -> LabPage | NotFound:
    """An active lab of the course's module, with the user's latest `runs` runs of it (newest
    first, without their results or plots) and the predictions it grades that the user has
    yet to commit, both read on first use; NotFound.COURSE when the user is not a member,
    NotFound.ITEM when the course has no such lab."""
    if not user.is_authenticated:
        return NotFound.COURSE
    enrollment = enrollment_find(user_id=user.pk, course_slug=course_slug)
    if enrollment is None:
        return NotFound.COURSE
    lab = course_lab(course_id=enrollment.course_id, lab_slug=lab_slug)
    if lab is None:
        return NotFound.ITEM
    return LabPage(enrollment=enrollment, lab=lab, runs_listed=runs)


def predictions_due(*, lab: Lab, course: Course, student_id: int | None) -> list[Exercise]:
    """The active prediction exercises graded by `lab` in which the student has not yet
    committed (made a counted attempt at) every part: running the lab first would show the
    answer. In exercise order, one compiled query."""
    if student_id is None:
        return list(Exercise.objects.active().filter(
            module_id=lab.module_id, parts__archived_at__isnull=True, parts__spec__lab=lab.slug)
            .distinct().order_by("order", "id"))
    return _DUE.rows(module_id=lab.module_id, lab_slug=lab.slug, course_id=course.pk,
                     student_id=student_id)


def lab_run_for_student(*, user: User | AnonymousUser, course_slug: str, run_uuid: uuid.UUID,
                        with_result: bool = True) -> LabRun | None:
    """The user's own run in the course, looked up by uuid AND requester: None for anyone
    else's run (or a run of a course the user has left)."""
    if not user.is_authenticated:
        return None
    runs = LabRun.objects.select_related("lab", "course").filter(
        uuid=run_uuid, requester=cast(User, user), course__slug=course_slug,
        course__enrollments__user_id=user.pk, course__enrollments__is_active=True,
    )
    if not with_result:
        runs = runs.defer("result")
    return runs.first()


def lab_run_key_results(*, run: LabRun) -> list[tuple[str, str]]:
    """The few labelled numbers the run page shows (empty until the run has succeeded)."""
    if run.status != LabRun.Status.SUCCEEDED or run.result is None:
        return []
    return list(SIMULATIONS[run.lab.simulation].KEY_RESULTS(run.result))
