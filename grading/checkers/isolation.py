"""sympy where it can be stopped for real: a small pool of helper processes, killed on timeout.

The sympy fallback of the symbolic checker can run for minutes or eat memory on an unlucky
expression, and a Python thread cannot be stopped. So it runs in helper processes
(``python -m grading.checkers.sympy_helper``) started with ``subprocess`` and spoken to over
pipes, one JSON line per request: our own trees (mathparse.wire), never student text. A helper
caps its own address space (RLIMIT_AS) and CPU time per request (RLIMIT_CPU, a safety net);
the caller waits at most the budget, then kills the helper with SIGKILL, reaps it and answers
None ("unknown": a person looks). Helpers are reused between requests; a killed one is
replaced in the background, and a request that finds no idle helper while a replacement is
starting waits for it within its own budget (never starting one itself), so no answer waits
past its bound for a helper to start. Only a request that finds none idle and none starting
(the first of a process, or more at once than the pool has run so far) starts one itself.
``subprocess`` works everywhere this code runs: a runserver thread, a gunicorn sync
worker, and a Celery prefork child (whose daemonic processes may not use ``multiprocessing``
children). A pool inherited through ``fork`` is left to its owner and replaced.

``GRADER_SYMPY_HELPERS`` (default 2) sets the pool size, ``GRADER_SYMPY_MEMORY_MB`` (default
1024) the memory a helper may add to what it uses at start.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from grading.checkers.mathparse import Expr
from grading.checkers.mathparse.wire import to_data
from grading.checkers.refs import fraction_params

__all__ = [
    "HELPERS",
    "MEMORY_MB",
    "SYMPY_BUDGET_SECONDS",
    "SympyPool",
    "pool",
    "sympy_equivalent",
]

SYMPY_BUDGET_SECONDS = 0.9  # so that no answer takes over a second
HELPERS = max(1, int(os.environ.get("GRADER_SYMPY_HELPERS", "2")))
MEMORY_MB = max(64, int(os.environ.get("GRADER_SYMPY_MEMORY_MB", "1024")))
STARTUP_SECONDS = 60.0
_ROOT = Path(__file__).resolve().parents[2]  # the directory that holds the grading package


class _Helper:
    """One helper process and the pipes to it."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_ROOT), env.get("PYTHONPATH"))
                                            if p)
        env.update({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                    "MKL_NUM_THREADS": "1", "GRADER_SYMPY_MEMORY_MB": str(MEMORY_MB)})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grading.checkers.sympy_helper"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, cwd=str(_ROOT), start_new_session=True,
        )
        self.buffer = b""
        if self.read_line(STARTUP_SECONDS) != b"ready":
            self.kill()
            raise OSError("the sympy helper did not start")

    @property
    def pid(self) -> int:
        """The helper's process id."""
        return self.process.pid

    def read_line(self, timeout: float) -> bytes | None:
        """One line from the helper within ``timeout`` seconds, or None."""
        assert self.process.stdout is not None  # noqa: S101 - created with a pipe
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None  # the helper died
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.strip()

    def ask(self, request: Mapping[str, Any], timeout: float) -> dict[str, Any] | None:
        """Send one request; its answer, or None when it did not come within ``timeout``."""
        assert self.process.stdin is not None  # noqa: S101 - created with a pipe
        try:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        line = self.read_line(timeout)
        if line is None:
            return None
        try:
            answer = json.loads(line)
        except ValueError:
            return None
        return answer if isinstance(answer, dict) else None

    def kill(self) -> None:
        """SIGKILL the helper and reap it (no zombie is left)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired, ChildProcessError):
            self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class SympyPool:
    """Up to ``size`` helper processes, each serving one request at a time."""

    def __init__(self, size: int = HELPERS) -> None:
        self.size = size
        self._reset()

    def _reset(self) -> None:
        self.owner = os.getpid()
        self.lock = threading.Lock()
        self.ready = threading.Condition(self.lock)  # a helper became idle
        self.starting = 0  # replacements being started in the background
        self.slots = threading.BoundedSemaphore(self.size)
        self.idle: list[_Helper] = []
        self.killed = 0  # helpers killed on timeout, for tests and operators
        self.killed_pids: list[int] = []  # the last few of them

    def _check_fork(self) -> None:
        if os.getpid() != self.owner:  # inherited through fork: the helpers are the parent's
            self._reset()

    def run(self, request: Mapping[str, Any], timeout: float) -> dict[str, Any] | None:
        """The helper's answer to ``request``, or None: timeout (the helper is killed), all
        helpers busy for the whole budget, or a helper that could not start or crashed.

        ``timeout`` bounds the wait for a helper being replaced plus the computation; a
        helper this request starts itself (about a second: the first of a process, none being
        replaced) is bounded separately by STARTUP_SECONDS."""
        self._check_fork()
        if not self.slots.acquire(timeout=timeout):
            return None
        try:
            deadline = time.monotonic() + timeout
            with self.ready:
                while not self.idle and self.starting:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return None  # the replacement is not up yet: no time left to ask
                    self.ready.wait(remaining)
                helper = self.idle.pop() if self.idle else None
            budget = max(0.0, deadline - time.monotonic())  # less what waiting took
            if helper is None or helper.process.poll() is not None:
                try:
                    helper = _Helper()
                except OSError:
                    return None
                budget = timeout  # a start here (the first of a process) is not counted
            answer = helper.ask(request, budget)
            if answer is None:
                helper.kill()
                with self.lock:
                    self.killed += 1
                    self.killed_pids = [*self.killed_pids[-9:], helper.pid]
                # Start the replacement now, in the background, so the next request does
                # not start (and wait for) one itself.
                with self.lock:
                    self.starting += 1
                threading.Thread(target=self._replace_quietly, daemon=True).start()
                return None
            with self.ready:
                self.idle.append(helper)
                self.ready.notify_all()
            return answer
        finally:
            self.slots.release()

    def _replace_quietly(self) -> None:
        helper = None
        with contextlib.suppress(OSError):  # if it fails, the next request starts one itself
            helper = _Helper()
        with self.ready:
            self.starting -= 1
            if helper is not None:
                self.idle.append(helper)
            self.ready.notify_all()

    def warm(self) -> None:
        """Start one helper now (optional; the first request otherwise pays the start)."""
        self._check_fork()
        with self.lock:
            if self.idle:
                return
        helper = _Helper()
        with self.ready:
            self.idle.append(helper)
            self.ready.notify_all()

    def close(self) -> None:
        """Stop every idle helper of this process."""
        if os.getpid() != self.owner:
            return
        with self.lock:
            helpers, self.idle = self.idle, []
        for helper in helpers:
            helper.kill()

    def idle_pids(self) -> list[int]:
        """Process ids of the idle helpers (for tests and operators)."""
        with self.lock:
            return [h.pid for h in self.idle]


pool = SympyPool()
atexit.register(pool.close)


def _wire_params(params: Mapping[str, Any], variables: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in fraction_params(params).items():
        if name in variables:
            continue
        if isinstance(value, list):
            out[name] = [[v.numerator, v.denominator] for v in value]
        else:
            out[name] = [value.numerator, value.denominator]
    return out


def sympy_equivalent(answer: Expr, reference: Expr, *, variables: Sequence[str],
                     functions: Mapping[str, int], params: Mapping[str, Any],
                     domain: str, budget: float | None = None) -> str | None:
    """sympy's verdict on ``answer`` = ``reference`` ("equal", "different" or "unknown"),
    computed in a helper process within ``budget`` seconds; None on timeout (the helper was
    killed) or when no helper could run it."""
    request = {
        "answer": to_data(answer.node),
        "reference": to_data(reference.node),
        "substitutions": _wire_params(params, variables),
        "functions": dict(functions),
        "domain": domain,
    }
    reply = pool.run(request, SYMPY_BUDGET_SECONDS if budget is None else budget)
    if reply is None:
        return None
    verdict = reply.get("verdict")
    return verdict if verdict in ("equal", "different", "unknown") else "unknown"
