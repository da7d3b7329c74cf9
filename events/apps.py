"""App configuration for events (the outbox and webhook delivery)."""

from django.apps import AppConfig


class EventsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "events"

    def ready(self) -> None:
        from core.content_cache import content_watch
        from events import personal_data
        from events.models import WebhookSubscription
        from events.outbox import outbox_consumer_register
        from events.webhooks import webhook_deliveries_record, webhook_deliveries_record_many

        outbox_consumer_register(webhook_deliveries_record, many=webhook_deliveries_record_many)
        personal_data.register()
        content_watch(WebhookSubscription)
