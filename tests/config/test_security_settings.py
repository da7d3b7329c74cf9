"""Production settings pass Django's deployment checks (`check --deploy`) with nothing
silenced but HSTS preload (off by default, on request), and read HSTS and the HTTPS
redirect from the environment."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _production(code: str, **extra: str) -> subprocess.CompletedProcess[str]:
    unset = ("DEBUG", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")  # the browser tests set it
    environment = {k: v for k, v in os.environ.items() if k not in unset}
    environment.update(SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="grader.uni.example",
                       DJANGO_SETTINGS_MODULE="config.settings.production", **extra)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120, check=False)


def test_check_deploy_is_clean_under_production_settings():
    result = _production("import sys; from django.core.management import execute_from_command_line;"
                         " execute_from_command_line(['manage.py', 'check', '--deploy',"
                         " '--fail-level', 'WARNING'])")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (1 silenced)." in result.stdout


def test_check_deploy_is_clean_with_preload_on_and_nothing_silenced():
    result = _production("from django.core.management import execute_from_command_line;"
                         " execute_from_command_line(['manage.py', 'check', '--deploy',"
                         " '--fail-level', 'WARNING'])", SECURE_HSTS_PRELOAD="true")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_hsts_and_the_https_redirect_come_from_the_environment():
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD,"
            " s.SECURE_SSL_REDIRECT, s.SECURE_REDIRECT_EXEMPT)")
    defaults = _production(code)
    chosen = _production(code, SECURE_HSTS_SECONDS="600", SECURE_HSTS_INCLUDE_SUBDOMAINS="false",
                         SECURE_SSL_REDIRECT="false")

    assert defaults.stdout.split(" ", 4) == ["31536000", "True", "False", "True",
                                             "['^health/', '^metrics$']\n"], defaults.stderr
    assert chosen.stdout.split()[:4] == ["600", "False", "False", "False"], chosen.stderr
