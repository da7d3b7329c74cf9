"""Configuration comes from the environment; production refuses to start without a secret."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _import_settings(module: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("SECRET_KEY", "DEBUG", "DATABASE_URL")}
    environment.update(env, DJANGO_SETTINGS_MODULE=module)
    code = "import django; django.setup(); from django.conf import settings; " \
           "print(settings.DATABASES['default']['ENGINE']); print(settings.CELERY_BROKER_URL)"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=60, check=False)


def test_production_without_secret_key_refuses_to_start():
    result = _import_settings("config.settings.production")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_reads_database_and_broker_from_environment():
    result = _import_settings(
        "config.settings.production", SECRET_KEY="x" * 50,
        DATABASE_URL="postgres://u@db.example:5432/grader",
        CELERY_BROKER_URL="redis://cache.example:6379/0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.postgresql", "redis://cache.example:6379/0"]


def test_local_defaults_are_embedded_sqlite_and_filesystem_broker():
    result = _import_settings("config.settings.local", CELERY_BROKER_URL="filesystem://")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "filesystem://"]
