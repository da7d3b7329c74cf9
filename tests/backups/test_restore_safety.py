"""Restore refuses what it should before changing anything (no --confirm, a database or file
folder that is not empty, a damaged or foreign backup), --replace restores over a database,
a restore that does not match its manifest fails, and a backup never leaves half a folder."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()


@pytest.fixture
def people(transactional_db) -> None:
    for name in ("zoe", "yves"):
        User.objects.create_user(username=name, email=f"{name}@example.org")


@pytest.fixture
def backup(people, tmp_path: Path) -> Path:
    folder = tmp_path / "backup"
    call_command("backup_database", output=str(folder), stdout=StringIO())
    return folder


def _restore(folder: Path, **options: object) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("restore_database", input=str(folder), stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def _usernames() -> set[str]:
    return set(User.objects.values_list("username", flat=True))


def test_restore_refuses_without_confirm_and_leaves_the_database_as_it_was(backup: Path) -> None:
    User.objects.filter(username="zoe").delete()
    with pytest.raises(CommandError, match="Not restoring without --confirm"):
        _restore(backup)
    assert _usernames() == {"yves"}


def test_restore_refuses_a_database_that_is_not_empty_and_says_how_to_proceed(
    backup: Path
) -> None:
    User.objects.create_user(username="xavier")
    with pytest.raises(CommandError) as refused:
        _restore(backup, confirm=True)
    message = str(refused.value)
    assert "is not empty" in message and "--replace" in message
    assert "new, empty database" in message
    assert _usernames() == {"zoe", "yves", "xavier"}


def test_restore_with_replace_puts_back_the_backup_and_verifies_every_table(backup: Path) -> None:
    User.objects.filter(username="zoe").delete()
    User.objects.create_user(username="xavier")
    out, err = _restore(backup, confirm=True, replace=True)
    assert _usernames() == {"zoe", "yves"}
    assert "Verified: all" in out and "match the backup's manifest" in out
    assert not err.strip() or "DIFFERS" not in err


def test_a_damaged_backup_is_refused_before_anything_changes(backup: Path) -> None:
    manifest = json.loads((backup / "manifest.json").read_text())
    database_file = backup / manifest["database_file"]
    data = bytearray(database_file.read_bytes())
    data[len(data) // 2] ^= 0xFF
    database_file.write_bytes(bytes(data))
    User.objects.filter(username="zoe").delete()
    with pytest.raises(CommandError, match="missing or damaged"):
        _restore(backup, confirm=True, replace=True)
    assert _usernames() == {"yves"}


def test_a_backup_of_the_other_engine_is_refused(backup: Path) -> None:
    manifest = json.loads((backup / "manifest.json").read_text())
    manifest["engine"] = "sqlite" if connection.vendor == "postgresql" else "postgresql"
    (backup / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CommandError, match="restores into the same engine only"):
        _restore(backup, confirm=True, replace=True)


def test_a_folder_without_a_manifest_is_not_a_backup(backup: Path) -> None:
    (backup / "manifest.json").unlink()
    with pytest.raises(CommandError, match="not a complete backup"):
        _restore(backup, confirm=True)


def test_a_restore_that_differs_from_its_manifest_is_reported_and_fails(backup: Path) -> None:
    manifest = json.loads((backup / "manifest.json").read_text())
    manifest["tables"]["auth_user"]["rows"] += 1
    (backup / "manifest.json").write_text(json.dumps(manifest))
    User.objects.create_user(username="xavier")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match=r"differs from the backup in 1 table\(s\)") as failed:
        call_command("restore_database", input=str(backup), confirm=True, replace=True,
                     stdout=out, stderr=err)
    assert "auth_user: 2 rows restored, 3 backed up" in str(failed.value)
    assert "was left as it was" in str(failed.value)
    assert "Verified" not in out.getvalue()
    assert _usernames() == {"zoe", "yves", "xavier"}  # rehearsed in a scratch copy only


def _reseal(backup: Path) -> None:
    """Write the database file's current SHA-256 into the manifest, as a backup damaged
    before its checksum was taken (a full disk, a copy cut short) would have it."""
    from backups.manifest import file_sha256

    manifest = json.loads((backup / "manifest.json").read_text())
    manifest["database_sha256"] = file_sha256(backup / manifest["database_file"])
    (backup / "manifest.json").write_text(json.dumps(manifest))


def test_replace_with_a_truncated_backup_whose_checksum_matches_leaves_the_target_intact(
        backup: Path) -> None:
    manifest = json.loads((backup / "manifest.json").read_text())
    database_file = backup / manifest["database_file"]
    if connection.vendor == "sqlite":
        # A SQLite file cut short fails its integrity check before anything is written; a
        # file that is whole but lost rows is the kind that restores "successfully".
        import sqlite3

        with sqlite3.connect(database_file) as damaged:
            damaged.execute("DELETE FROM auth_user WHERE username = 'zoe'")
    else:
        data = database_file.read_bytes()
        database_file.write_bytes(data[:-64])  # its table of contents whole, data cut short
    _reseal(backup)
    User.objects.create_user(username="xavier")
    with pytest.raises(CommandError, match="was left as it was"):
        _restore(backup, confirm=True, replace=True)
    assert _usernames() == {"zoe", "yves", "xavier"}
    assert len(connection.introspection.table_names()) > 20  # nothing was dropped
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_database WHERE datname LIKE %s",
                           ["%_restore_check_%"])
            assert cursor.fetchone()[0] == 0  # the scratch database is gone


def test_backup_refuses_a_folder_that_exists(people, tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup_database", output=str(tmp_path / "taken"))


def test_a_failed_backup_leaves_no_folder_behind(people, tmp_path: Path, monkeypatch) -> None:
    def disk_full(**kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("backups.services.files_backup", disk_full)
    with pytest.raises(CommandError, match="No space left on device"):
        call_command("backup_database", output=str(tmp_path / "backup"))
    assert list(tmp_path.iterdir()) == []


def test_files_already_in_the_media_folder_are_refused_before_the_database_is_touched(
    people, tmp_path: Path, settings
) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "a.txt").write_text("from the backup")
    call_command("backup_database", output=str(tmp_path / "backup"), stdout=StringIO())
    (tmp_path / "media" / "b.txt").write_text("written since")
    User.objects.filter(username="zoe").delete()
    with pytest.raises(CommandError, match=r"already holds 2 file\(s\)"):
        _restore(tmp_path / "backup", confirm=True, replace=False)
    assert _usernames() == {"yves"}
    (tmp_path / "media" / "a.txt").write_text("changed since")
    out, _ = _restore(tmp_path / "backup", confirm=True, replace=True)
    assert (tmp_path / "media" / "a.txt").read_text() == "from the backup"
    assert "files restored: 1" in out and _usernames() == {"zoe", "yves"}


def test_a_backup_with_files_needs_their_folder_configured(people, tmp_path: Path,
                                                            settings) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "a.txt").write_text("from the backup")
    call_command("backup_database", output=str(tmp_path / "backup"), stdout=StringIO())
    settings.MEDIA_ROOT = ""
    with pytest.raises(CommandError, match="set MEDIA_ROOT"):
        _restore(tmp_path / "backup", confirm=True, replace=True)
