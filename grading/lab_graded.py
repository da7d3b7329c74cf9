"""Parts graded against a lab run (predictions): grading hands them to a registered handler.

A part opts in with `lab = "<lab slug>"` in its spec. Grading stores such an answer as
pending and asks the handler (filled in by LabsConfig.ready()) to request the run that
will grade it, so grading never imports labs, which sits above it.
"""

from collections.abc import Callable, Mapping
from typing import Any

from grading.models import Submission

#: (stored submission, the variant's parameters) -> the submission, its run requested.
PredictionSubmit = Callable[[Submission, dict[str, Any]], Submission]

_handler: list[PredictionSubmit] = []


def lab_graded(spec: Mapping[str, Any]) -> bool:
    """Whether a part with this spec is graded against a lab run rather than a key."""
    return bool(spec.get("lab"))


def lab_grading_register(submit: PredictionSubmit) -> None:
    """Install the function that requests the lab run grading a stored prediction."""
    _handler[:] = [submit]


def lab_grading_submit(submission: Submission, params: dict[str, Any]) -> Submission:
    """Request the run that will grade the stored prediction `submission` (RuntimeError when
    no lab app registered a handler: a lab-graded part cannot be graded without one)."""
    if not _handler:
        raise RuntimeError("no handler for lab-graded parts: is the labs app installed?")
    return _handler[0](submission, params)
