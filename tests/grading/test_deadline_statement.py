"""The module page's hand-written read of a student's deadlines returns what the ORM query it
replaced returned (both databases): own deadlines, the module's default due date, the
student's extension (and nobody else's), the course's policy or none, and nothing from
another course."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db.models import OuterRef, Q, Subquery

from courses.models import Course, CourseModule, Exercise
from grading.deadline_statement import exercise_deadline_rows
from grading.deadlines import deadline_policy_set, deadline_set, extension_set
from grading.models import Deadline, DeadlineExtension, DeadlinePolicy

pytestmark = pytest.mark.django_db

DUE = datetime(2030, 6, 1, 12, 0, tzinfo=ZoneInfo("UTC"))
#: The policy's fields a deadline status uses (grading.deadlines.DeadlineStatus).
POLICY_FIELDS = ("time_zone", "late", "late_share", "late_days", "tas_grant_extensions")


def _orm_rows(course: Course, student_id: int) -> set[tuple]:
    """The ORM query `grading.deadlines.deadline_statuses` ran before the statement."""
    extension = DeadlineExtension.objects.filter(course=course, exercise=OuterRef("pk"),
                                                 student_id=student_id)
    own = Deadline.objects.filter(course=course, exercise=OuterRef("pk")).values("due_at")[:1]
    module_due = CourseModule.objects.filter(course=course, module_id=OuterRef("module_id"))
    dated_modules = CourseModule.objects.filter(course=course, due_at__isnull=False)
    policy_row = DeadlinePolicy.objects.filter(course=course)
    rows = (
        Exercise.objects.filter(
            Q(module_id__in=dated_modules.values("module_id"))
            | Q(pk__in=Deadline.objects.filter(course=course).values("exercise_id")))
        .annotate(own_due=Subquery(own), module_due=Subquery(module_due.values("due_at")[:1]),
                  extension_due=Subquery(extension.values("due_at")[:1]),
                  extension_reason=Subquery(extension.values("reason")[:1]),
                  **{f"policy_{name}": Subquery(policy_row.values(name)[:1])
                     for name in POLICY_FIELDS})
        .values_list("pk", "own_due", "module_due", "extension_due", "extension_reason",
                     *(f"policy_{name}" for name in POLICY_FIELDS))
    )
    return {(pk, own, module, ext, reason, None if policy[0] is None else tuple(policy))
            for pk, own, module, ext, reason, *policy in rows}


def _rows(course: Course, student_id: int) -> set[tuple]:
    return {(r.exercise_id, r.own_due, r.module_due, r.extension_due, r.extension_reason,
             None if r.policy is None else tuple(getattr(r.policy, name) for name in POLICY_FIELDS))
            for r in exercise_deadline_rows(course_id=course.pk, student_id=student_id)}


def test_no_deadline_gives_no_rows(course, alice):
    assert _rows(course, alice.pk) == _orm_rows(course, alice.pk) == set()


def test_own_deadlines_module_due_dates_extensions_and_policy_agree_with_the_orm(
        course, other_course, irene, alice, bob, django_assert_num_queries):
    steps = Exercise.objects.get(slug="apply-2-sequential-steps")
    bound = Exercise.objects.get(slug="apply-1-gradient-bound")
    deadline_set(course=course, exercise_id=steps.pk, due_at=DUE, by=irene)
    assert _rows(course, alice.pk) == _orm_rows(course, alice.pk)  # an own deadline, no policy
    assert {r[0] for r in _rows(course, alice.pk)} == {steps.pk}

    course.course_modules.update(due_at=DUE - timedelta(days=1))
    extension_set(course=course, exercise_id=bound.pk, student_id=alice.pk,
                  due_at=DUE + timedelta(days=2), reason="illness", by=irene)
    deadline_policy_set(course=course, by=irene, time_zone="Europe/London", late="per_day",
                        late_share=0.25, late_days=3, tas_grant_extensions=True)
    Deadline.objects.create(course=other_course, exercise=bound, due_at=DUE,  # not this course's
                            updated_by=irene)
    for student in (alice, bob):
        with django_assert_num_queries(1):
            rows = _rows(course, student.pk)
        assert rows == _orm_rows(course, student.pk)
    by_exercise = {r[0]: r for r in _rows(course, alice.pk)}
    assert set(by_exercise) == set(Exercise.objects.filter(module_id=course.module_id)
                                   .values_list("pk", flat=True))
    assert by_exercise[bound.pk][3:5] == (DUE + timedelta(days=2), "illness")
    assert by_exercise[bound.pk][5] == ("Europe/London", "per_day", 0.25, 3, True)
    assert {r[0]: r[3] for r in _rows(course, bob.pk)}[bound.pk] is None  # alice's only
    assert all(isinstance(r[1] or r[2], datetime) and (r[1] or r[2]).tzinfo is not None
               for r in by_exercise.values())
