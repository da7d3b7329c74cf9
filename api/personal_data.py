"""What the REST API keeps about a person: replayable responses of their idempotent requests
(which quote their answers) and the keys they issued."""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from api.models import ApiKey, IdempotencyRecord
from core.personal_data import PersonalDataSource, personal_data_register


def _records(user: User) -> Any:
    return IdempotencyRecord.objects.filter(
        Q(principal=f"user:{user.pk}") | Q(response__student=user.pk))


def api_export(user: User) -> dict[str, Any]:
    """Stored responses to the person's (or an LMS's, for them) retried requests, and keys."""
    return {
        "stored_responses": [{"key": r.key, "status": r.status_code, "response": r.response,
                              "at": r.created_at.isoformat()}
                             for r in _records(user).order_by("id")],
        "api_keys_issued": [{"course": k.course.slug, "name": k.name, "role": k.role,
                             "created_at": k.created_at.isoformat()}
                            for k in ApiKey.objects.filter(created_by=user).select_related("course")],
    }


def api_erase(user: User, pseudonym: str) -> int:
    """Stored responses about the person are deleted (a retry after this is a new request);
    keys they issued stay, credited to the anonymised account."""
    deleted, _ = _records(user).delete()
    return deleted


def register() -> None:
    """Register the API's personal data (called by ApiConfig.ready())."""
    personal_data_register(PersonalDataSource("api requests", api_export, api_erase))
