"""App configuration for labs."""

from django.apps import AppConfig


class LabsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "labs"

    def ready(self) -> None:
        from labs import hooks  # imports models: only once the app registry is ready

        hooks.install()
