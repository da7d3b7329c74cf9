"""Student-facing reads: the module page with a student's own work, progress per section;
query counts do not depend on how many attempts were made."""

import pytest
from django.contrib.auth.models import AnonymousUser

from core.not_found import NotFound
from courses.models import Part
from grading.models import Submission
from grading.services import attempt_state, attempt_state_from, submission_create
from grading.variant_assignment import variant_for
from labs.predictions import lab_run_execute_and_grade
from student.course_progress import course_progress_for_student
from student.module_page import course_plan_for_user
from student.selectors import part_for_student, submission_for_student
from tests.student.module_pages import page_for

pytestmark = pytest.mark.django_db

#: enrolment, sections, figures, labs, exercises, parts, submissions, prediction runs, run
#: counts, the student's extensions (the modules the course runs, the deadlines and the
#: policy come from the content cache, warm as in a running service)
#: (whether alice has the default variant is cached on her User object by her answers)
MODULE_PAGE_QUERIES = 10


def _part(slug: str, key: str) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug=slug, key=key)


def _answer(student, course, slug, key, raw):
    return submission_create(student=student, course=course, part=_part(slug, key), raw_answer=raw)


def _views(page):
    return {p.id: p for section in page.sections for e in (*section.predictions, *section.exercises)
            for p in e.parts}


def _bound_params(student, course):
    return variant_for(student=student, course=course,
                       exercise=_part("apply-1-gradient-bound", "bound").exercise).params


def test_module_page_lists_every_section_exercise_and_lab(alice, course):
    page = page_for(alice, course.slug)
    assert [s.section.number for s in page.sections] == ["5.1", "5.2", "5.3", "5.4", "5.5",
                                                         "5.6", "5.7"]
    assert [e.slug for e in page.exercises] == [
        "check-two-problems", "apply-1-gradient-bound", "apply-2-sequential-steps",
        "apply-3-context-value", "extend-bottleneck"]
    predictions = [e.slug for s in page.sections for e in s.predictions]
    assert predictions == ["predict-analogy", "predict-alignment-shape"]
    labs = [lab.lab.slug for s in page.sections for lab in s.labs]
    assert sorted(labs) == ["attention", "rnn", "vanishing-gradient", "word-vectors"]


def test_prompts_carry_the_students_own_variant_numbers(alice, course):
    page = page_for(alice, course.slug)
    apply_1 = next(e for e in page.exercises if e.slug == "apply-1-gradient-bound")
    p = _bound_params(alice, course)
    assert f"through {p['steps']} RNN steps" in apply_1.prompt
    assert "{{" not in apply_1.prompt


def test_part_views_carry_the_students_attempts_and_state(alice, bob, course):
    p = _bound_params(alice, course)
    _answer(alice, course, "apply-1-gradient-bound", "bound", "0.85^(40")
    _answer(alice, course, "apply-1-gradient-bound", "bound", f"{p['sigma']}*{p['steps']}")
    _answer(bob, course, "apply-1-gradient-bound", "bound", "1")
    part = _part("apply-1-gradient-bound", "bound")

    view = _views(page_for(alice, course.slug))[part.pk]
    assert [s.outcome for s in view.history] == ["invalid", "incorrect"]
    assert view.state == attempt_state(student=alice, course=course, part=part)
    assert (view.state.used, view.state.left, view.state.solved) == (1, 4, False)
    assert view.can_answer and view.initial == f"{p['sigma']}*{p['steps']}"


def test_attempt_state_from_loaded_rows_matches_the_service(alice, course):
    part = _part("apply-2-sequential-steps", "rnn_steps")
    for raw in ("x", "1", "2", "3"):
        _answer(alice, course, "apply-2-sequential-steps", "rnn_steps", raw)
    rows = list(Submission.objects.filter(student=alice, part=part))
    assert attempt_state_from(rows, max_attempts=5) == attempt_state(
        student=alice, course=course, part=part)


def test_a_prediction_shows_nothing_measured_until_its_run_has_finished(
    alice, course, django_capture_on_commit_callbacks
):
    part = _part("predict-analogy", "endpoint")
    submission = _answer(alice, course, "predict-analogy", "endpoint", "queen")
    view = _views(page_for(alice, course.slug))[part.pk]
    assert view.prediction is not None
    assert view.prediction.predicted == "Near queen"
    assert view.prediction.measured is None and view.waiting and not view.can_answer

    run = submission.lab_runs.get()
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=run.pk)
    view = _views(page_for(alice, course.slug))[part.pk]
    assert view.prediction is not None and view.prediction.measured == "Near queen"
    assert view.latest is not None and view.latest.outcome == "correct"


