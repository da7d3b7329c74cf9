"""Student-facing reads for labs: a lab of the student's course, their runs, key numbers."""

import uuid
from functools import cached_property
from typing import cast

from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404

from courses.models import Course, Enrollment, Exercise, Lab
from labs.lab_statements import enrolled_lab_get, lab_predictions_due, lab_runs_latest
from labs.models import LabRun
from labs.simulations import SIMULATIONS

#: How many of a student's earlier runs a lab page lists.
RUNS_LISTED = 20


class LabPage:
    """A lab of the student's course; the student's earlier runs and the predictions it grades
    that they have yet to commit are read when first used (a request that only asks for a run
    and redirects never reads them)."""

    def __init__(self, *, enrollment: Enrollment, lab: Lab, runs_listed: int = RUNS_LISTED):
        self.enrollment, self.lab, self._runs_listed = enrollment, lab, runs_listed

    @cached_property
    def runs(self) -> list[LabRun]:
        """The student's latest runs of the lab, newest first, without results or plots."""
        return lab_runs_latest(lab_id=self.lab.pk, course_id=self.enrollment.course_id,
                               requester_id=self.enrollment.user_id, limit=self._runs_listed)

    @cached_property
    def predictions_due(self) -> list[Exercise]:
        """Predictions graded by this lab that the student has not committed yet (the lab
        would show the answer); see `predictions_due`."""
        return predictions_due(lab=self.lab, course=self.enrollment.course,
                               student_id=self.enrollment.user_id)


def lab_for_student(*, user: User | AnonymousUser, course_slug: str, lab_slug: str,
                    runs: int = RUNS_LISTED) -> LabPage:
    """An active lab of the course's module, with the user's latest `runs` runs of it (newest
    first, without their results or plots) and the predictions it grades that the user has
    yet to commit, both read on first use; Http404 when the user is not a member or there is
    no such lab."""
    if not user.is_authenticated:
        raise Http404("No such course.")
    found = enrolled_lab_get(user_id=user.pk, course_slug=course_slug, lab_slug=lab_slug)
    if found.enrollment is None:
        raise Http404("No such course.")
    if found.lab is None:
        raise Http404("No such lab.")
    return LabPage(enrollment=found.enrollment, lab=found.lab, runs_listed=runs)


def predictions_due(*, lab: Lab, course: Course, student_id: int | None) -> list[Exercise]:
    """The active prediction exercises graded by `lab` in which the student has not yet
    committed (made a counted attempt at) every part: running the lab first would show the
    answer. In exercise order, one query."""
    return lab_predictions_due(module_id=lab.module_id, lab_slug=lab.slug, course_id=course.pk,
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
