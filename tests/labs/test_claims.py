"""Claiming a run: one statement, a fresh fencing token, and nothing for a run not claimable."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import Lab
from labs.models import LabRun
from labs.services import lab_run_execute, lab_run_request
from labs.sql import claim_sql, run_claim

pytestmark = pytest.mark.django_db

STALE = timedelta(seconds=30)


@pytest.fixture
def run(module_05, course, alice) -> LabRun:
    lab = Lab.objects.get(slug="vanishing-gradient")
    return lab_run_request(lab=lab, course=course, requester=alice, params={"steps": 40}, seed=9)


def test_claiming_a_queued_run_marks_it_running_and_returns_what_it_needs_in_one_query(
    run, course
):
    now = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        claim = run_claim(run.pk, now=now, stale_after=STALE)

    assert len(queries) == 1
    assert claim is not None
    assert claim.token == 1
    assert claim.simulation == "vanishing-gradient"
    assert claim.params == run.params and claim.params["steps"] == 40
    assert claim.seed == 9 and claim.course_id == course.pk and claim.has_submission is False
    run.refresh_from_db()
    assert run.status == LabRun.Status.RUNNING and run.attempts == 1
    assert run.started_at == now and run.heartbeat_at == now and run.progress == 0.0


def test_a_live_claim_cannot_be_claimed_again(run):
    assert run_claim(run.pk, now=timezone.now(), stale_after=STALE) is not None

    assert run_claim(run.pk, now=timezone.now(), stale_after=STALE) is None
    run.refresh_from_db()
    assert run.attempts == 1


def test_a_claim_with_no_heartbeat_for_too_long_is_taken_over_with_the_next_token(run):
    first = run_claim(run.pk, now=timezone.now() - timedelta(minutes=5), stale_after=STALE)

    second = run_claim(run.pk, now=timezone.now(), stale_after=STALE)

    assert first is not None and second is not None
    assert (first.token, second.token) == (1, 2)


def test_finished_and_missing_runs_are_not_claimable(run):
    lab_run_execute(run_id=run.pk)

    assert run_claim(run.pk, now=timezone.now() + timedelta(hours=1), stale_after=STALE) is None
    assert run_claim(run.pk + 1000, now=timezone.now(), stale_after=STALE) is None
    run.refresh_from_db()
    assert run.status == LabRun.Status.SUCCEEDED and run.attempts == 1


def test_the_claim_statement_names_the_models_tables():
    from django.db import connection

    sql = claim_sql(connection.vendor)
    assert f'UPDATE "{LabRun._meta.db_table}"' in sql
    assert f'FROM "{Lab._meta.db_table}"' in sql


def test_a_stale_worker_s_late_write_is_refused_while_the_new_claim_runs(run):
    """The fencing token at work: a worker presumed dead wakes up and tries to store its
    result while the worker that took the run over is still running it."""
    from labs.services import _finish

    old = run_claim(run.pk, now=timezone.now() - timedelta(minutes=5), stale_after=STALE)
    new = run_claim(run.pk, now=timezone.now(), stale_after=STALE)
    assert old is not None and new is not None

    assert _finish(run.pk, old, status=LabRun.Status.SUCCEEDED,
                   result={"stale": True}) == "superseded"
    run.refresh_from_db()
    assert run.status == LabRun.Status.RUNNING and run.result is None
    assert run.attempts == new.token  # the new claim's, untouched

    assert _finish(run.pk, new, status=LabRun.Status.SUCCEEDED,
                   result={"fresh": True}) == "succeeded"
    run.refresh_from_db()
    assert run.status == LabRun.Status.SUCCEEDED and run.result == {"fresh": True}
