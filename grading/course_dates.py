"""An exercise's dates in a course, read from the content cache: its module's release and
due dates there (`courses.content_reads.course_modules`) and the exercise's own deadline.
Deadlines and the deadline policy change only by a staff edit, which bumps the content
version (`core.content_cache`), so the answer path reads them with no query once cached."""

from datetime import datetime

from core.content_cache import content_cached
from courses.content_reads import course_modules
from grading.models import Deadline, DeadlinePolicy

#: An exercise's dates in a course: its module's release date, the module's default due date
#: and the exercise's own deadline, each None when unset.
ExerciseDates = tuple[datetime | None, datetime | None, datetime | None]


def course_deadlines(*, course_id: int) -> dict[int, datetime]:
    """The exercises' own deadlines in the course, by exercise id (no query when cached)."""
    return content_cached(f"course-deadlines:{course_id}", lambda: dict(
        Deadline.objects.filter(course_id=course_id).values_list("exercise_id", "due_at")))


def exercise_dates(*, course_id: int, module_id: int, exercise_id: int,
                   ) -> ExerciseDates | None:
    """The exercise's place in the course: (the module's release date, the module's default
    due date, the exercise's own deadline), each None when unset; None when the course does
    not run the exercise's module. No query when cached."""
    link = course_modules(course_id=course_id).get(module_id)
    if link is None:
        return None
    return (link.release_at, link.due_at,
            course_deadlines(course_id=course_id).get(exercise_id))


def course_policy(*, course_id: int) -> DeadlinePolicy | None:
    """The course's deadline policy, None when none was set (no query when cached; the
    instance is shared: never change it)."""
    return content_cached(f"deadline-policy:{course_id}",
                          lambda: DeadlinePolicy.objects.filter(course_id=course_id).first())
