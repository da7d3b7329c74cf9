"""What every answer, preview and prediction reads first: the user's active enrolment in
the course (with the course and its module) and whether the user has the module's own
numbers there (`grading.models.DefaultVariant`), in one compiled query; the part asked for
with its exercise and its dates in the course from the content cache (no query once
cached). `part_history`, the student's answers to the part that the answered-in-place
fragment lists, is one compiled query too."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet

from core.compiled_query import CompiledQuery
from courses.content_reads import course_part
from courses.models import Enrollment, Part
from grading.course_dates import ExerciseDates, exercise_dates
from grading.models import DefaultVariant, Submission


def _enrolled(user_id: int, course_slug: str) -> QuerySet[Enrollment]:
    numbers = DefaultVariant.objects.filter(course_id=OuterRef("course_id"),
                                            student_id=OuterRef("user_id"))
    return (Enrollment.objects.filter(user_id=user_id, course__slug=course_slug, is_active=True)
            .select_related("course__module").annotate(module_numbers=Exists(numbers))
            .order_by("id")[:1])


_ENROLLED = CompiledQuery(_enrolled, user_id=int, course_slug=str)
_HISTORY = CompiledQuery(
    lambda student_id, course_id, part_id: Submission.objects.filter(
        student_id=student_id, course_id=course_id, part_id=part_id).order_by("created_at", "id"),
    student_id=int, course_id=int, part_id=int)


@dataclass(frozen=True)
class EnrolledPart:
    """What was found: the enrolment (None: the user is not an active member of the
    course), the part (None: no such active part in a module the course runs) and whether
    the user has the module's own numbers in the course."""

    enrollment: Enrollment | None
    part: Part | None
    module_numbers: bool
    #: With the part: its module's release and due dates in the course and the exercise's
    #: own deadline, as `grading.course_dates.exercise_dates` gives them.
    dates: ExerciseDates | None = None


def enrolled_part_get(*, user_id: int, course_slug: str, part_id: int) -> EnrolledPart:
    """The user's active enrolment in the course (its course and module loaded) and the
    active part `part_id` of a module the course runs (its exercise loaded, and its dates in
    the course, which the answer's release and deadline checks need). One query when the
    content is cached. The part and its exercise are shared by the process's requests: never
    change them."""
    enrollment = _ENROLLED.first(user_id=user_id, course_slug=course_slug)
    if enrollment is None:
        return EnrolledPart(enrollment=None, part=None, module_numbers=False)
    numbers = bool(getattr(enrollment, "module_numbers", False))
    part = course_part(course_id=enrollment.course_id, part_id=part_id)
    if part is None:
        return EnrolledPart(enrollment=enrollment, part=None, module_numbers=numbers)
    dates = exercise_dates(course_id=enrollment.course_id, module_id=part.exercise.module_id,
                           exercise_id=part.exercise_id)
    return EnrolledPart(enrollment=enrollment, part=part, module_numbers=numbers, dates=dates)


def part_history(*, student_id: int, course_id: int, part_id: int) -> list[Submission]:
    """The student's answers to the part in the course, oldest first (what the answered-in-
    place fragment lists after every answer). One compiled query."""
    return _HISTORY.rows(student_id=student_id, course_id=course_id, part_id=part_id)
