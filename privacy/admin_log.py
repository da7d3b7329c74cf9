"""The admin's change log names the objects it records (a user's username): renamed on erasure."""

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
    """Entries about the account show the pseudonym instead of the username."""
    return _entries(user).update(object_repr=pseudonym)


def register() -> None:
    """Register the admin log as a source (called by PrivacyConfig.ready())."""
    personal_data_register(PersonalDataSource("admin log", admin_log_export, admin_log_erase))
