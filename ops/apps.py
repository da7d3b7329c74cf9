"""App configuration for ops: health checks, metrics, request context in logs."""

from django.apps import AppConfig


class OpsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from ops import log_context, metrics_db, personal_data, sign_in_spray

        metrics_db.database_metrics_connect()
        log_context.request_context_connect()
        personal_data.register()
        sign_in_spray.connect()
