"""Predictions: stored and locked first, graded against what the lab measured when it finishes."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import Part
from grading.models import PartProgress, StudentProgress, Submission
from grading.progress import progress_refresh
from grading.progress_fold import PART_FIELDS, STUDENT_FIELDS
from grading.progress_rebuild import progress_rebuild
from grading.services import SubmissionRefused, submission_create
from labs.models import LabRun
from labs.predictions import lab_run_execute_and_grade, measured_value, spec_against_measurement

pytestmark = pytest.mark.django_db


@pytest.fixture
def shape(module_05) -> Part:
    return Part.objects.get(exercise__slug="predict-alignment-shape", key="shape")


def _predict(student, course, part, raw, capture):
    with capture(execute=True):
        return submission_create(student=student, course=course, part=part, raw_answer=raw)


def test_prediction_is_stored_pending_and_requests_a_run(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predict(alice, course, shape, "diagonal-with-crossing",
                          django_capture_on_commit_callbacks)
    assert submission.outcome == Submission.Outcome.PENDING
    run = LabRun.objects.get(submission=submission)
    assert run.lab.slug == "attention" and run.status == LabRun.Status.QUEUED


def test_finished_run_grades_the_prediction_beside_the_measurement(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predict(alice, course, shape, "diagonal-with-crossing",
                          django_capture_on_commit_callbacks)
    run = LabRun.objects.get(submission=submission)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=run.pk)
    submission.refresh_from_db()
    assert submission.outcome == Submission.Outcome.CORRECT
    assert submission.score == 1.0
    crossing = "Mostly diagonal, with a local crossing where the adjectives and nouns swap order"
    assert f"You predicted: {crossing}. The lab measured: {crossing}." in submission.feedback


def test_a_prediction_whose_run_reuses_a_result_is_graded_from_what_is_in_hand(
    alice, bob, course, shape, django_capture_on_commit_callbacks
):
    """The same lab, parameters and seed ran for bob: alice's run reuses its result and her
    prediction is graded when her answer commits, without reading the run, her or the
    course again."""
    first = _predict(bob, course, shape, "diagonal", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=LabRun.objects.get(submission=first).pk)
    with CaptureQueriesContext(connection) as queries:
        submission = _predict(alice, course, shape, "diagonal-with-crossing",
                              django_capture_on_commit_callbacks)
    submission.refresh_from_db()
    assert (submission.outcome, submission.score) == (Submission.Outcome.CORRECT, 1.0)
    assert LabRun.objects.get(submission=submission).reused_from_id is not None
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert not [sql for sql in reads if 'FROM "labs_labrun" INNER JOIN' in sql]
    assert not [sql for sql in reads if 'FROM "auth_user"' in sql or 'FROM "courses_course"' in sql]


def _progress(course) -> tuple[list[tuple], list[tuple]]:
    parts = sorted(tuple(getattr(p, f) for f in ("student_id", "part_id", *PART_FIELDS))
                   for p in PartProgress.objects.filter(course=course))
    totals = sorted(tuple(getattr(s, f) for f in ("student_id", *STUDENT_FIELDS))
                    for s in StudentProgress.objects.filter(course=course))
    return parts, totals


@pytest.mark.parametrize("answer", ["diagonal-with-crossing", "diagonal"])
def test_the_lab_verdict_of_the_latest_answer_moves_the_progress_rows_by_difference(
    alice, course, shape, django_capture_on_commit_callbacks, answer
):
    """Right or wrong, the prediction's lab verdict updates the kept rows without
    re-aggregating the student's answers, and they still equal a rebuild."""
    submission = _predict(alice, course, shape, answer, django_capture_on_commit_callbacks)
    run = LabRun.objects.get(submission=submission)
    with CaptureQueriesContext(connection) as queries:
        lab_run_execute_and_grade(run_id=run.pk)
    statements = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in statements if "COUNT(" in sql.upper()]
    assert not [sql for sql in statements if 'FROM "grading_partprogress" INNER JOIN' in sql]
    kept = _progress(course)
    progress_rebuild(course=course)
    assert _progress(course) == kept
    row = PartProgress.objects.get(course=course, student=alice, part=shape)
    assert (row.pending, row.attempts, row.solved) == (0, 1, answer == "diagonal-with-crossing")


