"""The beat lease: one beat sends the schedule, a second one stands by, and takes over once
the first is gone (killed: its lease expires; stopped cleanly: at once)."""

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from ops.beat_lock import LEASE_NAME, beat_lease_hold, beat_lease_release
from ops.models import BeatLease
from tests import workers
from tests.workers import ROOT, wait_for

SENT = "Sending due task"


@pytest.mark.django_db(transaction=True)
def test_a_lease_held_by_one_beat_is_refused_to_another_until_it_expires():
    assert beat_lease_hold(name=LEASE_NAME, holder="a", seconds=30)
    assert not beat_lease_hold(name=LEASE_NAME, holder="b", seconds=30)
    assert beat_lease_hold(name=LEASE_NAME, holder="a", seconds=30)  # renewed by its holder
    BeatLease.objects.filter(name=LEASE_NAME).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert beat_lease_hold(name=LEASE_NAME, holder="b", seconds=30)
    assert not beat_lease_hold(name=LEASE_NAME, holder="a", seconds=30)
    assert BeatLease.objects.get(name=LEASE_NAME).holder == "b"


@pytest.mark.django_db(transaction=True)
def test_a_released_lease_can_be_taken_at_once_and_only_its_holder_releases_it():
    assert beat_lease_hold(name=LEASE_NAME, holder="a", seconds=30)
    beat_lease_release(name=LEASE_NAME, holder="b")
    assert not beat_lease_hold(name=LEASE_NAME, holder="b", seconds=30)
    beat_lease_release(name=LEASE_NAME, holder="a")
    assert beat_lease_hold(name=LEASE_NAME, holder="b", seconds=30)


class Beat:
    """A real `celery beat` process on the test database and broker."""

    def __init__(self, folder: Path, name: str) -> None:
        self.log_path = folder / f"beat-{name}.log"
        env = {**os.environ, "DATABASE_URL": workers.test_database_url(),
               "DJANGO_SETTINGS_MODULE": "config.settings.test", "BEAT_LEASE_SECONDS": "3"}
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=info",
                 "--schedule", str(folder / f"schedule-{name}"), "--pidfile="],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def sent(self) -> int:
        return self.log().count(SENT)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
        self.process.wait(timeout=30)


@contextmanager
def beats(folder: Path, *names: str) -> Iterator[list[Beat]]:
    started = [Beat(folder, name) for name in names]
    try:
        yield started
    finally:
        for beat in started:
            beat.stop(signal.SIGKILL)


@pytest.mark.django_db(transaction=True)
def test_of_two_beats_only_one_sends_and_the_other_takes_over_when_it_is_killed(tmp_path):
    from config.celery import app

    with beats(tmp_path, "first", "second") as (first, second):
        acting = wait_for(lambda: first if first.sent() else second if second.sent() else None,
                          timeout=90)
        standby = second if acting is first else first
        # Both tick every second (lease of 3 s); the schedule sends every 1 to 2 s.
        wait_for(lambda: acting.sent() >= 6 and "stands by" in standby.log(), timeout=60)
        assert standby.sent() == 0, standby.log()
        holder = BeatLease.objects.get(name=LEASE_NAME).holder
        assert holder.split(":")[1] == str(acting.process.pid)

        acting.stop(signal.SIGKILL)  # no clean stop: the lease must expire
        wait_for(lambda: standby.sent() > 0, timeout=60)
    app.control.purge()
