"""bin/run's settings (issue 37): DEBUG off unless asked for, so a student who opens another
student's lab run meets the site's own 404 page, not Django's technical one (which lists the
project's routes)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from courses.models import Lab
from labs.services import lab_run_request

ROOT = Path(__file__).resolve().parents[2]


def _local_debug(**env: str) -> bool:
    """settings.DEBUG under config.settings.local, as bin/run starts it (no DEBUG set)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    environment.update(env, DJANGO_SETTINGS_MODULE="config.settings.local")
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                         capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.strip() == "True"


def test_bin_run_leaves_debug_off_unless_asked():
    assert _local_debug() is False
    assert _local_debug(DEBUG="true") is True


@pytest.mark.django_db
def test_another_student_s_lab_run_is_the_site_s_404_page_under_bin_run_s_settings(
        client, settings, course, alice, bob):
    settings.DEBUG = _local_debug()
    run = lab_run_request(lab=Lab.objects.get(slug="vanishing-gradient"), course=course,
                          requester=bob, params={}, seed=1)
    client.force_login(alice)
    response = client.get(reverse("lab-run", args=[course.slug, run.uuid]))
    page = response.content.decode()
    assert response.status_code == 404
    assert 'class="site-header"' in page and "<h1>Page not found</h1>" in page
    assert "URLconf" not in page and "DEBUG = True" not in page
