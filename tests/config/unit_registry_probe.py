"""A task a test worker loads with `--include`: it writes whether the worker process it runs
in has pint's unit registry loaded, without grading anything (so without loading it)."""

from pathlib import Path

from config.celery import app
from grading.checkers.units import registry


@app.task(name="tests.config.unit_registry_probe")
def unit_registry_probe(path: str) -> None:
    """Write "1" to `path` if this process's unit registry is built, "0" if not."""
    part = Path(path + ".part")
    part.write_text(str(registry.cache_info().currsize))
    part.replace(path)  # whole, so that the test never reads it half written
