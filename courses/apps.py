"""App configuration for courses."""

from django.apps import AppConfig


class CoursesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "courses"

    def ready(self) -> None:
        from courses import personal_data  # imports models: only once the registry is ready

        personal_data.register()
