"""App configuration for grading."""

from django.apps import AppConfig


class GradingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "grading"

    def ready(self) -> None:
        from core.content_cache import content_watch
        from grading import hooks  # imports models: only once the app registry is ready
        from grading.models import Deadline, DeadlinePolicy

        content_watch(Deadline, DeadlinePolicy)
        hooks.install()
