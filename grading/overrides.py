"""Grade overrides: an audited change of a student's grade on a part; the latest applies."""

from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404

from courses.access import STAFF_ROLES
from courses.models import Course, Part
from grading.models import GradeOverride
from grading.staff import (
    MAX_REASON,
    StaffActionRefused,
    course_student,
    require_role,
    score_from_points,
)
from grading.verdicts import grade_override_recorded


@transaction.atomic(durable=True)
def grade_override_create(*, course: Course, student_id: int, part_id: int,
                          points: float | None, reason: str, by: User) -> GradeOverride:
    """Record an override of a student's grade on a part (`points` None removes earlier
    overrides, so the computed best score applies again). The reason is required; every
    override is kept as the audit trail and the latest applies in the gradebook.

    Raises PermissionDenied unless `by` is an instructor or TA of the course, Http404 for a
    student or part not in the course, StaffActionRefused for a missing reason or bad points.
    """
    require_role(course, by, STAFF_ROLES)
    student = course_student(course, student_id)
    part = (Part.objects.active().filter(pk=part_id, exercise__module_id__in=course.module_ids())
            .first())
    if part is None:
        raise Http404("No such question in this course.")
    reason = reason.strip()
    if not reason:
        raise StaffActionRefused("Give a reason for the override; it is kept in the audit trail.")
    if len(reason) > MAX_REASON:
        raise StaffActionRefused(f"Keep the reason under {MAX_REASON} characters.")
    score = None if points is None else score_from_points(points, part)
    override = GradeOverride.objects.create(course=course, student=student, part=part,
                                            score=score, reason=reason, created_by=by)
    grade_override_recorded(course_id=course.pk, student_id=student.pk, part_id=part.pk,
                            exercise_id=part.exercise_id)
    return override
