"""Lab reads for students: their own runs only, found by uuid and requester, in few queries."""

import uuid

import pytest
from django.contrib.auth.models import AnonymousUser

from core.not_found import NotFound
from courses.models import Lab, Part
from grading.services import submission_create
from labs.selectors import lab_for_student, lab_run_for_student, lab_run_key_results
from labs.services import lab_run_execute, lab_run_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab(module_05) -> Lab:
    return Lab.objects.get(slug="rnn")


@pytest.mark.parametrize("runs", [1, 25])
def test_lab_page_lists_the_students_latest_runs_in_three_queries(
    alice, course, lab, runs, django_assert_num_queries
):
    for seed in range(runs):
        lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=seed)
    lab_for_student(user=alice, course_slug=course.slug, lab_slug="rnn")  # the lab, cached
    with django_assert_num_queries(3):  # enrolment, runs, predictions due
        page = lab_for_student(user=alice, course_slug=course.slug, lab_slug="rnn")
        listed, due = page.runs, page.predictions_due
    assert len(listed) == min(runs, 20) and due == []
    assert listed[0].seed == runs - 1  # newest first


def test_the_runs_and_predictions_due_are_read_only_when_used(alice, course, lab,
                                                              django_assert_num_queries):
    """A POST that requests a run and redirects never shows the page: 1 read, not 3."""
    lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=1)
    lab_for_student(user=alice, course_slug=course.slug, lab_slug="rnn")  # the lab, cached
    with django_assert_num_queries(1):  # enrolment (the lab from the content cache)
        page = lab_for_student(user=alice, course_slug=course.slug, lab_slug="rnn")
    with django_assert_num_queries(1):
        assert [run.seed for run in page.runs] == [1]
    with django_assert_num_queries(0):  # read once
        assert len(page.runs) == 1


def test_a_lab_outside_the_users_courses_is_not_found(alice, course, other_course, lab):
    assert lab_for_student(user=alice, course_slug=other_course.slug,
                           lab_slug="rnn") is NotFound.COURSE
    assert lab_for_student(user=AnonymousUser(), course_slug=course.slug,
                           lab_slug="rnn") is NotFound.COURSE
    assert lab_for_student(user=alice, course_slug=course.slug,
                           lab_slug="no-such-lab") is NotFound.ITEM


def test_a_run_is_found_by_uuid_and_requester_only(alice, bob, course, other_course, lab):
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=1)
    assert lab_run_for_student(user=alice, course_slug=course.slug, run_uuid=run.uuid) == run
    for user, slug, key in ((bob, course.slug, run.uuid), (alice, other_course.slug, run.uuid),
                            (alice, course.slug, uuid.uuid4())):
        assert lab_run_for_student(user=user, course_slug=slug, run_uuid=key) is None


def test_key_results_appear_once_the_run_has_succeeded(alice, course, lab):
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=1)
    assert lab_run_key_results(run=run) == []
    lab_run_execute(run_id=run.pk)
    found = lab_run_for_student(user=alice, course_slug=course.slug, run_uuid=run.uuid)
    assert found is not None
    labels = [label for label, _ in lab_run_key_results(run=found)]
    assert labels[:2] == ["Tokens read", "Sequential steps"]


def test_a_lab_that_grades_a_prediction_asks_for_the_prediction_first(alice, course):
    page = lab_for_student(user=alice, course_slug=course.slug, lab_slug="word-vectors")
    assert [e.slug for e in page.predictions_due] == ["predict-analogy"]
    part = Part.objects.get(exercise__slug="predict-analogy", key="endpoint")
    submission_create(student=alice, course=course, part=part, raw_answer="queen")
    page = lab_for_student(user=alice, course_slug=course.slug, lab_slug="word-vectors")
    assert page.predictions_due == []
    assert lab_for_student(user=alice, course_slug=course.slug,
                           lab_slug="rnn").predictions_due == []
