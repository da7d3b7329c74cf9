"""Processes of the deployment tests: deploy/entrypoint.sh in one of its modes, started from
another folder as a container would, stopped (or killed) with its whole process group."""

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tests.workers import ROOT

ENTRYPOINT = ROOT / "deploy" / "entrypoint.sh"


def entrypoint_start(*args: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start the entrypoint in a session of its own, its output appended to `log`."""
    with log.open("ab") as out:
        return subprocess.Popen([str(ENTRYPOINT), *args], cwd="/", env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def process_stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Send `sig` to the process's group (gunicorn and its workers, a worker and its pool);
    SIGKILL after 20 s."""
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    else:  # the leader is gone: its children may not be
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


@contextmanager
def running(*args: str, env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    process = entrypoint_start(*args, env=env, log=log)
    try:
        yield process
    finally:
        process_stop(process)
