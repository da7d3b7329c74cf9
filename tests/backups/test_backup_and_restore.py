"""A course full of work backed up by `manage.py backup_database` while the service's database
is live, restored by `manage.py restore_database` into a new, empty database, found identical
row for row, and served by the restored service as before (real processes throughout)."""

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model

from backups.manifest import Manifest
from grading.services import submission_create
from tests.backups.conftest import CourseWork, database_rows, json_lines, run_ok
from tests.workers import ROOT
from tests.workers import test_database_url as source_database_url

# Tables the course's work must have filled, so "every row came back" means something.
FILLED = ["grading_submission", "grading_review", "grading_gradeoverride", "grading_deadline",
          "grading_deadlineextension", "labs_labrun", "events_webhooksubscription",
          "events_webhookdelivery", "api_apikey", "courses_enrollment", "courses_part",
          "auth_user", "django_migrations"]


def _backup_and_restore(tmp_path: Path, target_url: str) -> tuple[Manifest, str]:
    """Back up the test database with a file under MEDIA_ROOT; restore into `target_url` with
    an empty MEDIA_ROOT of its own. Returns the manifest and the restore's output."""
    (tmp_path / "media" / "uploads").mkdir(parents=True)
    (tmp_path / "media" / "uploads" / "notes.txt").write_text("kept beside the database\n")
    backup = tmp_path / "backup-2025-01-31"
    run_ok("backup_database", "--output", str(backup), database_url=source_database_url(),
           env={"MEDIA_ROOT": str(tmp_path / "media")})
    manifest = Manifest.from_json((backup / "manifest.json").read_text())
    output = run_ok("restore_database", "--input", str(backup), "--confirm",
                    database_url=target_url, env={"MEDIA_ROOT": str(tmp_path / "restored-media")})
    return manifest, output


def test_a_course_with_its_work_restores_into_an_empty_database_with_every_row_identical(
    course_with_work: CourseWork, empty_database: str, tmp_path: Path
) -> None:
    manifest, output = _backup_and_restore(tmp_path, empty_database)

    expected = database_rows(source_database_url())
    restored = database_rows(empty_database)
    assert restored.keys() == expected.keys()
    for table in expected:
        assert restored[table] == expected[table], f"{table} differs after the restore"
    for table in FILLED:
        assert manifest.tables[table].rows == len(expected[table]) > 0, table
    assert set(manifest.tables) <= set(expected)
    assert manifest.engine == ("postgresql" if "postgres" in empty_database else "sqlite")
    assert manifest.migrations["grading"] and manifest.migrations["labs"]
    assert f"Verified: all {len(manifest.tables)} tables and {manifest.total_rows} rows match" in output
    assert "the restored database is at this code's state" in output
    restored_file = tmp_path / "restored-media" / "uploads" / "notes.txt"
    assert restored_file.read_text() == "kept beside the database\n"
    assert "files restored: 1" in output


def test_the_restored_service_grades_syncs_content_and_plots_as_before(
    course_with_work: CourseWork, empty_database: str, tmp_path: Path
) -> None:
    _backup_and_restore(tmp_path, empty_database)

    answers = "\n".join(json.dumps(line) for line in [
        {"id": "right", "exercise": "apply-1-gradient-bound", "part": "bound", "answer": "0.85^40"},
        {"id": "linear", "exercise": "apply-1-gradient-bound", "part": "bound", "answer": "34"},
    ]) + "\n"
    (tmp_path / "answers.jsonl").write_text(answers)
    checked = {line["id"]: line for line in json_lines(run_ok(
        "check_answers", str(tmp_path / "answers.jsonl"), database_url=empty_database))}
    assert (checked["right"]["outcome"], checked["right"]["score"]) == ("correct", 1.0)
    assert checked["linear"]["misconception"] == "linear-decay"

    synced = run_ok("sync_content", "--check", database_url=empty_database)
    assert "0 would change" in synced

    ask = {"course": "rnn-autumn", "student": "alice", "exercise": "apply-1-gradient-bound",
           "part": "bound", "answer": "0.85^40", "run_uuid": str(course_with_work.staff_run.uuid),
           "token": course_with_work.api_token}
    probe = manage_probe(ask, database_url=empty_database)
    # The same answer by the same student, graded by the live service, for comparison.
    alice = get_user_model().objects.get(username="alice")
    live = submission_create(student=alice, course=course_with_work.course,
                             part=course_with_work.bound, raw_answer="0.85^40")
    assert probe["outcome"] == live.outcome
    assert probe["score"] == live.score and probe["feedback"] == live.feedback
    assert probe["attempt_counted"] and live.counts_as_attempt
    assert probe["plot_sha256"] == course_with_work.plot_sha256
    assert probe["api_key_course"] == "rnn-autumn"


def manage_probe(ask: dict[str, str], *, database_url: str) -> dict[str, object]:
    """Grade through the service code in a new process on `database_url` (tests/backups/
    restored_probe.py) and return what it printed."""
    import os
    import subprocess

    env = {**os.environ, "DATABASE_URL": database_url,
           "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    done = subprocess.run([sys.executable, "-m", "tests.backups.restored_probe", json.dumps(ask)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr
    return dict(json_lines(done.stdout)[-1])
