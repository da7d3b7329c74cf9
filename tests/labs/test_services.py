"""Lab run services: validate before storing, reuse finished runs, execute exactly once."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from courses.models import Lab
from labs.models import LabRun
from labs.services import (
    LabParamsInvalid,
    _finish,
    lab_run_execute,
    lab_run_plot,
    lab_run_request,
    lab_run_sweep,
)
from labs.sql import RunClaim, run_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab(module_05) -> Lab:
    return Lab.objects.get(slug="vanishing-gradient")


def _claim(run_id: int) -> RunClaim | None:
    return run_claim(run_id, now=timezone.now(), stale_after=timedelta(seconds=30))


def _request(lab, course, user, params=None, seed=7, capture=None):
    return lab_run_request(lab=lab, course=course, requester=user, params=params or {}, seed=seed)


def test_bad_params_are_refused_and_nothing_is_stored_or_queued(
    lab, course, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued, pytest.raises(LabParamsInvalid) as caught:
        _request(lab, course, alice, {"units": 100000, "colour": "red"})
    assert caught.value.errors["units"] == "Hidden units must be between 2 and 256"
    assert "colour" in caught.value.errors
    assert LabRun.objects.count() == 0
    assert queued == []


def test_request_stores_a_queued_run_with_defaults_and_seed_then_queues_it(
    lab, course, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        run = _request(lab, course, alice, {"steps": "40"})
    assert run.status == LabRun.Status.QUEUED
    assert run.params["steps"] == 40 and run.params["units"] == 32
    assert run.seed == 7
    assert len(queued) == 1


def test_request_without_seed_draws_and_stores_one(lab, course, alice):
    run = lab_run_request(lab=lab, course=course, requester=alice, params={})
    assert isinstance(run.seed, int)


def test_execute_runs_the_simulation_and_stores_the_result(lab, course, alice):
    run = _request(lab, course, alice)
    assert lab_run_execute(run_id=run.pk) == "succeeded"
    run.refresh_from_db()
    assert run.status == LabRun.Status.SUCCEEDED
    assert run.attempts == 1 and run.progress == 1.0
    assert run.compute_ms is not None and run.finished_at is not None
    for series in run.result["series"]:
        for measured, bound in zip(series["measured"], series["bound"], strict=True):
            assert measured <= bound * (1 + 1e-9)


def test_redelivered_task_for_a_finished_run_neither_recomputes_nor_writes(lab, course, alice):
    run = _request(lab, course, alice)
    lab_run_execute(run_id=run.pk)
    finished = LabRun.objects.get(pk=run.pk)
    assert lab_run_execute(run_id=run.pk) == "finished-already"
    again = LabRun.objects.get(pk=run.pk)
    assert (again.attempts, again.finished_at, again.result) == (
        finished.attempts, finished.finished_at, finished.result)


def test_same_lab_params_and_seed_reuse_a_finished_result_without_queueing(
    lab, course, alice, bob, django_capture_on_commit_callbacks
):
    first = _request(lab, course, alice)
    lab_run_execute(run_id=first.pk)
    with django_capture_on_commit_callbacks() as queued:
        second = _request(lab, course, bob)
    assert second.status == LabRun.Status.SUCCEEDED
    assert second.reused_from_id == first.pk
    assert second.result == LabRun.objects.get(pk=first.pk).result
    assert second.requester == bob
    assert all("lab_run_task" not in repr(callback) for callback in queued)
    stored = LabRun.objects.get(pk=second.pk)  # as the run's page and the API will read it
    assert (stored.status, stored.reused_from_id, stored.result) == (
        LabRun.Status.SUCCEEDED, first.pk, second.result)
    assert stored.queued_at == stored.started_at == stored.finished_at


def test_a_reused_result_is_stored_with_the_run_in_one_insert(lab, course, alice, bob):
    first = _request(lab, course, alice)
    lab_run_execute(run_id=first.pk)
    with CaptureQueriesContext(connection) as queries:
        _request(lab, course, bob)
    writes = [q["sql"].split()[0] for q in queries.captured_queries
              if q["sql"].startswith(("INSERT", "UPDATE"))]
    assert writes.count("UPDATE") == 0
    assert sum('"labs_labrun"' in q["sql"] for q in queries.captured_queries
               if q["sql"].startswith("INSERT")) == 1


def test_a_different_seed_is_a_new_computation(lab, course, alice):
    first = _request(lab, course, alice, seed=1)
    lab_run_execute(run_id=first.pk)
    second = _request(lab, course, alice, seed=2)
    assert second.status == LabRun.Status.QUEUED


def test_a_live_claim_makes_a_duplicate_task_wait(lab, course, alice):
    run = _request(lab, course, alice)
    assert _claim(run.pk).token == 1
    assert lab_run_execute(run_id=run.pk) == "busy"


def test_a_stale_claim_is_taken_over_and_its_late_result_discarded(lab, course, alice):
    run = _request(lab, course, alice)
    stale_claim = _claim(run.pk)
    LabRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    assert lab_run_execute(run_id=run.pk) == "succeeded"
    assert _finish(run.pk, stale_claim, status=LabRun.Status.SUCCEEDED,
                   result={"late": True}) == "superseded"
    run.refresh_from_db()
    assert run.attempts == 2
    assert "late" not in run.result


def test_sweep_requeues_runs_left_running_or_queued_too_long(lab, course, alice):
    lost = _request(lab, course, alice, seed=1)
    _claim(lost.pk)
    LabRun.objects.filter(pk=lost.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=5))
    waiting = _request(lab, course, alice, seed=2)
    LabRun.objects.filter(pk=waiting.pk).update(queued_at=timezone.now() - timedelta(minutes=5))
    fresh = _request(lab, course, alice, seed=3)
    done = _request(lab, course, alice, seed=4)
    lab_run_execute(run_id=done.pk)
    LabRun.objects.filter(pk=done.pk).update(queued_at=timezone.now() - timedelta(minutes=5))

    requeued: list[int] = []
    ids = lab_run_sweep(enqueue=requeued.append)

    assert sorted(ids) == sorted(requeued) == sorted([lost.pk, waiting.pk])
    assert fresh.pk not in ids


def test_a_failing_simulation_marks_the_run_failed_with_its_message(lab, course, alice, monkeypatch):
    from labs.simulations import vanishing_gradient

    def broken(*_args, **_kwargs):
        raise ValueError("a bug in the simulation")

    run = _request(lab, course, alice)
    monkeypatch.setattr(vanishing_gradient, "run", broken)
    assert lab_run_execute(run_id=run.pk) == "failed"
    run.refresh_from_db()
    assert run.status == LabRun.Status.FAILED
    assert run.error.startswith("The simulation failed:")


def test_plot_is_rendered_on_first_view_then_cached_without_a_database_write(
        lab, course, alice, django_assert_num_queries):
    from django.core.cache import cache

    run = _request(lab, course, alice)
    lab_run_execute(run_id=run.pk)
    run = LabRun.objects.select_related("lab").get(pk=run.pk)
    cache.clear()
    with django_assert_num_queries(0):  # a page view reads: no UPDATE of the run
        svg = lab_run_plot(run=run)
    assert svg.startswith("<svg") or "<svg" in svg[:200]
    import labs.plots  # lab_run_plot imports plot_for from here where it draws

    def no_second_render(*_args, **_kwargs):
        raise AssertionError("the plot was rendered again")

    original = labs.plots.plot_for
    labs.plots.plot_for = no_second_render
    try:
        assert lab_run_plot(run=run) == svg  # served from the cache
    finally:
        labs.plots.plot_for = original


def test_a_labs_own_bounds_are_enforced(lab, course, alice):
    schema = lab.param_schema
    schema["units"]["max"] = 64
    Lab.objects.filter(pk=lab.pk).update(param_schema=schema)
    lab.refresh_from_db()
    with pytest.raises(LabParamsInvalid) as caught:
        _request(lab, course, alice, {"units": 100})
    assert caught.value.errors["units"] == "Hidden units must be between 2 and 64"


def test_executing_a_run_costs_a_claim_a_result_write_and_a_webhook_lookup(
    lab, course, alice, django_assert_num_queries
):
    run = _request(lab, course, alice)
    # claim; savepoint, result UPDATE, subscriptions SELECT, release (the test's transaction)
    with django_assert_num_queries(5):
        assert lab_run_execute(run_id=run.pk) == "succeeded"


def test_the_worker_refuses_parameters_beyond_the_simulations_own_limits(lab, course, alice):
    """Whatever the lab's schema or a stored row says (content of an older release, an edited
    row), the simulation's limits hold on the worker: the run fails at once, unrun."""
    Lab.objects.filter(pk=lab.pk).update(param_schema={
        **lab.param_schema, "units": {**lab.param_schema["units"], "max": 100000}})
    lab.refresh_from_db()
    run = _request(lab, course, alice, {"units": 100000})
    assert run.params["units"] == 100000  # the (corrupted) lab schema let it through

    assert lab_run_execute(run_id=run.pk) == LabRun.Status.FAILED
    run.refresh_from_db()
    assert run.result is None and run.compute_ms is None
    assert "outside what the simulation allows" in run.error
    assert "Hidden units must be between 2 and 256" in run.error
