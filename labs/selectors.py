"""Student-facing reads for labs: a lab of the student's course, their runs, key numbers."""

import uuid
from functools import cached_property
from typing import cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef
from django.http import Http404

from courses.models import Course, Enrollment, Exercise, Lab, Part
from courses.selectors import enrollment_get
from grading.models import Submission
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
        return list(
            LabRun.objects.filter(lab=self.lab, course=self.enrollment.course,
                                  requester_id=self.enrollment.user_id)
            .defer("result").order_by("-queued_at", "-id")[:self._runs_listed]
        )

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
    enrollment = enrollment_get(user=user, course_slug=course_slug)
    lab = (Lab.objects.active().select_related("section")
           .filter(module_id__in=enrollment.course.module_ids(), slug=lab_slug).first())
    if lab is None:
        raise Http404("No such lab.")
    return LabPage(enrollment=enrollment, lab=lab, runs_listed=runs)


def predictions_due(*, lab: Lab, course: Course, student_id: int | None) -> list[Exercise]:
    """The active prediction exercises graded by `lab` in which the student has not yet
    committed (made a counted attempt at) every part: running the lab first would show the
    answer. In exercise order, one query."""
    committed = Submission.objects.filter(part=OuterRef("pk"), student_id=student_id,
                                          course=course, counts_as_attempt=True)
    due = (Part.objects.active().select_related("exercise")
           .filter(exercise__module_id=lab.module_id, exercise__archived_at__isnull=True,
                   spec__lab=lab.slug)
           .filter(~Exists(committed)).order_by("exercise__order"))
    return list({part.exercise_id: part.exercise for part in due}.values())


def lab_run_for_student(*, user: User | AnonymousUser, course_slug: str, run_uuid: uuid.UUID,
                        with_result: bool = True) -> LabRun:
    """The user's own run in the course, looked up by uuid AND requester: anyone else's run
    (or a run of a course the user has left) is Http404."""
    if not user.is_authenticated:
        raise Http404("No such run.")
    runs = LabRun.objects.select_related("lab", "course").filter(
        uuid=run_uuid, requester=cast(User, user), course__slug=course_slug,
        course__enrollments__user_id=user.pk, course__enrollments__is_active=True,
    )
    if not with_result:
        runs = runs.defer("result")
    run = runs.first()
    if run is None:
        raise Http404("No such run.")
    return run


def lab_run_key_results(*, run: LabRun) -> list[tuple[str, str]]:
    """The few labelled numbers the run page shows (empty until the run has succeeded)."""
    if run.status != LabRun.Status.SUCCEEDED or run.result is None:
        return []
    return list(SIMULATIONS[run.lab.simulation].KEY_RESULTS(run.result))
