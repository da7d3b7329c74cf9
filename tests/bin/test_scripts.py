"""The two README commands: bin/run stops everything it started whatever signal ends it, and
bin/run and bin/test keep separate environments that never undo each other's install; the
guides' bin/manage runs a command in bin/run's environment."""

import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def one_bin_run_at_a_time():
    """bin/run writes the checkout's own var/worker.log and var/celerybeat-schedule and
    installs its .venv on first use: test runs that share the checkout (CI's two passes, run
    side by side) take turns through these tests, holding a lock on var/bin-run-tests.lock."""
    (ROOT / "var").mkdir(exist_ok=True)
    with (ROOT / "var" / "bin-run-tests.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _marked_processes(mark: str) -> list[int]:
    """Pids of live processes whose environment carries `mark`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().split(")")[-1].split()[0]
        except OSError:
            continue
        if f"GRADER_RUN_MARK={mark}".encode() in environ and state != "Z":
            found.append(int(entry.name))
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_bin_run(tmp_path: Path, mark: str) -> tuple[subprocess.Popen[bytes], Path]:
    port = _free_port()
    log = tmp_path / "run.log"
    env = {key: value for key, value in os.environ.items()
           if key not in ("DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL", "DATABASE_URL")}
    env.update(GRADER_RUN_MARK=mark, PORT=str(port), DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
               CELERY_BROKER_DIR=str(tmp_path / "broker"))
    with log.open("wb") as out:
        process = subprocess.Popen([str(ROOT / "bin" / "run")], cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 600  # the first start installs the service's environment
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                break
        except OSError:
            if process.poll() is not None:
                raise AssertionError(f"bin/run exited early:\n{log.read_text()}") from None
            time.sleep(0.5)
    else:
        os.killpg(process.pid, signal.SIGKILL)
        raise AssertionError(f"bin/run did not start:\n{log.read_text()}")
    wait_until = time.monotonic() + 60  # the worker is up once its log says so
    while "ready." not in (ROOT / "var" / "worker.log").read_text(errors="replace"):
        assert time.monotonic() < wait_until, "the worker did not become ready"
        time.sleep(0.5)
    return process, log


@pytest.mark.parametrize("target", ["process group", "script only"])
def test_sigterm_stops_the_server_and_every_worker_process(tmp_path, target) -> None:
    mark = uuid.uuid4().hex
    process, log = _start_bin_run(tmp_path, mark)
    try:
        assert len(_marked_processes(mark)) >= 4  # bash, runserver, celery main and its pool
        if target == "process group":
            os.killpg(process.pid, signal.SIGTERM)
        else:
            os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        deadline = time.monotonic() + 15
        while _marked_processes(mark) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _marked_processes(mark) == [], log.read_text()
    finally:
        for pid in _marked_processes(mark):
            os.kill(pid, signal.SIGKILL)


def test_run_and_test_environments_do_not_reinstall_each_other(tmp_path) -> None:
    (tmp_path / "bin").mkdir()
    shutil.copy(ROOT / "bin" / "_env.sh", tmp_path / "bin" / "_env.sh")
    (tmp_path / "requirements.lock").write_text("# the service's lock (empty here)\n")
    (tmp_path / "requirements-dev.lock").write_text("# the tests' lock (empty here)\n")
    env = {**os.environ, "PIP_NO_INDEX": "1"}  # offline: only the empty locks are installed

    def source(venv: str, lock: str) -> str:
        command = [shutil.which("bash") or "/bin/bash", "-c",
                   f". bin/_env.sh {venv} {lock} && command -v python"]
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr + done.stdout
        return done.stdout

    assert "installing" in source(".venv", "requirements.lock")
    assert "installing" in source(".venv-test", "requirements-dev.lock")
    again_run = source(".venv", "requirements.lock")
    again_test = source(".venv-test", "requirements-dev.lock")
    assert "installing" not in again_run and "installing" not in again_test
    assert again_run.strip().endswith(".venv/bin/python")
    assert again_test.strip().endswith(".venv-test/bin/python")


def _celery_processes(mark: str) -> list[int]:
    """The marked processes that are Celery's (the worker's main process and its pool)."""
    found = []
    for pid in _marked_processes(mark):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"celery" in command:
            found.append(pid)
    return found


def test_a_worker_that_dies_is_started_again_and_stopped_with_the_rest(tmp_path) -> None:
    mark = uuid.uuid4().hex
    process, log = _start_bin_run(tmp_path, mark)
    worker_log = ROOT / "var" / "worker.log"
    try:
        crashed = _celery_processes(mark)
        assert crashed, "no worker process found"
        for pid in crashed:  # as an unrecoverable error or the OOM killer would end it
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 120
        while worker_log.read_text(errors="replace").count("ready.") < 2:
            assert time.monotonic() < deadline, worker_log.read_text(errors="replace")[-3000:]
            time.sleep(0.5)
        text = worker_log.read_text(errors="replace")
        assert "the worker exited (status 137); starting it again" in text
        restarted = _celery_processes(mark)
        assert restarted and not set(restarted) & set(crashed)
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        deadline = time.monotonic() + 15
        while _marked_processes(mark) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _marked_processes(mark) == [], log.read_text()
    finally:
        for pid in _marked_processes(mark):
            os.kill(pid, signal.SIGKILL)


def test_bin_manage_runs_a_command_in_the_service_s_environment_from_any_folder(tmp_path) -> None:
    """The guides' `bin/manage ...` commands (issue 37): manage.py runs with .venv's Python
    (made as bin/run makes it, without activating it), the local settings unless others
    are set, the arguments as given, and relative paths read from the caller's folder."""
    (tmp_path / "bin").mkdir()
    for name in ("_env.sh", "manage"):
        shutil.copy(ROOT / "bin" / name, tmp_path / "bin" / name)
    (tmp_path / "requirements.lock").write_text("# the service's lock (empty here)\n")
    (tmp_path / "manage.py").write_text(
        "import json, os, sys\n"
        "print(json.dumps({'python': sys.executable, 'argv': sys.argv[1:], 'cwd': os.getcwd(),"
        " 'settings': os.environ['DJANGO_SETTINGS_MODULE']}))\n")
    (tmp_path / "elsewhere").mkdir()
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env |= {"PIP_NO_INDEX": "1", "PATH": "/usr/bin:/bin"}  # no activated environment

    done = subprocess.run([str(tmp_path / "bin" / "manage"), "check_answers", "answers.jsonl"],
                          cwd=tmp_path / "elsewhere", env=env, capture_output=True, text=True,
                          timeout=300)

    assert done.returncode == 0, done.stderr
    ran = json.loads(done.stdout)  # the install's messages went to stderr
    assert ran["python"] == str(tmp_path / ".venv" / "bin" / "python")
    assert ran["argv"] == ["check_answers", "answers.jsonl"]
    assert ran["cwd"] == str(tmp_path / "elsewhere")
    assert ran["settings"] == "config.settings.local"


GUIDES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md",
          ROOT / "grading" / "checkers" / "README.md", ROOT / "courses" / "content" / "README.md"]


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_guides_give_commands_that_work_without_an_activated_environment(guide) -> None:
    """`python manage.py ...` fails unless .venv is activated; the guides say `bin/manage`
    (or name the environment's Python, `.venv/bin/python manage.py`, as a cron line does)."""
    text = guide.read_text()
    for found in re.finditer(r"(?<![/\w])python3? manage\.py|`manage\.py(\s|$)", text):
        line = text.count("\n", 0, found.start()) + 1
        raise AssertionError(f"{guide.relative_to(ROOT)}:{line}: {found.group()!r}")
