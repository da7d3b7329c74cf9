"""App configuration for labs."""

from django.apps import AppConfig


class LabsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "labs"

    def ready(self) -> None:
        from courses.content_validation import content_validators_register
        from events.catalog import event_type_register
        from grading.lab_graded import lab_grading_register
        from labs.content_checks import lab_param_schema, lab_problems
        from labs.events import LAB_RUN_FINISHED
        from labs.predictions import prediction_submit

        content_validators_register(lab=lab_problems, lab_schema=lab_param_schema)
        lab_grading_register(prediction_submit)
        event_type_register(LAB_RUN_FINISHED, "A lab run finished (succeeded or failed)")
