"""The "Due dates" list of a course's card (the home page and the course page), grouped by
module and kept short: a module's exercises due on the module's own date make one line, each
exercise due on another date (its own deadline, or the student's extension) one line, and
the closed ones one line of names. Staff read the class's dates."""

from dataclasses import dataclass, field
from datetime import datetime

from courses.models import CourseModule, Exercise, Module
from grading.deadlines import DeadlineStatus

#: One dated exercise as course_progress_for_student lists it: exercise, status, whether it
#: closed, link to it on its module's page.
Dated = tuple[Exercise, DeadlineStatus, bool, str]


@dataclass
class ModuleDueDates:
    """One module's lines of the list."""

    module: Module
    #: the status of an exercise due on the module's date (the shared line), and how many
    #: exercises are due on it
    shared: DeadlineStatus | None = None
    shared_count: int = 0
    shared_closed: bool = False
    #: exercises due on another date that have not closed, soonest first
    own: list[Dated] = field(default_factory=list)
    #: exercises due on another date that have closed: (exercise, link)
    closed: list[tuple[Exercise, str]] = field(default_factory=list)
    exercises: int = 0  # the module's dated exercises

    @property
    def every_exercise_shared(self) -> bool:
        return self.shared_count == self.exercises


def _on_module_date(status: DeadlineStatus, module_due: datetime | None) -> bool:
    return module_due is not None and not status.extended and status.due_at == module_due


def due_dates_by_module(*, dated: list[Dated],
                        course_modules: list[CourseModule]) -> list[ModuleDueDates]:
    """`dated` grouped by module in the course's order (modules with nothing dated left out):
    the exercises due on their module's date (`CourseModule.due_at`, no extension) as one
    shared line, the others listed (open ones soonest first, closed ones by name)."""
    groups = {cm.module_id: ModuleDueDates(module=cm.module) for cm in course_modules}
    module_due = {cm.module_id: cm.due_at for cm in course_modules}
    for exercise, status, closed, url in sorted(dated, key=lambda d: (d[1].due_at, d[0].order)):
        group = groups.get(exercise.module_id)
        if group is None:
            continue
        group.exercises += 1
        if _on_module_date(status, module_due[exercise.module_id]):
            group.shared = group.shared or status
            group.shared_count += 1
            group.shared_closed = closed
        elif closed:
            group.closed.append((exercise, url))
        else:
            group.own.append((exercise, status, closed, url))
    return [g for g in groups.values() if g.exercises]
