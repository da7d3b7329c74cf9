"""What the outbox holds about a person: their name and LMS id inside event payloads."""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from core.personal_data import PersonalDataSource, personal_data_register
from events.models import WebhookDelivery

#: Payload fields naming a person, by the field holding their user id.
_NAMED = {"student_id": ("student_username", "student_external_id"),
          "requester_id": ("requester_username",)}


def _about(user: User) -> Any:
    query = Q()
    for id_field in _NAMED:
        query |= Q(**{f"payload__data__{id_field}": user.pk})
    return WebhookDelivery.objects.filter(query)


def deliveries_export(user: User) -> list[dict[str, Any]]:
    """Events about the person sent (or to be sent) to the course's webhooks."""
    return [{"event": d.event, "url": d.subscription.url, "status": d.status,
             "created_at": d.created_at.isoformat(), "payload": d.payload}
            for d in _about(user).select_related("subscription").order_by("id")]


def deliveries_erase(user: User, pseudonym: str) -> int:
    """The person's username becomes the pseudonym and their LMS id goes, in every payload."""
    changed = 0
    for delivery in _about(user).only("id", "payload"):
        data = delivery.payload.get("data", {})
        for id_field, names in _NAMED.items():
            if data.get(id_field) == user.pk:
                for name in names:
                    if name in data:
                        data[name] = pseudonym if name.endswith("username") else ""
        WebhookDelivery.objects.filter(pk=delivery.pk).update(payload=delivery.payload)
        changed += 1
    return changed


def register() -> None:
    """Register the outbox's personal data (called by EventsConfig.ready())."""
    personal_data_register(PersonalDataSource("webhook events", deliveries_export, deliveries_erase))
