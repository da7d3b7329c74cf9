"""A backup taken while the service writes holds one moment of the database, and its manifest
describes exactly that moment: a write committed while the copy is being made is in neither."""

import threading
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.db import connection, connections

from backups import postgres, services
from courses.models import Part
from grading.models import Submission
from grading.services import submission_create


def _in_another_connection(action: Callable[[], Any]) -> Any:
    """Run `action` in a thread, so on its own database connection, as another process of the
    service would; return its result or raise its error."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = action()
        except BaseException as exc:
            outcome["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def test_a_write_committed_while_the_backup_copies_is_in_neither_the_copy_nor_its_manifest(
    transactional_db, course, alice, tmp_path: Path, monkeypatch
) -> None:
    bound = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    submission_create(student=alice, course=course, part=bound, raw_answer="34")
    written: list[int] = []

    def student_answers() -> None:
        answer = _in_another_connection(lambda: submission_create(
            student=alice, course=course, part=bound, raw_answer="0.1.2"))
        written.append(answer.pk)

    if connection.vendor == "postgresql":
        real_run = postgres.pg_run

        def pg_dump_while_a_student_answers(tool: postgres.PgTool, *args: Any, **kwargs: Any) -> None:
            if tool.name == "pg_dump" and not written:
                student_answers()  # committed after the snapshot was taken, before pg_dump reads
            real_run(tool, *args, **kwargs)

        monkeypatch.setattr(postgres, "pg_run", pg_dump_while_a_student_answers)
    else:
        real_backup = services.sqlite_backup

        def copy_then_a_student_answers(**kwargs: Any) -> None:
            real_backup(**kwargs)
            student_answers()  # committed after the copy, before the manifest is read

        monkeypatch.setattr(services, "sqlite_backup", copy_then_a_student_answers)

    call_command("backup_database", output=str(tmp_path / "backup"), stdout=StringIO())
    assert written and Submission.objects.filter(pk=written[0]).exists()

    out = StringIO()
    call_command("restore_database", input=str(tmp_path / "backup"), confirm=True, replace=True,
                 stdout=out, stderr=StringIO())
    assert "Verified: all" in out.getvalue()
    assert not Submission.objects.filter(pk=written[0]).exists()
    assert Submission.objects.filter(student=alice).count() == 1
