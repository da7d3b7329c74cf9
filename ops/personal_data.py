"""What sign-in throttling (django-axes) keeps about a person: attempts by their username."""

from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.models import User

from core.personal_data import PersonalDataSource, personal_data_register

_MODELS = (AccessAttempt, AccessFailureLog, AccessLog)


def sign_ins_export(user: User) -> list[dict[str, Any]]:
    """Recorded sign-ins and failed attempts under the person's username: when, from where."""
    return [{"kind": model.__name__, "at": row.attempt_time.isoformat(),
             "address": row.ip_address, "browser": row.user_agent}
            for model in _MODELS for row in model.objects.filter(username=user.username)]


def sign_ins_erase(user: User, pseudonym: str) -> int:
    """The records are deleted (run before the account is renamed, so they are still found)."""
    return sum(model.objects.filter(username=user.username).delete()[0] for model in _MODELS)


def register() -> None:
    """Register sign-in records as personal data (called by OpsConfig.ready())."""
    personal_data_register(PersonalDataSource("sign-ins", sign_ins_export, sign_ins_erase))
