"""The embedded broker: readers see whole messages only, each message is taken once, and an
unreadable file is set aside instead of stopping the worker (ops/filesystem_broker.py)."""

import multiprocessing
import os
from pathlib import Path
from queue import Empty

import pytest
from kombu import Connection
from kombu.transport import filesystem as kombu_filesystem

from config.settings.base import filesystem_broker_options
from ops.filesystem_broker import CLAIMED, UNREADABLE_SUFFIX, WRITING, Channel, Transport

QUEUE = "work"


def _connection(folder: Path) -> Connection:
    return Connection("filesystem://", transport_options=filesystem_broker_options(folder))


def test_the_celery_app_uses_the_safe_transport_for_filesystem_urls(tmp_path):
    """Installed by config/celery.py (through ops/celery_setup.py) in every process."""
    with Connection("filesystem://", transport_options=filesystem_broker_options(tmp_path)) as c:
        assert isinstance(c.transport, Transport)


def _write(folder: Path, start: int, step: int, messages: int) -> None:
    with _connection(folder) as connection:
        channel = Channel(connection.transport)
        for number in range(start, messages, step):
            channel._put(QUEUE, {"number": number, "body": "x" * 20000})


def _writers_race_a_reader(folder: Path, messages: int) -> tuple[list, list]:
    """`messages` messages put by 3 writer processes (as web processes and beat do) while
    this process takes them as fast as it can; what it got and the errors it raised."""
    got: list = []
    errors: list = []
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_write, args=(folder, i, 3, messages))
               for i in range(3)]
    with _connection(folder) as connection:
        reader = Channel(connection.transport)
        for writer in writers:
            writer.start()
        while True:
            try:
                got.append(reader._get(QUEUE))
            except Empty:
                if not any(w.is_alive() for w in writers) and not os.listdir(folder / "queue"):
                    break
            except Exception as exc:  # reported by the test rather than ending the race
                errors.append(exc)
    for writer in writers:
        writer.join()
    return got, errors


def test_a_reader_racing_the_writers_gets_every_message_whole_and_once(tmp_path):
    got, errors = _writers_race_a_reader(tmp_path, messages=400)
    assert errors == []
    assert sorted(m["number"] for m in got) == list(range(400))
    assert os.listdir(tmp_path / "queue") == []


def test_kombu_s_own_reader_fails_on_a_message_its_writer_has_not_written_yet(tmp_path):
    """The moment the race hits, made deterministic (a race of real processes showed it too,
    but not reliably on a loaded machine): kombu's `_put` creates the file before it writes,
    and kombu's `_get` takes a file in that state and fails to decode it, the error that
    stopped a Celery worker for good. This module's writer never shows such a file (its
    files appear whole, by rename), and its reader would set one aside and go on."""
    with _connection(tmp_path) as connection:
        (tmp_path / "queue" / f"1_created-not-written.{QUEUE}.msg").write_bytes(b"")
        with pytest.raises(ValueError):
            kombu_filesystem.Channel(connection.transport)._get(QUEUE)


def test_a_message_appears_in_the_queue_only_once_written_whole(tmp_path, monkeypatch):
    seen: list[list[str]] = []
    real_replace = os.replace

    def replace(source, target):  # what a reader listing the queue sees just before
        seen.append([name for name in os.listdir(tmp_path / "queue")
                     if name.partition(".")[2] == f"{QUEUE}.msg"])
        real_replace(source, target)

    with _connection(tmp_path) as connection:
        channel = Channel(connection.transport)
        monkeypatch.setattr(os, "replace", replace)
        channel._put(QUEUE, {"number": 1})
        monkeypatch.undo()
        assert seen == [[]]
        assert channel._get(QUEUE) == {"number": 1}


def test_an_unreadable_message_is_set_aside_and_the_next_one_read(tmp_path, caplog):
    with _connection(tmp_path) as connection:
        channel = Channel(connection.transport)
        (tmp_path / "queue" / f"1_broken.{QUEUE}.msg").write_bytes(b"")
        channel._put(QUEUE, {"number": 7})
        assert channel._get(QUEUE) == {"number": 7}
        with pytest.raises(Empty):
            channel._get(QUEUE)
    assert (tmp_path / "processed" / f"1_broken.{QUEUE}.msg{UNREADABLE_SUFFIX}").exists()
    assert "unreadable" in caplog.text


def test_files_being_written_or_claimed_are_not_messages_of_the_queue(tmp_path):
    with _connection(tmp_path) as connection:
        channel = Channel(connection.transport)
        for prefix in (WRITING, CLAIMED):
            (tmp_path / "queue" / f"{prefix}1_x.{QUEUE}.msg").write_bytes(b"{}")
        assert channel._size(QUEUE) == 0
        with pytest.raises(Empty):
            channel._get(QUEUE)
