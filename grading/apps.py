"""App configuration for grading."""

from django.apps import AppConfig


class GradingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "grading"

    def ready(self) -> None:
        from grading import hooks  # imports models: only once the app registry is ready

        hooks.install()