def test_the_lab_verdict_of_a_prediction_answered_again_later_is_re_aggregated(
    alice, course, shape, django_capture_on_commit_callbacks
):
    """An answer stored after the prediction (here by hand: the part allows one) means the
    row cannot be moved by difference: it is recomputed, and equals a rebuild."""
    submission = _predict(alice, course, shape, "uniform", django_capture_on_commit_callbacks)
    later = Submission.objects.create(student=alice, course=course, part=shape,
                                      raw_answer="diagonal", canonical="diagonal",
                                      counts_as_attempt=True)
    Submission.objects.filter(pk=later.pk).update(outcome=Submission.Outcome.INCORRECT,
                                                  score=0.0, graded_at=timezone.now())
    progress_refresh(course_id=course.pk, student_id=alice.pk, part_id=shape.pk)
    with CaptureQueriesContext(connection) as queries:
        lab_run_execute_and_grade(run_id=LabRun.objects.get(submission=submission).pk)
    assert [q for q in queries.captured_queries if "COUNT(" in q["sql"].upper()]
    kept = _progress(course)
    progress_rebuild(course=course)
    assert _progress(course) == kept
    row = PartProgress.objects.get(course=course, student=alice, part=shape)
    assert (row.submissions, row.pending, row.last_wrong_key) == (2, 0, "diagonal")


def test_wrong_prediction_gets_its_misconception_when_measured(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predict(alice, course, shape, "diagonal", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=LabRun.objects.get(submission=submission).pk)
    submission.refresh_from_db()
    assert submission.outcome == Submission.Outcome.INCORRECT
    assert submission.misconception == "word-order-ignored"
    assert "The lab measured: Mostly diagonal, with a local crossing" in submission.feedback
    assert "A diagonal is right for most of the sentence" in submission.feedback


def test_prediction_feedback_names_the_options_by_their_text_not_their_keys(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predict(alice, course, shape, "uniform", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=LabRun.objects.get(submission=submission).pk)
    submission.refresh_from_db()
    assert submission.feedback.startswith(
        "You predicted: Roughly uniform: every French word spreads its weight over the whole "
        "sentence. The lab measured: Mostly diagonal, with a local crossing")
    assert "diagonal-with-crossing" not in submission.feedback and "uniform." not in submission.feedback


def test_a_prediction_is_locked_once_made(alice, course, shape, django_capture_on_commit_callbacks):
    _predict(alice, course, shape, "uniform", django_capture_on_commit_callbacks)
    with pytest.raises(SubmissionRefused, match="all your attempts"):
        _predict(alice, course, shape, "diagonal-with-crossing",
                 django_capture_on_commit_callbacks)


def test_invalid_prediction_is_refused_without_a_run(
    alice, course, shape, django_capture_on_commit_callbacks
):
    submission = _predict(alice, course, shape, "spiral", django_capture_on_commit_callbacks)
    assert submission.outcome == Submission.Outcome.INVALID
    assert not LabRun.objects.exists()


def test_numeric_prediction_is_scored_in_orders_of_magnitude():
    spec = {"type": "numeric", "reference": "sigma^40", "decades": 1.0, "lab": "x",
            "measure": "series.0.norm_at_40"}
    result = {"series": [{"norm_at_40": 3.1e-30}]}
    graded = spec_against_measurement(spec, measured_value(result, spec["measure"]))
    assert graded["reference"] == "3.1e-30"
    assert "lab" not in graded


def test_analogy_prediction_graded_against_the_nearest_word(
    alice, course, module_05, django_capture_on_commit_callbacks
):
    part = Part.objects.get(exercise__slug="predict-analogy", key="endpoint")
    submission = _predict(alice, course, part, "queen", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        lab_run_execute_and_grade(run_id=LabRun.objects.get(submission=submission).pk)
    submission.refresh_from_db()
    assert submission.outcome == Submission.Outcome.CORRECT
    assert "The lab measured: Near queen" in submission.feedback
