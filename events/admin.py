"""Django admin for webhook subscriptions and the outbox (failed deliveries replayable)."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from core.admin import NoAddAdmin
from events.delivery import webhook_delivery_replay
from events.models import WebhookDelivery, WebhookSubscription
from events.webhooks import webhook_unsubscribe


@admin.register(WebhookSubscription)
class WebhookSubscriptionAdmin(NoAddAdmin):
    """Subscriptions are made through the API (which shows the secret once)."""

    list_display = ("url", "course", "events", "is_active", "created_at")
    list_filter = ("is_active", "course")
    readonly_fields = ("course", "url", "events", "is_active", "created_at")
    exclude = ("secret",)
    actions = ("unsubscribe",)

    @admin.action(description="Unsubscribe (pending deliveries give up)")
    def unsubscribe(self, request: HttpRequest, queryset: QuerySet[WebhookSubscription]) -> None:
        for subscription in queryset:
            webhook_unsubscribe(subscription=subscription)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(NoAddAdmin):
    """The outbox: failed deliveries are listed here and can be replayed."""

    list_display = ("event", "event_id", "subscription", "status", "attempts", "last_status_code",
                    "last_error", "next_attempt_at", "created_at")
    list_filter = ("status", "event", "subscription__course")
    search_fields = ("event_id", "subscription__url")
    list_select_related = ("subscription",)
    readonly_fields = ("subscription", "event", "event_id", "payload", "status", "attempts",
                       "next_attempt_at", "last_attempt_at", "last_status_code", "last_error",
                       "delivered_at", "created_at")
    actions = ("replay",)

    @admin.action(description="Replay the selected deliveries")
    def replay(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        for delivery in queryset:
            webhook_delivery_replay(delivery=delivery)
        messages.success(request, f"Queued {queryset.count()} delivery(ies) again.")
