"""Course content as the students' requests read it: from the content cache.

Parts with their exercise, labs with their section and the modules a course runs (with
their release and due dates and weights) change only at sync or by a staff edit, so each is
read from `core.content_cache` (no query once cached) and loaded with one ORM query when the
content version is new. Every function returns the ORM's instances; callers must not change
them (they are shared by the requests of the process).
"""

from django.db.models import QuerySet

from core.content_cache import content_cached
from courses.models import CourseModule, Exercise, Lab, Part


def course_modules(*, course_id: int) -> dict[int, CourseModule]:
    """The modules course `course_id` runs, by module id, in their order in the course, each
    with its module: their place, release and due dates and weights (no query when
    cached)."""
    return content_cached(f"course-modules:{course_id}", lambda: {
        link.module_id: link
        for link in CourseModule.objects.filter(course_id=course_id).select_related("module")
        .order_by("order", "pk")})


def module_exercise_ids(*, module_id: int) -> list[int]:
    """The ids of every exercise of the module, archived ones included (no query when
    cached)."""
    return content_cached(f"module-exercises:{module_id}", lambda: list(
        Exercise.objects.filter(module_id=module_id).order_by("pk").values_list("pk", flat=True)))


def _active_parts() -> "QuerySet[Part]":
    return Part.objects.active().filter(exercise__archived_at__isnull=True) \
        .select_related("exercise")


def active_part(*, part_id: int) -> Part | None:
    """The active part `part_id` of an active exercise, its exercise loaded; None if none
    (no query when cached)."""
    return content_cached(f"part:{part_id}", lambda: _active_parts().filter(pk=part_id).first())


def course_part(*, course_id: int, part_id: int) -> Part | None:
    """`active_part`, when the course runs its exercise's module; else None."""
    part = active_part(part_id=part_id)
    if part is None or part.exercise.module_id not in course_modules(course_id=course_id):
        return None
    return part


def course_lab(*, course_id: int, lab_slug: str) -> Lab | None:
    """The active lab `lab_slug`, its section loaded, when the course runs its module; else
    None (no query when cached)."""
    lab = content_cached(f"lab:{lab_slug}", lambda: Lab.objects.active().filter(slug=lab_slug)
                         .select_related("section").first())
    if lab is None or lab.module_id not in course_modules(course_id=course_id):
        return None
    return lab
