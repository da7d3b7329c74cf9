"""App configuration for labs."""

from django.apps import AppConfig


class LabsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "labs"

    def ready(self) -> None:
        from events.catalog import event_type_register
        from labs.events import LAB_RUN_FINISHED

        event_type_register(LAB_RUN_FINISHED, "A lab run finished (succeeded or failed)")
