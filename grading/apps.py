"""App configuration for grading."""

from django.apps import AppConfig


class GradingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "grading"

    def ready(self) -> None:
        from courses.content_validation import content_validators_register
        from events.catalog import event_type_register
        from grading.content_checks import part_spec_problems
        from grading.events import SUBMISSION_GRADED

        content_validators_register(part_spec=part_spec_problems)
        event_type_register(SUBMISSION_GRADED, "A submission was graded, reviewed or regraded")
