"""Reads for courses: which courses a user may see, and a course's module content."""

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet
from django.http import Http404

from courses.models import Course, Enrollment, Exercise, Figure, Lab, Part, Section


def course_list_for_user(*, user: User | AnonymousUser) -> QuerySet[Course]:
    """Courses in which `user` has an active enrolment, any role."""
    if not user.is_authenticated:
        return Course.objects.none()
    return (
        Course.objects.filter(enrollments__user=user, enrollments__is_active=True)
        .select_related("module")
        .order_by("title")
    )


def enrollment_get(*, user: User | AnonymousUser, course_slug: str) -> Enrollment:
    """The user's active enrolment in the course; Http404 if none (a course not yours is not shown)."""
    if not user.is_authenticated:
        raise Http404("No such course.")
    enrollment = (
        Enrollment.objects.select_related("course__module")
        .filter(user=user, course__slug=course_slug, is_active=True)
        .first()
    )
    if enrollment is None:
        raise Http404("No such course.")
    return enrollment


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


def student_enrollment_get(*, course: Course, student_id: int) -> Enrollment:
    """The enrolment (active or not) of student `student_id` in the course, with its user;
    Http404 for anyone who is not a student of the course."""
    enrollment = (Enrollment.objects.select_related("user")
                  .filter(course=course, user_id=student_id, role=Enrollment.Role.STUDENT)
                  .first())
    if enrollment is None:
        raise Http404("No such student in this course.")
    return enrollment
