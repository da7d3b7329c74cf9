"""Webhook subscriptions of a course and the outbox of their deliveries."""

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.content_cache import VersionedQuerySet
from courses.models import Course


class WebhookSubscription(models.Model):
    """A URL of a course that receives signed event payloads (see events/webhooks.py)."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    events = models.JSONField(default=list, help_text="event names this URL receives")
    secret = models.CharField(max_length=100, editable=False, help_text="HMAC-SHA256 key")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.url} ({', '.join(self.events)})"


class WebhookDelivery(models.Model):
    """The outbox: one event for one subscription, written with the event, delivered by Celery."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed (gave up retrying)")
    subscription = models.ForeignKey(
        WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    event_id = models.UUIDField(default=uuid.uuid4, editable=False, db_index=True)
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(help_text="not tried before this time (also a lease)")
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="courses_web_status_83494c_idx")]

    def __str__(self) -> str:
        return f"{self.event} {self.event_id} -> {self.subscription.url} ({self.status})"
