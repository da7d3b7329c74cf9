"""The Dockerfile and .dockerignore: a multi-stage build on a slim Python base installing the
locked dependencies, a non-root user, the entrypoint, a health check, OCI labels, and no
secret, environment file, database or test in the build context."""

import re

from tests.workers import ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text()


def instructions(name: str) -> list[str]:
    joined = DOCKERFILE.replace("\\\n", " ")
    return [line.split(None, 1)[1] for line in joined.splitlines()
            if line.split(None, 1)[:1] == [name]]


def test_the_build_has_two_stages_on_a_slim_python_base_and_installs_the_lock():
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.1[1-9]-slim", DOCKERFILE, re.M)
    assert instructions("FROM") == ["${PYTHON_IMAGE} AS build", "${PYTHON_IMAGE}"]
    assert "COPY requirements.lock /tmp/requirements.lock" in DOCKERFILE
    assert "pip install -r /tmp/requirements.lock" in DOCKERFILE
    # The translations are compiled by the project's own pure-Python compiler (no gettext).
    assert "manage.py collectstatic" in DOCKERFILE and "-m core.message_catalogs" in DOCKERFILE


def test_the_image_runs_the_entrypoint_as_a_non_root_user_with_a_health_check():
    [user] = instructions("USER")
    assert not user.startswith(("0", "root"))
    assert instructions("ENTRYPOINT") == ['["/app/deploy/entrypoint.sh"]']
    assert instructions("CMD") == ['["web"]']
    [check] = instructions("HEALTHCHECK")
    assert check.endswith('CMD ["/app/deploy/entrypoint.sh", "healthcheck"]')
    labels = " ".join(instructions("LABEL"))
    for label in ("title", "description", "version", "revision"):
        assert f"org.opencontainers.image.{label}=" in labels


def test_no_secret_is_baked_in_and_the_context_leaves_out_local_files():
    for line in instructions("ENV") + instructions("ARG"):
        assert not re.search(r"SECRET|PASSWORD|TOKEN|DATABASE_URL", line), line
    # The one key, for collectstatic, lives in that RUN step only.
    assert DOCKERFILE.count("SECRET_KEY=") == 1
    assert all("SECRET_KEY=image-build-only-not-a-secret" in line
               for line in instructions("RUN") if "SECRET_KEY=" in line)
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".env", ".venv", "var", "tests", "*.sqlite3"):
        assert entry in ignored
