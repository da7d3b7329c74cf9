"""What a long-running process loads before it serves its first request or task.

The web (`config/wsgi.py`, `config/asgi.py`: gunicorn, daphne and `manage.py runserver`) and
the Celery worker (`worker_init` in `config/celery.py`, in the main process before it forks
its pool) call `process_prepare()`. Without it the first units answer of each process paid
for building pint's unit registry (1.8-2.8 s on a loaded host). Management commands and
`django.setup()` do not call it: they need neither pint nor its cost.
"""

from typing import Any


def process_prepare(**_: Any) -> None:
    """Load what answers need once per process: pint's unit registry (grading's units
    checker). Idempotent; accepts and ignores a signal's keyword arguments."""
    from grading.checkers.units import registry

    registry()
