"""Start-up cost (issue 25, item 14): Django starts without the heavy libraries, and bin/run's
set-up steps run in one process."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from courses.models import Course
from grading.models import Submission

ROOT = Path(__file__).resolve().parents[2]


def test_django_setup_imports_neither_sympy_nor_matplotlib() -> None:
    # Every management command pays for what AppConfig.ready() imports; sympy and matplotlib
    # cost seconds each and only grading and plotting need them.
    code = ("import sys, django; django.setup(); "
            "print(sorted(m for m in ('sympy', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"DJANGO_SETTINGS_MODULE": "config.settings.test",
                              "PATH": "/usr/bin:/bin"}, check=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_bin_run_prepares_in_one_manage_py_process() -> None:
    script = (ROOT / "bin" / "run").read_text()
    commands = [line for line in script.splitlines() if line.startswith("python manage.py")]
    assert commands == ["python manage.py prepare_local --students 3",
                        'python manage.py runserver "$HOST:$PORT" --noreload &']


@pytest.mark.django_db(transaction=True)
def test_prepare_local_migrates_syncs_and_seeds_once(tmp_path, settings) -> None:
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("prepare_local", students=2, classmates=3)
    assert (tmp_path / "static" / "site.css").exists()
    course = Course.objects.get()
    assert course.enrollments.filter(role="student").count() == 2 + 3
    assert Submission.objects.filter(course=course, student__username="student3").exists()
    call_command("prepare_local", students=2, classmates=3)  # a second start seeds nothing
    assert Course.objects.count() == 1
