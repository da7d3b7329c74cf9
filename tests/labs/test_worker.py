"""Lab runs through a real broker and a real `celery worker` process, including a crash."""

import pytest

from courses.models import Lab
from labs.models import LabRun
from labs.services import lab_run_request
from tests.workers import start_worker, wait_for

pytestmark = pytest.mark.services


def _status(run_id: int) -> str:
    return LabRun.objects.values_list("status", flat=True).get(pk=run_id)


def _diagnostic_lab(module_05) -> Lab:
    """A lab row on the diagnostic workload: long enough runs to watch and to interrupt."""
    section = module_05.sections.get(number="5.4")
    return Lab.objects.create(module=module_05, section=section, slug="diagnostic",
                              title="Diagnostic workload", simulation="diagnostic")


def test_vanishing_gradient_run_goes_queued_running_succeeded(celery_worker, course, alice):
    lab = Lab.objects.get(slug="vanishing-gradient")
    run = lab_run_request(lab=lab, course=course, requester=alice, params={}, seed=3)
    assert _status(run.pk) == LabRun.Status.QUEUED

    wait_for(lambda: _status(run.pk) == LabRun.Status.SUCCEEDED, timeout=60)

    run.refresh_from_db()
    assert run.attempts == 1
    assert [s["sigma"] for s in run.result["series"]] == [0.5, 1.0, 1.5, 3.0]


def test_worker_reports_running_and_progress_before_success(celery_worker, module_05, course, alice):
    run = lab_run_request(lab=_diagnostic_lab(module_05), course=course, requester=alice,
                          params={"seconds": 3}, seed=1)
    wait_for(lambda: _status(run.pk) == LabRun.Status.RUNNING, timeout=60, interval=0.05)
    wait_for(lambda: 0 < LabRun.objects.get(pk=run.pk).progress < 1, timeout=10, interval=0.05)
    wait_for(lambda: _status(run.pk) == LabRun.Status.SUCCEEDED, timeout=60)


def test_worker_killed_mid_run_is_restarted_and_the_run_completes_exactly_once(
    celery_worker, module_05, course, alice, tmp_path
):
    run = lab_run_request(lab=_diagnostic_lab(module_05), course=course, requester=alice,
                          params={"seconds": 4}, seed=1)
    wait_for(lambda: _status(run.pk) == LabRun.Status.RUNNING, timeout=60, interval=0.05)

    celery_worker.kill()
    assert _status(run.pk) == LabRun.Status.RUNNING  # the crash left it claimed

    restarted = start_worker(tmp_path, beat=True)
    try:
        wait_for(lambda: _status(run.pk) == LabRun.Status.SUCCEEDED, timeout=120)
    finally:
        restarted.stop()

    run.refresh_from_db()
    assert run.attempts == 2
    assert run.result["seconds"] == 4
    assert LabRun.objects.count() == 1
    assert "superseded" not in restarted.log()


def test_prediction_is_graded_when_the_worker_finishes_its_run(celery_worker, course, alice):
    from courses.models import Part
    from grading.models import Submission
    from grading.services import submission_create

    part = Part.objects.get(exercise__slug="predict-alignment-shape", key="shape")
    submission = submission_create(student=alice, course=course, part=part,
                                   raw_answer="diagonal-with-crossing")
    assert submission.outcome == Submission.Outcome.PENDING

    wait_for(lambda: Submission.objects.get(pk=submission.pk).outcome != "pending", timeout=60)

    submission.refresh_from_db()
    assert submission.outcome == Submission.Outcome.CORRECT
    assert "The lab measured: Mostly diagonal, with a local crossing" in submission.feedback
