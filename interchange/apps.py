from django.apps import AppConfig


class InterchangeConfig(AppConfig):
    """Question import and export: Moodle XML in, Moodle XML out."""

    name = "interchange"
    default_auto_field = "django.db.models.BigAutoField"
