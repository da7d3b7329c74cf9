"""A demo course with some work already in it: classmates of the demo students who have
answered and run labs, so that an instructor's first look at the dashboard (progress,
questions, misconceptions, labs) is not all zeros. Never used in production."""

from django.contrib.auth.models import User

from courses.models import Course, Lab
from demo.bulk import large_class_seed
from labs.services import LabRunRefused, lab_run_execute, lab_run_request


def demo_activity(*, course: Course, first: int, classmates: int, per_student: int,
                  lab_runs: int, password: str) -> tuple[int, int]:
    """Add `student<first>`..`student<first + classmates - 1>` to `course` with
    `per_student` answers each (the bulk path of demo.bulk: drawn from the modules' own
    misconceptions, right and wrong answers), then let the first `lab_runs` of them run every
    lab of the course with its default parameters, executed here (a lab the rules refuse
    them, such as one whose predictions they have not made, is skipped). Returns (answers
    written, lab runs finished)."""
    if classmates <= 0:
        return 0, 0
    _, answers = large_class_seed(course=course, students=first + classmates - 1,
                                  per_student=per_student, first=first, password=password)
    runners = list(User.objects.filter(
        username__in=[f"student{i}" for i in range(first, first + min(lab_runs, classmates))]))
    finished = 0
    for lab in Lab.objects.active().filter(module_id__in=course.module_ids()).order_by("order"):
        for student in runners:
            try:
                run = lab_run_request(lab=lab, course=course, requester=student, params={})
            except LabRunRefused:
                continue
            if run.is_finished or lab_run_execute(run_id=run.pk) == "succeeded":
                finished += 1
    return answers, finished
