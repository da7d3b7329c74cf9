"""A cluster on one machine: web processes (gunicorn) and Celery workers started through the
image's entrypoint on ports of their own, against the test's PostgreSQL and Redis, behind
Debian's nginx running the Compose deployment's own configuration
(deploy/compose/nginx/grader.conf) with the web upstream's servers replaced by these
processes (round-robin, nginx's default). Each response names the server that answered
(X-Upstream, added around the shipped file)."""

import os
import shutil
import signal
import subprocess
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

from tests.deploy.processes import entrypoint_start, process_stop
from tests.ops.conftest import free_port
from tests.workers import ROOT, test_database_url, wait_for

NGINX_CONF = ROOT / "deploy" / "compose" / "nginx" / "grader.conf"


def nginx_binary() -> str:
    """Debian's nginx (.ci/run installs it): skipped locally when missing, a failure in CI."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("nginx is not installed (CI must provide it: .ci/run installs Debian's)")
    pytest.skip("nginx is not installed (apt-get install nginx)")


def cluster_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of every process of the cluster: the test's database, broker and
    queue (config.settings.test), Redis as the shared cache."""
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": test_database_url(), "CACHE_URL": settings.CELERY_BROKER_URL,
            "GRADER_STATE_FILE": str(tmp_path / "process"), "HEALTH_THROTTLE_RATE": "100000/min",
            "LOG_LEVEL": "INFO", **extra}


@dataclass
class Process:
    name: str
    process: subprocess.Popen[bytes]
    log: Path
    port: int = 0
    metrics: Path | None = None

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def kill(self) -> None:
        """SIGKILL the whole process group, as a crashed host would."""
        process_stop(self.process, signal.SIGKILL)


@dataclass
class Cluster:
    webs: list[Process]
    workers: list[Process] = field(default_factory=list)
    beats: list[Process] = field(default_factory=list)
    https_port: int = 0
    http_port: int = 0
    folder: Path = Path()

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def upstream_of(self, port: int) -> str:
        return f"127.0.0.1:{port}"


def _certificate(folder: Path) -> None:
    folder.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",  # noqa: S607
                    "-subj", "/CN=localhost", "-keyout", str(folder / "privkey.pem"),
                    "-out", str(folder / "fullchain.pem")], check=True, capture_output=True)


def nginx_config(folder: Path, web_ports: list[int], *, http_port: int, https_port: int) -> Path:
    """The shipped configuration with these processes' addresses, ports and folders."""
    shipped = NGINX_CONF.read_text()
    replacements = {
        "    server web:8000;\n": "".join(f"    server 127.0.0.1:{port};\n" for port in web_ports),
        "    server asgi:8001;\n": f"    server 127.0.0.1:{free_port()};\n",
        "    listen 80;\n": f"    listen 127.0.0.1:{http_port};\n",
        "    listen 443 ssl http2;\n": f"    listen 127.0.0.1:{https_port} ssl http2;\n",
        "/etc/nginx/certs/": f"{folder}/certs/",
        "alias /srv/static/;": f"alias {folder}/static/;",
    }
    for old, new in replacements.items():
        assert old in shipped, f"{NGINX_CONF} no longer has {old!r}"
        shipped = shipped.replace(old, new)
    temp = folder / "temp"
    temp.mkdir(exist_ok=True)
    config = folder / "nginx.conf"
    config.write_text(f"""
user root;
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    access_log {folder}/nginx-access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    add_header X-Upstream $upstream_addr always;
{shipped}
}}
""")
    return config


def _answers(port: int, process: subprocess.Popen[bytes], log: Path) -> bool:
    assert process.poll() is None, log.read_text()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/live/", timeout=5):
            return True
    except OSError:
        return False


@contextmanager
def nginx_running(folder: Path, web_ports: list[int]) -> Iterator[tuple[int, int]]:
    """nginx in front of `web_ports`; yields its (http, https) ports."""
    binary = nginx_binary()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "static").mkdir(exist_ok=True)
    if not (folder / "certs").exists():
        _certificate(folder / "certs")
    http_port, https_port = free_port(), free_port()
    config = nginx_config(folder, web_ports, http_port=http_port, https_port=https_port)
    log = folder / "nginx.log"
    with log.open("wb") as out:
        process = subprocess.Popen([binary, "-p", str(folder), "-c", str(config)], stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: _answers(http_port, process, log), timeout=30, interval=0.2)
        yield http_port, https_port
    finally:
        process_stop(process, signal.SIGQUIT)


def web_start(tmp_path: Path, name: str, *, concurrency: int = 2) -> Process:
    port = free_port()
    env = cluster_env(tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY=str(concurrency),
                      LOG_LEVEL="INFO",
                      GRADER_STATE_FILE=str(tmp_path / f"{name}.process"))
    log = tmp_path / f"{name}.log"
    process = entrypoint_start("web", env=env, log=log)
    try:
        wait_for(lambda: _answers(port, process, log), timeout=120, interval=0.3)
    except BaseException:
        process_stop(process)
        raise
    return Process(name, process, log, port=port)


def worker_start(tmp_path: Path, name: str) -> Process:
    metrics = tmp_path / f"{name}-metrics"
    metrics.mkdir()
    env = cluster_env(tmp_path, PROMETHEUS_MULTIPROC_DIR=str(metrics),
                      GRADER_STATE_FILE=str(tmp_path / f"{name}.process"))
    log = tmp_path / f"{name}.log"
    process = entrypoint_start("worker", "--concurrency=1", f"--hostname={name}@%h",
                               "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
                               "--without-gossip", "--without-mingle", env=env, log=log)
    worker = Process(name, process, log, metrics=metrics)
    try:
        wait_for(lambda: "ready." in worker.text() or process.poll() is not None, timeout=120)
        assert process.poll() is None, worker.text()
    except BaseException:
        process_stop(process)
        raise
    return worker


def beat_start(tmp_path: Path, name: str) -> Process:
    env = cluster_env(tmp_path, BEAT_LEASE_SECONDS="3",
                      BEAT_SCHEDULE_FILE=str(tmp_path / f"{name}-schedule"),
                      GRADER_STATE_FILE=str(tmp_path / f"{name}.process"))
    log = tmp_path / f"{name}.log"
    return Process(name, entrypoint_start("beat", env=env, log=log), log)


@contextmanager
def cluster_running(tmp_path: Path, *, webs: int = 2, workers: int = 2, beats: int = 2,
                    web_concurrency: int = 2) -> Iterator[Cluster]:
    """`webs` web processes, `workers` workers and `beats` beats behind nginx."""
    from config.celery import app

    app.control.purge()
    with ExitStack() as stack:
        started: list[Process] = []

        def stop_all() -> None:
            for started_process in reversed(started):
                process_stop(started_process.process)

        stack.callback(stop_all)
        for index in range(beats):
            started.append(beat_start(tmp_path, f"beat{index + 1}"))
        for index in range(workers):
            started.append(worker_start(tmp_path, f"worker{index + 1}"))
        for index in range(webs):
            started.append(web_start(tmp_path, f"web{index + 1}", concurrency=web_concurrency))
        web_processes = [p for p in started if p.name.startswith("web")]
        http_port, https_port = stack.enter_context(
            nginx_running(tmp_path / "nginx", [p.port for p in web_processes]))
        # On leaving: nginx stops first, then the processes (ExitStack, in reverse).
        yield Cluster(webs=web_processes,
                      workers=[p for p in started if p.name.startswith("worker")],
                      beats=[p for p in started if p.name.startswith("beat")],
                      https_port=https_port, http_port=http_port, folder=tmp_path)
