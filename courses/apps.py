"""App configuration for courses."""

from django.apps import AppConfig


class CoursesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "courses"

    def ready(self) -> None:
        from core.content_cache import content_watch
        from courses import (
            languages,  # noqa: F401 (its sign-in receiver)
            personal_data,  # imports models: only once the registry is ready
        )
        from courses.models import Course, CourseModule, Exercise, Lab, Module, Part, Section

        personal_data.register()
        content_watch(Course, CourseModule, Module, Section, Exercise, Part, Lab)
