"""The admin's change log names the objects it records (a user's username) and keeps the
staff's change messages: on erasure the entries about the account lose both, and entries
about other objects whose name includes the username or e-mail are renamed."""

import re
from typing import Any

from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType

from core.personal_data import PersonalDataSource, personal_data_register


def _entries(user: User) -> Any:
    return LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(User),
                                   object_id=str(user.pk))


def admin_log_export(user: User) -> list[dict[str, Any]]:
    """Changes staff made to the account in the admin."""
    return [{"when": e.action_time.isoformat(), "change": e.get_change_message()}
            for e in _entries(user).order_by("id")]


def admin_log_erase(user: User, pseudonym: str) -> int:
    """Entries about the account show the pseudonym instead of the username and no change
    message (free text staff may have typed); other entries whose object name contains the
    username or e-mail (an enrolment, a submission) show the pseudonym in its place."""
    erased = _entries(user).update(object_repr=pseudonym, change_message="")
    names = {name for name in (user.username, user.email) if name and name != pseudonym}
    for name in sorted(names, key=len, reverse=True):
        for entry in LogEntry.objects.filter(object_repr__icontains=name).exclude(
                object_repr=pseudonym):
            entry.object_repr = re.sub(re.escape(name), pseudonym, entry.object_repr,
                                       flags=re.IGNORECASE)
            entry.change_message = ""
            entry.save(update_fields=["object_repr", "change_message"])
            erased += 1
    return erased


def register() -> None:
    """Register the admin log as a source (called by PrivacyConfig.ready())."""
    personal_data_register(PersonalDataSource("admin log", admin_log_export, admin_log_erase))
