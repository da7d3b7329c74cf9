"""gunicorn settings for production: `gunicorn -c config/gunicorn.conf.py config.wsgi`.

With PROMETHEUS_MULTIPROC_DIR set, every worker writes its metrics there and /metrics sums
them; when a worker exits, prometheus_client is told so (its live gauges are dropped; its
counters are kept, so totals never go backwards). Empty the folder before each start.
"""

import os
from typing import Any

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# A worker silent this long is killed (gunicorn's default 30 s); a machine that is far
# overloaded (the load tests on a shared host) may need more for a cold first request.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# gunicorn's control socket (~/.gunicorn/gunicorn.ctl) is not used: off, so that the image's
# user, whose home is read-only, and several servers on one host do not need or share it.
control_socket_disable = True
# One access line per request comes from the application's structured log (request_finished).
accesslog = None


def child_exit(server: Any, worker: Any) -> None:
    """gunicorn hook: a worker process ended."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
