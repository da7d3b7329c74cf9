"""App configuration for privacy (data requests and retention)."""

from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "privacy"
    verbose_name = "Data protection"

    def ready(self) -> None:
        from privacy import admin_log  # imports models: only once the registry is ready

        admin_log.register()