@pytest.mark.parametrize("attempts", [1, 30])
def test_module_page_query_count_does_not_grow_with_attempts(
    alice, course, attempts, django_assert_num_queries
):
    _answer(alice, course, "predict-analogy", "endpoint", "queen")
    for number in range(attempts):
        _answer(alice, course, "extend-bottleneck", "explanation", f"Attempt {number}: a summary.")
        _answer(alice, course, "apply-1-gradient-bound", "bound", f"0.85^({number}")  # invalid
    page_for(alice, course.slug)  # the content cache warm
    with django_assert_num_queries(MODULE_PAGE_QUERIES):
        page = page_for(alice, course.slug)
        views = _views(page)
    extend = views[_part("extend-bottleneck", "explanation").pk]
    assert len(extend.history) == attempts


def test_a_course_the_student_is_not_in_has_no_plan(alice, other_course):
    assert course_plan_for_user(user=alice, course_slug=other_course.slug) is None
    assert course_plan_for_user(user=AnonymousUser(), course_slug=other_course.slug) is None


def test_course_progress_counts_parts_answered_and_solved_per_section(
    alice, course, django_assert_num_queries
):
    p = _bound_params(alice, course)
    _answer(alice, course, "apply-1-gradient-bound", "bound", f"{p['sigma']}^{p['steps']}")
    _answer(alice, course, "apply-2-sequential-steps", "rnn_steps", "1")  # wrong
    # 4, and 1 for the course's deadlines (with alice's extensions and the policy; none set)
    course_progress_for_student(user=alice)  # the content cache warm
    with django_assert_num_queries(5):  # the modules, deadlines and policy from the cache
        (progress,) = course_progress_for_student(user=alice)
    by_number = {section.number: counts for section, counts in progress.sections}
    assert (by_number["5.4"].total, by_number["5.4"].answered, by_number["5.4"].solved) == (1, 1, 1)
    assert (by_number["5.3"].total, by_number["5.3"].answered, by_number["5.3"].solved) == (2, 1, 0)
    assert by_number["5.2"].total == 0


def test_a_part_of_another_module_or_course_is_not_found(alice, course, other_course):
    part = _part("apply-1-gradient-bound", "bound")
    found = part_for_student(user=alice, course_slug=course.slug, part_id=part.pk)
    assert not isinstance(found, NotFound) and found.part == part
    assert part_for_student(user=alice, course_slug=other_course.slug,
                            part_id=part.pk) is NotFound.COURSE
    assert part_for_student(user=AnonymousUser(), course_slug=course.slug,
                            part_id=part.pk) is NotFound.COURSE
    assert part_for_student(user=alice, course_slug=course.slug, part_id=10**9) is NotFound.ITEM


def test_another_students_submission_is_not_found(alice, bob, course):
    mine = _answer(alice, course, "apply-2-sequential-steps", "rnn_steps", "7")
    detail = submission_for_student(user=alice, course_slug=course.slug, submission_id=mine.pk)
    assert detail is not None and detail.submission == mine
    assert submission_for_student(user=bob, course_slug=course.slug, submission_id=mine.pk) is None


# --- each exercise shows the student's own numbers (issue 11, item 12) ----------------------

def test_each_exercise_with_parameters_carries_the_student_s_own_numbers(alice, course):
    page = page_for(alice, course.slug)
    views = {e.slug: e for e in page.exercises}
    apply_1 = views["apply-1-gradient-bound"]
    params = variant_for(student=alice, course=course, exercise=apply_1.exercise).params
    numbers = {n.name: n.value for n in apply_1.numbers}
    assert numbers == {"steps": f"{params['steps']}", "sigma": f"{params['sigma']}"}
    assert [n.label for n in apply_1.numbers] == ["steps", r"$\sigma_{\max}$"]
    apply_3 = {n.name: n.value for n in views["apply-3-context-value"].numbers}
    assert set(apply_3) == {"w1", "w2", "w3", "w4", "h1", "h2", "h3", "h4"}  # derived w4 too
    assert views["extend-bottleneck"].numbers == []  # the same for everyone


def test_a_student_with_the_default_variant_sees_the_module_s_numbers(alice, course):
    from grading.models import DefaultVariant

    DefaultVariant.objects.create(course=course, student=alice)
    page = page_for(alice, course.slug)
    apply_1 = next(e for e in page.exercises if e.slug == "apply-1-gradient-bound")
    assert {n.name: n.value for n in apply_1.numbers} == {"steps": "40", "sigma": "0.85"}
    assert apply_1.module_numbers


