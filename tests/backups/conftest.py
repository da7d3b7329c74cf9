"""Backup tests: a course full of work made through the real services, a new empty database to
restore into, `manage.py` in a subprocess, and every row of a database read independently of
the code under test."""

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from api.keys import api_key_create
from courses.models import Course, Lab, Part
from events.webhooks import webhook_subscribe
from grading.deadlines import deadline_set, extension_set
from grading.models import Submission
from grading.overrides import grade_override_create
from grading.reviews import review_create
from grading.services import submission_create
from labs.models import LabRun
from labs.predictions import lab_run_execute_and_grade
from labs.services import lab_run_execute, lab_run_plot, lab_run_request
from tests.workers import ROOT
from tests.workers import test_database_url as source_database_url

FREE_ANSWER = ("Seq2seq squeezes the whole sentence into one fixed-size vector, so early words "
               "get overwritten; attention lets the decoder look back at every encoder state.")


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


def manage(*args: str, database_url: str, env: dict[str, str] | None = None,
           timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run `manage.py ARGS` in a new process on the database `database_url` (test settings,
    so this session's broker and queue)."""
    environ = {**os.environ, "DATABASE_URL": database_url,
               "DJANGO_SETTINGS_MODULE": "config.settings.test", **(env or {})}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environ,
                          capture_output=True, text=True, timeout=timeout, check=False)


def run_ok(*args: str, database_url: str, env: dict[str, str] | None = None) -> str:
    """`manage(...)`'s standard output; fails the test with its output if it did not succeed."""
    done = manage(*args, database_url=database_url, env=env)
    assert done.returncode == 0, f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _postgres_params(name: str | None = None) -> dict[str, Any]:
    params = connection.settings_dict
    return {"host": params.get("HOST") or "127.0.0.1", "port": params.get("PORT") or 5432,
            "user": params.get("USER") or None, "password": params.get("PASSWORD") or None,
            "dbname": name or params["NAME"]}


def postgres_url(name: str) -> str:
    """A DATABASE_URL of the database `name` on the test database's server."""
    return source_database_url().rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def empty_database(tmp_path: Path) -> Iterator[str]:
    """The DATABASE_URL of a new, empty database on the test's engine: on PostgreSQL a
    database created from template0 (dropped afterwards), on SQLite a file not yet written."""
    if not is_postgres():
        yield f"sqlite:///{tmp_path / 'restored' / 'db.sqlite3'}"
        return
    name = f"gs_backups_restore_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(**_postgres_params("postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield postgres_url(name)
    finally:
        with psycopg.connect(**_postgres_params("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def database_rows(url: str) -> dict[str, list[str]]:
    """Every row of every table of the database at `url` (and, on PostgreSQL, every
    sequence's position), as sorted text, read with the plain driver."""
    if url.startswith("sqlite:///"):
        with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as db:
            tables = [name for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            return {table: sorted(repr(row) for row in db.execute(
                f'SELECT * FROM "{table}"'))  # noqa: S608 (names read from the catalog)
                for table in tables}
    with psycopg.connect(_dsn(url)) as db:
        tables = [name for (name,) in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
            "AND table_type = 'BASE TABLE' ORDER BY table_name")]
        rows = {table: sorted(repr(row) for row in db.execute(
            f'SELECT * FROM "{table}"'))  # noqa: S608 (names read from the catalog)
            for table in tables}
        for name, last in db.execute("SELECT sequencename, last_value FROM pg_sequences "
                                     "WHERE schemaname = 'public'").fetchall():
            rows[f"sequence {name}"] = [repr(last)]
        return rows


def _dsn(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


@dataclass
class CourseWork:
    """What `course_with_work` made, for the checks after a restore."""

    course: Course
    bound: Part
    staff_run: LabRun
    plot_sha256: str
    api_token: str


@pytest.fixture
def course_with_work(transactional_db, settings, course, alice, bob, irene, tara) -> CourseWork:
    """A course run with graded, invalid and reviewed answers, a prediction graded by its lab
    run, a staff lab run with its result and plot, an override, a deadline and an extension,
    webhook subscriptions with their outbox deliveries and an API key: all made through the
    services and committed (so other processes see them)."""
    import hashlib

    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    webhook_subscribe(course=course, url="http://127.0.0.1:9/hooks/grader",
                      events=["submission.graded", "lab_run.finished"])
    bound = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound",
                                                        key="bound")
    free = Part.objects.get(exercise__slug="extend-bottleneck")
    shape = Part.objects.get(exercise__slug="predict-alignment-shape", key="shape")

    deadline_set(course=course, exercise_id=bound.exercise_id,
                 due_at=timezone.now() + timedelta(days=7), by=irene)
    extension_set(course=course, exercise_id=bound.exercise_id, student_id=alice.pk,
                  due_at=timezone.now() + timedelta(days=14), reason="Ill for a week", by=irene)
    submission_create(student=alice, course=course, part=bound, raw_answer="34")
    submission_create(student=alice, course=course, part=bound, raw_answer="0.1.2")
    submission_create(student=bob, course=course, part=bound, raw_answer="1")
    answer = submission_create(student=alice, course=course, part=free, raw_answer=FREE_ANSWER)
    review_create(course=course, submission_id=answer.pk, reviewer=tara, points=4,
                  comment="Good on the bottleneck; say what grows instead.")
    grade_override_create(course=course, student_id=bob.pk, part_id=bound.pk, points=1,
                          reason="Answered correctly in the lab session", by=irene)

    prediction = submission_create(student=alice, course=course, part=shape,
                                   raw_answer="diagonal-with-crossing")
    lab_run_execute_and_grade(run_id=LabRun.objects.get(submission=prediction).pk)
    staff_run = lab_run_request(lab=Lab.objects.get(slug="vanishing-gradient"), course=course,
                                requester=irene, params={}, seed=7)
    assert lab_run_execute(run_id=staff_run.pk) == "succeeded"
    staff_run.refresh_from_db()
    issued = api_key_create(course=course, name="Canvas sync", role="lms", created_by=irene)

    assert Submission.objects.get(pk=prediction.pk).outcome == Submission.Outcome.CORRECT
    return CourseWork(course=course, bound=bound, staff_run=staff_run,
                      plot_sha256=hashlib.sha256(lab_run_plot(run=staff_run).encode()).hexdigest(),
                      api_token=issued.token)


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip().startswith("{")]
