"""A copy of module 5 with the quiz of tests/exams/content beside it (two pools)."""

import shutil
from pathlib import Path

import pytest
from django.conf import settings

QUIZ_CONTENT = Path(__file__).resolve().parent / "content"


def module_with_quiz(target: Path) -> Path:
    """Copy module 5 and the test quiz's assessments/ folder into `target`/module-05."""
    folder = target / "module-05"
    shutil.copytree(Path(settings.CONTENT_ROOT) / "module-05", folder)
    shutil.copytree(QUIZ_CONTENT / "assessments", folder / "assessments")
    return folder


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return module_with_quiz(tmp_path)
