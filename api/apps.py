"""App configuration for the REST API."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        from api import personal_data  # imports models: only once the registry is ready

        personal_data.register()
