"""Worker heartbeats: written by a thread independent of the task queue, forgotten on a clean
shutdown, too old ones no longer count, a day-old row is pruned."""

from datetime import timedelta

import pytest
from django.utils import timezone

from ops.celery_setup import _heartbeat_start, _heartbeat_stop
from ops.heartbeat import worker_heartbeat_record, workers_seen
from ops.models import WorkerHeartbeat
from tests.workers import wait_for


class _Worker:
    hostname = "celery@heartbeat-test"


@pytest.mark.django_db(transaction=True)
def test_a_ready_worker_heartbeats_until_it_shuts_down(settings):
    settings.WORKER_HEARTBEAT_SECONDS = 0.05
    _heartbeat_start(sender=_Worker())
    try:
        first = wait_for(lambda: WorkerHeartbeat.objects.filter(worker=_Worker.hostname).first())
        wait_for(lambda: WorkerHeartbeat.objects.get(worker=_Worker.hostname).seen_at > first.seen_at)
        assert workers_seen() == 1
    finally:
        _heartbeat_stop(sender=_Worker())
    assert not WorkerHeartbeat.objects.filter(worker=_Worker.hostname).exists()
    assert workers_seen() == 0


@pytest.mark.django_db
def test_only_recent_heartbeats_count_and_day_old_rows_are_pruned(settings):
    settings.HEALTH_WORKER_MAX_AGE_SECONDS = 60
    now = timezone.now()
    WorkerHeartbeat.objects.create(worker="celery@late", seen_at=now - timedelta(seconds=61))
    WorkerHeartbeat.objects.create(worker="celery@gone", seen_at=now - timedelta(days=2))
    assert workers_seen() == 0

    worker_heartbeat_record(worker="celery@alive")

    assert workers_seen() == 1
    assert set(WorkerHeartbeat.objects.values_list("worker", flat=True)) == {"celery@late",
                                                                              "celery@alive"}
