"""Deadlines as a course sets them (issue 25, item 9): a module-wide due date, the course's
time zone, late answers with a penalty (per day or flat, said in the feedback), and
extensions by TAs where the course allows it. Answers go through the real grading service."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from courses.models import Exercise, Part
from grading.deadlines import (
    deadline_policy_set,
    deadline_set,
    deadline_set_module,
    deadline_status,
    deadline_statuses,
    extension_set,
)
from grading.models import Deadline, DeadlinePolicy, Submission
from grading.services import SubmissionRefused, submission_create
from grading.staff import StaffActionRefused
from grading.variant_assignment import variant_for


@pytest.fixture
def bound_part(module_05):
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


def _right(student, course, part) -> str:
    """The right answer in the student's own variant."""
    params = variant_for(student=student, course=course, exercise=part.exercise).params
    return f"{params['sigma']}^{params['steps']}"


def _policy(course, irene, **kwargs):
    values = {"time_zone": "UTC", "late": "refused", "late_share": 0.0, "late_days": 0,
              "tas_grant_extensions": False, **kwargs}
    return deadline_policy_set(course=course, by=irene, **values)


def test_a_module_wide_due_date_sets_every_exercise(course, irene, alice):
    due = timezone.now() + timedelta(days=7)
    count = deadline_set_module(course=course, due_at=due, by=irene)
    exercises = Exercise.objects.active().filter(module_id=course.module_id)
    assert count == exercises.count() > 3
    assert set(Deadline.objects.values_list("due_at", flat=True)) == {due}
    statuses = deadline_statuses(student=alice, course=course)
    assert set(statuses) == {e.pk for e in exercises}
    deadline_set_module(course=course, due_at=None, by=irene)
    assert Deadline.objects.count() == 0


def test_a_late_answer_loses_a_share_per_day_and_says_so(course, irene, alice, bound_part):
    _policy(course, irene, late="per_day", late_share=0.1, late_days=5)
    deadline_set(course=course, exercise_id=bound_part.exercise_id,
                 due_at=timezone.now() - timedelta(days=1, hours=2), by=irene)
    answer = submission_create(student=alice, course=course, part=bound_part,
                               raw_answer=_right(alice, course, bound_part))
    assert answer.outcome == Submission.Outcome.CORRECT
    assert answer.score == pytest.approx(0.8)  # 2 days late (a started day counts)
    assert "2 days late: 20% off the score (10% per day late)" in answer.feedback


def test_a_flat_late_penalty_and_the_end_of_the_late_window(course, irene, alice, bob,
                                                           bound_part):
    _policy(course, irene, late="flat", late_share=0.25, late_days=2)
    deadline_set(course=course, exercise_id=bound_part.exercise_id,
                 due_at=timezone.now() - timedelta(hours=3), by=irene)
    answer = submission_create(student=alice, course=course, part=bound_part,
                               raw_answer=_right(alice, course, bound_part))
    assert answer.score == pytest.approx(0.75)
    assert "25% off the score (the course's late penalty)" in answer.feedback
    deadline_set(course=course, exercise_id=bound_part.exercise_id,
                 due_at=timezone.now() - timedelta(days=3), by=irene)
    with pytest.raises(SubmissionRefused, match="late answers were taken until"):
        submission_create(student=bob, course=course, part=bound_part,
                               raw_answer=_right(bob, course, bound_part))


def test_on_time_answers_keep_their_score_whatever_the_policy(course, irene, alice, bound_part):
    _policy(course, irene, late="per_day", late_share=0.5, late_days=3)
    deadline_set(course=course, exercise_id=bound_part.exercise_id,
                 due_at=timezone.now() + timedelta(hours=1), by=irene)
    answer = submission_create(student=alice, course=course, part=bound_part,
                               raw_answer=_right(alice, course, bound_part))
    assert answer.score == 1.0 and "late" not in answer.feedback


def test_the_course_time_zone_is_kept_and_checked(course, irene, alice, bound_part):
    _policy(course, irene, time_zone="Europe/London")
    due = datetime(2026, 11, 30, 12, 0, tzinfo=ZoneInfo("Europe/London"))
    deadline_set(course=course, exercise_id=bound_part.exercise_id, due_at=due, by=irene)
    status = deadline_status(student=alice, course=course, exercise=bound_part.exercise)
    assert status is not None and status.local(status.due_at).strftime("%H:%M %Z") == "12:00 GMT"
    with pytest.raises(StaffActionRefused, match="Unknown time zone"):
        _policy(course, irene, time_zone="Mars/Olympus")
    with pytest.raises(StaffActionRefused):
        _policy(course, irene, late="per_day", late_share=1.5)
    assert DeadlinePolicy.objects.get(course=course).time_zone == "Europe/London"


def test_tas_grant_extensions_only_where_the_course_allows_it(course, irene, tara, alice,
                                                             bound_part):
    later = timezone.now() + timedelta(days=2)
    with pytest.raises(PermissionDenied):
        extension_set(course=course, exercise_id=bound_part.exercise_id, student_id=alice.pk,
                      due_at=later, reason="illness", by=tara)
    _policy(course, irene, tas_grant_extensions=True)
    extension_set(course=course, exercise_id=bound_part.exercise_id, student_id=alice.pk,
                  due_at=later, reason="illness", by=tara)
    with pytest.raises(PermissionDenied):  # deadlines themselves stay the instructors'
        deadline_set(course=course, exercise_id=bound_part.exercise_id, due_at=later, by=tara)
    with pytest.raises(PermissionDenied):
        _policy(course, tara)


def test_the_module_s_due_date_stands_in_for_an_exercise_without_its_own(
        course, irene, alice, bob, bound_part, django_assert_num_queries):
    """deadline_statuses (the module page's) agrees with deadline_status (grading's): the
    course's due date of the module (CourseModule.due_at) counts for every exercise without
    a deadline of its own; an own deadline and an extension still win."""
    module_due = datetime(2030, 6, 1, 12, 0, tzinfo=ZoneInfo("UTC"))
    course.course_modules.update(due_at=module_due)
    own = datetime(2030, 7, 1, 12, 0, tzinfo=ZoneInfo("UTC"))
    other = Exercise.objects.get(slug="apply-2-sequential-steps")
    deadline_set(course=course, exercise_id=other.pk, due_at=own, by=irene)
    extension_set(course=course, exercise_id=bound_part.exercise_id, student_id=alice.pk,
                  due_at=module_due + timedelta(days=2), reason="travel", by=irene)
    deadline_statuses(student=alice, course=course)  # the dates and policy, cached
    with django_assert_num_queries(1):  # alice's extensions
        statuses = deadline_statuses(student=alice, course=course)
    exercises = Exercise.objects.filter(module_id=course.module_id)
    assert set(statuses) == {e.pk for e in exercises}
    def seen(status):  # an unsaved default policy equals only itself: compare its rules
        return (status.due_at, status.course_due_at, status.extension_reason,
                status.policy.time_zone, status.policy.late)

    for exercise in exercises:
        assert seen(statuses[exercise.pk]) == seen(deadline_status(
            student=alice, course=course, exercise=exercise)), exercise.slug
    assert statuses[other.pk].due_at == own
    assert (statuses[bound_part.exercise_id].due_at, statuses[bound_part.exercise_id].extended) \
        == (module_due + timedelta(days=2), True)
    assert deadline_statuses(student=bob, course=course)[bound_part.exercise_id].due_at \
        == module_due