def test_whether_a_student_has_the_default_variant_is_one_query_per_user_object(
    alice, course, django_assert_num_queries
):
    from courses.models import Exercise

    exercises = [e for e in Exercise.objects.all() if e.parameters]
    with django_assert_num_queries(1):
        for exercise in exercises * 3:
            variant_for(student=alice, course=course, exercise=exercise)


# --- a course of several modules (issue 23 item 1) -------------------------------------------

@pytest.fixture
def two_modules(course):
    """`course` runs Module 5, then Module 6 (not released for two days, due in nine)."""
    from datetime import timedelta

    from django.utils import timezone

    from courses.models import CourseModule, Module

    now = timezone.now()
    return CourseModule.objects.create(
        course=course, module=Module.objects.get(slug="module-06"), order=1,
        release_at=now + timedelta(days=2), due_at=now + timedelta(days=9))


@pytest.mark.parametrize("attempts", [1, 30])
def test_one_module_s_page_costs_what_the_course_page_costs(
        alice, irene, course, two_modules, attempts, django_assert_num_queries):
    for number in range(attempts):
        _answer(alice, course, "apply-1-gradient-bound", "bound", f"0.85^({number}")
    page_for(alice, course.slug, module_slug="module-05")
    # and alice's extensions: Module 6 has a due date (none without a deadline)
    with django_assert_num_queries(MODULE_PAGE_QUERIES + 1):
        page = page_for(alice, course.slug,
                                       module_slug="module-05")
    assert page is not None
    assert {s.section.module_id for s in page.sections} == {course.module_id}
    assert page.nav is not None and page.nav.next == two_modules and page.nav.next_url is None
    staff = page_for(irene, course.slug, module_slug="module-06")
    assert staff is not None and staff.module is not None
    assert [s.section.number for s in staff.sections] == ["6.1", "6.2", "6.3", "6.4"]
    assert staff.module.slug == "module-06" and staff.nav is not None
    assert staff.nav.previous_url == f"/courses/{course.slug}/modules/module-05/"


def test_a_student_cannot_open_a_module_before_its_release(alice, course, two_modules):
    assert page_for(alice, course.slug,
                                   module_slug="module-06") is None
    assert page_for(alice, course.slug,
                                   module_slug="module-91") is None


def test_course_progress_lists_each_module_with_its_progress_due_date_and_opening(
        alice, course, two_modules, django_assert_num_queries):
    from courses.models import CourseModule

    p = _bound_params(alice, course)
    _answer(alice, course, "apply-1-gradient-bound", "bound", f"{p['sigma']}^{p['steps']}")
    # as above, with Module 6: alice's extensions (it has a due date) and its own read
    course_progress_for_student(user=alice)  # the content cache warm
    with django_assert_num_queries(7):
        (progress,) = course_progress_for_student(user=alice)
    five, six = progress.modules
    assert (five.module.slug, six.module.slug) == ("module-05", "module-06")
    assert five.url == f"/courses/{course.slug}/modules/module-05/" and five.released
    assert (five.progress.solved, five.progress.answered) == (1, 1) and five.progress.total > 1
    assert (six.url, six.released, six.sections) == (None, False, [])
    assert six.opens_at == two_modules.release_at and six.due_at == two_modules.due_at
    assert six.next_deadline is None  # Module 6 is not open: its due dates are not listed
    assert not progress.unequal_weights
    CourseModule.objects.filter(pk=two_modules.pk).update(release_at=None)
    (progress,) = course_progress_for_student(user=alice)
    six = progress.modules[1]
    assert six.url == f"/courses/{course.slug}/modules/module-06/"
    assert six.next_deadline is None  # every exercise is due on the module's date, shown


def test_the_soonest_own_deadline_of_a_module_is_named(alice, irene, course, two_modules):
    from datetime import timedelta

    from courses.models import CourseModule, Exercise
    from grading.deadlines import deadline_set

    CourseModule.objects.filter(pk=two_modules.pk).update(release_at=None)
    sooner, later = (two_modules.due_at - timedelta(days=d) for d in (3, 1))
    first, second = Exercise.objects.filter(module=two_modules.module).order_by("order")[:2]
    deadline_set(course=course, exercise_id=second.pk, due_at=sooner, by=irene)
    deadline_set(course=course, exercise_id=first.pk, due_at=later, by=irene)
    (progress,) = course_progress_for_student(user=alice)
    assert progress.modules[1].next_deadline is not None
    exercise, status = progress.modules[1].next_deadline
    assert (exercise, status.due_at) == (second, sooner)
    assert progress.modules[0].next_deadline is None  # none in Module 5
