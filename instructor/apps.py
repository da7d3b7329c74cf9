"""App configuration for the instructor pages."""

from django.apps import AppConfig


class InstructorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "instructor"
