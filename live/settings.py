"""How a course counts live answers in the gradebook (graded, or participation only)."""

from django.db import transaction

from courses.models import Course
from live.access import LiveStaff
from live.models import LiveSettings


def live_settings_get(*, course: Course) -> LiveSettings:
    """The course's live settings (the default, graded, when none were saved)."""
    return LiveSettings.objects.filter(course=course).first() or LiveSettings(course=course)


@transaction.atomic(durable=True)
def live_settings_set(*, staff: LiveStaff, scoring: str) -> LiveSettings:
    """Save how the course's live answers count; applies to sessions revealed from now."""
    settings, _ = LiveSettings.objects.update_or_create(course=staff.course,
                                                        defaults={"scoring": scoring})
    return settings
