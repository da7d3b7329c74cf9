"""`bin/load --cpu`: the service's WSGI application, timing the CPU each request costs the
gunicorn worker that serves it.

Locust sees only wall-clock times, which under a rush are mostly queueing; this says what
each route costs in CPU, the resource a rush runs out of (docs/scaling.md, "CPU per request,
by endpoint"). Each request appends one line, `METHOD route<TAB>cpu ms`, to a file of its
process in the folder LOAD_CPU_DIR names (`bin/load` points it at the current step's folder,
through a symbolic link it moves between steps). The route is Django's pattern
(`courses/<slug:course_slug>/parts/<int:part_id>/answer/`), resolved after the CPU is read.
Writing the line costs the worker a few microseconds, about 1% of the bare view.
"""

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from django.urls import Resolver404, resolve

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def route_of(environ: dict[str, Any]) -> str:
    """The request's method and Django route pattern ("GET other" when nothing matches)."""
    try:
        route = resolve(environ.get("PATH_INFO", "/")).route
    except Resolver404:
        route = "other"
    return f"{environ.get('REQUEST_METHOD', 'GET')} {route}"


def cpu_timed(inner: WsgiApp, folder: Path) -> WsgiApp:
    """`inner`, with the CPU of each request (the whole body produced) appended to
    `folder`/cpu-<pid>.tsv. Nothing is recorded while `folder` does not exist."""

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        started = time.process_time()
        result = inner(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        spent_ms = (time.process_time() - started) * 1000
        if folder.is_dir():
            with open(folder / f"cpu-{os.getpid()}.tsv", "a") as out:
                out.write(f"{route_of(environ)}\t{spent_ms:.3f}\n")
        return [body]

    return application


def _service() -> WsgiApp:
    from config.wsgi import application as service

    return cpu_timed(service, Path(os.environ.get("LOAD_CPU_DIR", "var/load/cpu-now")))


#: What gunicorn serves: `gunicorn -c config/gunicorn.conf.py tests.load.cpu_wsgi`.
application = _service()
