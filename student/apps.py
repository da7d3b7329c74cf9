"""App configuration for the student pages."""

from django.apps import AppConfig


class StudentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "student"

    def ready(self) -> None:
        from student.templatetags import figures  # imports models: only once apps are ready

        figures.install()
