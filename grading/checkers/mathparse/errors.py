"""The one error the maths reader raises for a student's text: FormatError."""

from __future__ import annotations

__all__ = ["FormatError", "gettext_noop"]


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks a message for students for the interface's catalogue
    (Django's makemessages extracts ``gettext_noop("...")``), without importing Django. The
    checkers stay pure and write English; the page translates the stored text when it shows
    it (courses/feedback_translation.py), values put in with ``%`` (named placeholders)."""
    return message


class FormatError(ValueError):
    """An answer that cannot be read: ``message`` says what and where, for a student.

    ``position`` is the 1-based character (in the student's own text) where reading failed,
    or None when the problem is not at one place (an empty or too long answer).
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
