"""App configuration for grading."""

from django.apps import AppConfig


class GradingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "grading"

    def ready(self) -> None:
        from events.catalog import event_type_register
        from grading.events import SUBMISSION_GRADED

        event_type_register(SUBMISSION_GRADED, "A submission was graded, reviewed or regraded")
