"""The seed_demo management command: a demo course whose people can sign in and answer."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from courses.models import Course, Enrollment
from demo.seeding import DEMO_PASSWORD

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_seed_demo_creates_instructor_ta_and_students_who_can_sign_in():
    _run("sync_content")
    output = _run("seed_demo", "--students", "4")
    assert DEMO_PASSWORD in output
    roles = dict(Enrollment.objects.values_list("user__username", "role"))
    assert roles == {"instructor": "instructor", "ta": "ta", "student1": "student",
                     "student2": "student", "student3": "student", "student4": "student"}
    assert get_user_model().objects.get(username="student1").check_password(DEMO_PASSWORD)


def test_seed_demo_if_empty_leaves_an_existing_database_alone():
    _run("sync_content")
    _run("seed_demo", "--students", "1")
    output = _run("seed_demo", "--students", "5", "--if-empty")
    assert "not seeded" in output
    assert Enrollment.objects.filter(role="student").count() == 1


def test_seed_demo_before_sync_explains_what_to_do():
    with pytest.raises(LookupError, match="sync_content"):
        _run("seed_demo")


# --- the demo's first student has the module's own numbers (issue 11, item 12) --------------

def test_seed_demo_gives_the_first_student_the_module_s_own_numbers_in_every_exercise():
    from courses.models import Exercise
    from grading.variant_assignment import default_variant, variant_for

    _run("sync_content")
    output = _run("seed_demo", "--students", "3")
    assert "student1" in output and "the module's own numbers" in output
    users = get_user_model().objects
    course = Course.objects.get()
    exercises = list(Exercise.objects.active())
    first, second = users.get(username="student1"), users.get(username="student2")
    for exercise in exercises:
        own = variant_for(student=first, course=course, exercise=exercise)
        assert own.params == default_variant(exercise=exercise).params and own.is_default
    assert any(variant_for(student=second, course=course, exercise=e).params
               != default_variant(exercise=e).params for e in exercises)


def test_the_demo_s_first_student_gets_0_85_to_the_40_right():
    from courses.models import Part
    from grading.services import submission_create

    _run("sync_content")
    _run("seed_demo", "--students", "2")
    part = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")
    student = get_user_model().objects.get(username="student1")
    answer = submission_create(student=student, course=Course.objects.get(), part=part,
                               raw_answer="0.85^40")
    assert answer.outcome == "correct" and answer.variant_seed is None


def test_seeding_the_demo_twice_keeps_one_default_variant():
    from grading.models import DefaultVariant

    _run("sync_content")
    _run("seed_demo", "--students", "2")
    _run("seed_demo", "--students", "2")
    assert list(DefaultVariant.objects.values_list("student__username", flat=True)) == ["student1"]


def test_seed_demo_builds_a_large_class_with_answers_from_the_module_s_misconceptions():
    from grading.models import PartProgress, StudentProgress, Submission
    from grading.progress_fold import PART_FIELDS
    from grading.progress_rebuild import progress_rebuild

    _run("sync_content")
    output = _run("seed_demo", "--students", "40", "--submissions-per-student", "12")
    assert "40 students" in output or "37 students added" in output
    course = Course.objects.get()
    assert Enrollment.objects.filter(course=course, role="student").count() == 40
    assert Submission.objects.filter(course=course).count() == 40 * 12
    tags = set(Submission.objects.exclude(misconception="").values_list("misconception", flat=True))
    assert {"linear-decay"} <= tags  # Apply 1's own misconception, among others
    assert Submission.objects.filter(outcome="correct").exists()
    assert StudentProgress.objects.filter(course=course).count() == 40
    def kept() -> dict:
        return {(p.student_id, p.part_id): tuple(getattr(p, f) for f in PART_FIELDS)
                for p in PartProgress.objects.all()}

    before = kept()
    progress_rebuild(course=course)
    assert kept() == before
    assert get_user_model().objects.get(username="student40").check_password(DEMO_PASSWORD)


def test_classmates_arrive_with_answers_and_lab_runs_in_both_modules():
    from grading.models import DefaultVariant, PartProgress, Submission
    from labs.models import LabRun

    _run("sync_content")
    output = _run("seed_demo", "--students", "3", "--classmates", "5")
    course = Course.objects.get()
    classmates = [f"student{i}" for i in range(4, 9)]
    assert set(Enrollment.objects.filter(course=course, user__username__in=classmates)
               .values_list("user__username", flat=True)) == set(classmates)
    answered = Submission.objects.filter(course=course, student__username__in=classmates)
    assert answered.count() == 5 * 12
    assert answered.filter(outcome="correct").exists()
    assert answered.exclude(misconception="").exists()  # the dashboard's common mistakes
    assert {"module-05", "module-06"} <= set(answered.values_list(
        "part__exercise__module__slug", flat=True))
    assert PartProgress.objects.filter(course=course, student__username__in=classmates).exists()
    # Their answers were graded with the modules' own numbers, which are theirs too.
    assert DefaultVariant.objects.filter(course=course,
                                         student__username__in=classmates).count() == 5
    runs = LabRun.objects.filter(course=course, status=LabRun.Status.SUCCEEDED)
    assert runs.exists()
    assert f"{runs.count()} finished lab runs" in output
    assert not Submission.objects.filter(course=course, student__username="student1").exists()
