"""Predicates that hold a stored prediction back from its lab run: a live session (live/)
grades the room's predictions together when the instructor runs the lab.

Apart from labs.predictions so that registering a hold at start-up imports no checkers
(sympy) and no lab runner (matplotlib)."""

from collections.abc import Callable

from grading.models import Submission

_holds: list[Callable[[Submission], bool]] = []


def prediction_hold_register(held: Callable[[Submission], bool]) -> None:
    """Install a predicate: a prediction it holds gets no lab run from `prediction_submit`
    (nor from the recovery sweep) until its holder calls `prediction_run_request` itself."""
    if held not in _holds:
        _holds.append(held)


def prediction_held(submission: Submission) -> bool:
    """Whether a registered hold keeps `submission` from its lab run for now."""
    return any(held(submission) for held in _holds)
