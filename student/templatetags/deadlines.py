"""A deadline as the student reads it: "Due 30 Nov, 12:00 (Europe/London)" in the course's
time zone, in a <time> element that config/static/local-time.js adds the reader's own local
time to when their browser is in another zone."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from grading.deadlines import DeadlineStatus
from grading.models import DeadlinePolicy

register = template.Library()


def _when(status: DeadlineStatus, value: object) -> SafeString:
    local = status.local(value)  # type: ignore[arg-type]
    if local is None:
        return SafeString("")
    return format_html('<time datetime="{}" data-local-time>{} ({})</time>',
                       local.isoformat(), local.strftime("%-d %b, %H:%M"),
                       status.policy.time_zone)


@register.simple_tag
def due_line(status: DeadlineStatus | None, closed: bool = False,
             for_staff: bool = False) -> SafeString:
    """The exercise's due date for the student (`for_staff`: the class's, for its staff); an
    extension says so, a closed exercise says why no answer is taken."""
    if status is None:
        return SafeString("")
    late: SafeString | str = ""
    if closed:
        closes = status.closes_at
        if closes != status.due_at:
            late = format_html(", late answers until {}", _when(status, closes))
        ask = "" if for_staff else " Ask your instructor if you need an extension."
        return format_html(
            '<p class="due closed" role="status"><strong>Closed:</strong> it was due {}{}; '
            "answers are no longer accepted.{}</p>", _when(status, status.due_at), late, ask)
    if status.policy.late != "refused" and status.closes_at != status.due_at:
        late = format_html(", late answers until {}", _when(status, status.closes_at))
    if status.extended:
        return format_html('<p class="due extended">Extended to {} for you (due {} for the '
                           "class){}</p>", _when(status, status.due_at),
                           _when(status, status.course_due_at), late)
    return format_html('<p class="due">Due {}{}</p>', _when(status, status.due_at), late)


@register.simple_tag
def course_time(value: object, policy: DeadlinePolicy | None) -> SafeString:
    """A date of the course (a module's due or opening date) in its time zone ("" for none)."""
    if value is None:
        return SafeString("")
    policy = policy if policy is not None else DeadlinePolicy()
    return _when(DeadlineStatus(due_at=None, course_due_at=None, extension_reason=None,
                                policy=policy), value)
