"""Predicates that hold a stored prediction back from its lab run: a live session (live/)
grades the room's predictions together when the instructor runs the lab; and the numbers
its holder asked it in, which its verdict uses wherever it is graded.

Apart from labs.predictions so that registering a hold at start-up imports no checkers
(sympy) and no lab runner (matplotlib)."""

from collections.abc import Callable
from typing import Any

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


_asked: list[Callable[[Submission], dict[str, Any] | None]] = []


def prediction_numbers_register(asked: Callable[[Submission], dict[str, Any] | None]) -> None:
    """Install a function giving the variant parameters a prediction was asked in when they
    are not its student's own (a live room that shared the class's numbers), else None."""
    if asked not in _asked:
        _asked.append(asked)


def prediction_numbers(submission: Submission) -> dict[str, Any] | None:
    """The parameters `submission` was asked in, if a registered function says so (None:
    its student's own variant)."""
    for asked in _asked:
        params = asked(submission)
        if params is not None:
            return params
    return None
