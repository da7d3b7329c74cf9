"""The sync_content and seed_demo management commands."""

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from courses.models import Course

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_sync_content_twice_reports_no_change_the_second_time():
    first = _run("sync_content")
    second = _run("sync_content")
    # Module 5 (31 items) and Module 6 (21: module, 4 sections, 3 figures, 1 lab, 4 exercises,
    # 8 parts)
    assert first.splitlines()[-1].startswith("52 changed")
    assert second.strip() == "0 changed, 52 unchanged (0 created, 0 updated, 0 archived, 0 restored)"


def test_sync_content_refuses_a_corrupted_file_with_file_and_line(tmp_path: Path):
    root = tmp_path / "module-05"
    shutil.copytree(Path(settings.CONTENT_ROOT) / "module-05", root)
    bad = root / "exercises" / "apply-3-context-value.toml"
    bad.write_text(bad.read_text(encoding="utf-8") + "\n[[parts]\n", encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was applied"):
        call_command("sync_content", str(root), stdout=StringIO(), stderr=err)
    assert "module-05/exercises/apply-3-context-value.toml:" in err.getvalue()
    assert Course.objects.count() == 0
