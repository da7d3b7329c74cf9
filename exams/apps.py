"""App configuration for exams: timed assessments drawn from question pools."""

from django.apps import AppConfig


class ExamsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exams"

    def ready(self) -> None:
        from exams import hooks  # imports models: only once the app registry is ready

        hooks.install()
