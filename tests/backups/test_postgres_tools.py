"""pg_dump and pg_restore: the connection from settings with the password in PGPASSWORD only,
versions checked against the server and the archive, clear errors when a tool is missing or
fails, and the password in no command line, error or log line."""

import logging
import os
import stat
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from backups.errors import BackupError
from backups.postgres import (
    PgTool,
    dump_tool_check,
    pg_connection,
    pg_run,
    pg_tool,
    pg_version_major,
    restore_tools_check,
)
from backups.sqlite import sqlite_path

SECRET = "s3cret-Pa55"
PARAMS = {"NAME": "grader", "USER": "grader", "PASSWORD": SECRET, "HOST": "db.internal",
          "PORT": 5433, "OPTIONS": {"sslmode": "verify-full", "pool": True}}


def _tool(major: int, name: str = "pg_dump") -> PgTool:
    return PgTool(name=name, path=f"/usr/lib/postgresql/{major}/bin/{name}",
                  version=f"{name} (PostgreSQL) {major}.3", major=major)


def test_the_password_reaches_the_tools_through_pgpassword_only() -> None:
    args, env = pg_connection(PARAMS, environ={"PATH": "/usr/bin"})
    assert args == ["--no-password", "--host=db.internal", "--port=5433", "--username=grader",
                    "--dbname=grader"]
    assert not any(SECRET in arg for arg in args)
    assert env["PGPASSWORD"] == SECRET
    assert env["PGSSLMODE"] == "verify-full" and env["PATH"] == "/usr/bin"


def test_without_a_password_in_settings_the_operators_own_pgpassfile_is_left_alone() -> None:
    _, env = pg_connection({"NAME": "grader"}, environ={"PGPASSFILE": "/etc/grader/pgpass"})
    assert "PGPASSWORD" not in env and env["PGPASSFILE"] == "/etc/grader/pgpass"


@pytest.mark.parametrize(("banner", "major"), [
    ("pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)", 15),
    ("pg_restore (PostgreSQL) 16.4", 16),
    ("pg_dump (PostgreSQL) 17beta1", 17),
])
def test_the_major_version_is_read_from_the_tools_banner(banner: str, major: int) -> None:
    assert pg_version_major(banner) == major


def test_a_pg_dump_older_than_the_server_is_refused_saying_what_to_install() -> None:
    dump_tool_check(tool=_tool(16), server_major=15)
    dump_tool_check(tool=_tool(15), server_major=15)
    with pytest.raises(BackupError, match="Install postgresql-client-16"):
        dump_tool_check(tool=_tool(15), server_major=16)


def test_a_restore_needs_a_pg_restore_as_new_as_the_dump_and_a_server_as_new_as_the_source() -> None:
    restore_tools_check(tool=_tool(16, "pg_restore"), dump_major=15, source_major=15,
                        target_major=16)
    with pytest.raises(BackupError, match="pg_restore must be at least that version"):
        restore_tools_check(tool=_tool(15, "pg_restore"), dump_major=16, source_major=16,
                            target_major=16)
    with pytest.raises(BackupError, match="same or a newer major version only"):
        restore_tools_check(tool=_tool(16, "pg_restore"), dump_major=16, source_major=16,
                            target_major=15)


def test_a_missing_pg_dump_says_how_to_install_it(tmp_path: Path, settings) -> None:
    settings.BACKUP_PG_BIN_DIR = str(tmp_path)
    with pytest.raises(BackupError, match="pg_dump was not found in BACKUP_PG_BIN_DIR") as missing:
        pg_tool("pg_dump")
    assert "apt-get install postgresql-client" in str(missing.value)


def _failing_tool(folder: Path, name: str) -> Path:
    """A stand-in for `name` that reports version 15, records its arguments and environment
    and fails as a rejected password would."""
    script = folder / name
    script.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "--version" ]; then echo "' + name + ' (PostgreSQL) 15.6"; exit 0; fi\n'
        f'printf "%s\\n" "$@" > "{folder}/argv"\n'
        f'printf "%s" "$PGPASSWORD" > "{folder}/pgpassword"\n'
        'echo "' + name + ': error: password authentication failed (\'$PGPASSWORD\')" >&2\n'
        "exit 1\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_a_failing_tool_reports_its_error_with_the_password_masked(
    tmp_path: Path, settings, caplog
) -> None:
    settings.BACKUP_PG_BIN_DIR = str(tmp_path)
    _failing_tool(tmp_path, "pg_dump")
    tool = pg_tool("pg_dump")
    assert (tool.major, tool.path) == (15, str(tmp_path / "pg_dump"))
    with caplog.at_level(logging.DEBUG), pytest.raises(BackupError) as failed:
        pg_run(tool, ["--format=custom", "--file=/nowhere"], params=PARAMS)
    message = str(failed.value)
    assert message.startswith("pg_dump failed (exit 1): pg_dump: error: password authentication")
    assert "********" in message and SECRET not in message
    assert (tmp_path / "pgpassword").read_text() == SECRET  # it did get the password ...
    assert SECRET not in (tmp_path / "argv").read_text()  # ... but not on its command line
    assert "--host=db.internal" in (tmp_path / "argv").read_text()
    assert caplog.records and SECRET not in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_failing_pg_dump_fails_the_backup_and_leaves_no_folder(tmp_path: Path, settings) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump backs up PostgreSQL only (SQLite: the online backup API)")
    tools = tmp_path / "bin"
    tools.mkdir()
    _failing_tool(tools, "pg_dump")
    settings.BACKUP_PG_BIN_DIR = str(tools)
    backups = tmp_path / "backups"
    backups.mkdir()
    with pytest.raises(CommandError, match=r"pg_dump failed \(exit 1\)"):
        call_command("backup_database", output=str(backups / "nightly"), stdout=StringIO())
    assert list(backups.iterdir()) == []


@pytest.mark.django_db(transaction=True)
def test_the_installed_client_tools_can_back_up_and_restore_this_server() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL client tools matter on PostgreSQL only")
    major = int(connection.pg_version) // 10000  # type: ignore[attr-defined]
    dump, restore = pg_tool("pg_dump"), pg_tool("pg_restore")
    dump_tool_check(tool=dump, server_major=major)
    restore_tools_check(tool=restore, dump_major=dump.major, source_major=major,
                        target_major=major)


def test_an_in_memory_sqlite_database_cannot_be_backed_up() -> None:
    with pytest.raises(BackupError, match="in memory"):
        sqlite_path(":memory:")
    assert sqlite_path("var/db.sqlite3") == Path(os.getcwd(), "var/db.sqlite3").resolve()
