"""Reads for courses: which courses a user may see, and a course's module content."""

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet

from core.compiled_query import CompiledQuery
from courses.models import (
    ContentRepository,
    ContentSync,
    Course,
    Enrollment,
    Exercise,
    Figure,
    Lab,
    Part,
    Section,
)


def course_list_for_user(*, user: User | AnonymousUser) -> QuerySet[Course]:
    """Courses in which `user` has an active enrolment, any role."""
    if not user.is_authenticated:
        return Course.objects.none()
    return (
        Course.objects.filter(enrollments__user=user, enrollments__is_active=True)
        .select_related("module")
        .order_by("title")
    )


def _enrolled(user_id: int, course_slug: str) -> QuerySet[Enrollment]:
    """A user's active enrolment in a course (the first, by id) with the course and its
    module: what every course page, lab and dashboard request starts with."""
    return (Enrollment.objects.filter(user_id=user_id, course__slug=course_slug, is_active=True)
            .select_related("course__module").order_by("id")[:1])


_ENROLLED = CompiledQuery(_enrolled, user_id=int, course_slug=str)


def enrollment_find(*, user_id: int, course_slug: str) -> Enrollment | None:
    """The user's active enrolment in the course, with the course and its module; None if
    none. One compiled query."""
    return _ENROLLED.first(user_id=user_id, course_slug=course_slug)


def member_enrollment(*, user: User | AnonymousUser, course_slug: str) -> Enrollment | None:
    """The user's active enrolment in the course, with the course and its module; None for
    an anonymous user or one who is not an active member. One compiled query."""
    if not user.is_authenticated:
        return None
    return enrollment_find(user_id=user.pk, course_slug=course_slug)


def module_sections(*, course: Course) -> QuerySet[Section]:
    """The course module's active sections in order, with their figures, labs and exercises."""
    return (
        Section.objects.active()
        .filter(module_id__in=course.module_ids())
        .order_by("order")
        .prefetch_related(
            Prefetch("figures", queryset=Figure.objects.active().order_by("number")),
            Prefetch("labs", queryset=Lab.objects.active().order_by("order")),
            Prefetch("exercises", queryset=Exercise.objects.active().order_by("order")),
        )
    )


def course_exercises(*, course: Course) -> QuerySet[Exercise]:
    """The course module's active exercises in order, with their active parts and section."""
    return (
        Exercise.objects.active().filter(module_id__in=course.module_ids())
        .select_related("section").order_by("order")
        .prefetch_related(Prefetch("parts", queryset=Part.objects.active().order_by("order")))
    )


def course_students(*, course: Course, group: str = "") -> QuerySet[Enrollment]:
    """The course's active student enrolments (of one group, if given); no query until used."""
    students = Enrollment.objects.filter(course=course, role=Enrollment.Role.STUDENT,
                                         is_active=True)
    return students.filter(group=group) if group else students


def student_enrollment_find(*, course: Course, student_id: int) -> Enrollment | None:
    """The enrolment (active or not) of student `student_id` in the course, with its user;
    None for anyone who is not a student of the course."""
    return (Enrollment.objects.select_related("user")
            .filter(course=course, user_id=student_id, role=Enrollment.Role.STUDENT)
            .first())


@dataclass(frozen=True)
class ContentPage:
    """What the course's Content page shows: its repository, its latest syncs, one sync."""

    repository: ContentRepository | None
    syncs: list[ContentSync]
    shown: ContentSync | None


#: Syncs listed on the Content page, newest first.
CONTENT_SYNCS_SHOWN = 20


def content_page(*, course: Course, shown_id: int = 0) -> ContentPage:
    """The course's connected repository, its latest syncs, and the sync `shown_id` of this
    course (None when 0 or not the course's), read from the list when it is in it."""
    syncs = list(ContentSync.objects.filter(course=course).select_related("by")
                 [:CONTENT_SYNCS_SHOWN])
    shown = next((s for s in syncs if s.pk == shown_id), None) if shown_id else None
    if shown_id and shown is None:
        shown = ContentSync.objects.filter(course=course, pk=shown_id).first()
    return ContentPage(repository=ContentRepository.objects.filter(course=course).first(),
                       syncs=syncs, shown=shown)
