"""What a selector did not find, as a value: selectors return their result or a `NotFound`,
and the interface (view, API, consumer) decides on the 404 and words it."""

from enum import Enum
from typing import TypeVar

from django.http import Http404

T = TypeVar("T")


class NotFound(Enum):
    """Why a lookup found nothing, where the page tells the two apart."""

    #: the user is not an active member of the course (or there is no such course)
    COURSE = "course"
    #: the course is the user's (or none is asked for); the thing asked for is not there
    ITEM = "item"


def found_or_404(value: T | None, message: str) -> T:
    """`value`, for an interface that has looked it up; Http404 with `message` when the
    selector found nothing (None)."""
    if value is None:
        raise Http404(message)
    return value
