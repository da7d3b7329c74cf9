"""App configuration for the student pages."""

from typing import Any

from django.apps import AppConfig
from django.urls import reverse

from core.kept_forms import KeptForm, kept_form_register


def _course_page(kwargs: dict[str, Any]) -> str:
    """The course's page (it leads to the module), from the answer route's arguments."""
    return reverse("course-module", kwargs={"course_slug": kwargs["course_slug"]})


class StudentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "student"

    def ready(self) -> None:
        from student.templatetags import figures  # imports models: only once apps are ready

        figures.install()
        # An answer refused while the database is away comes back in the refusal page, kept.
        kept_form_register("part-answer", KeptForm(fields=("answer",), back=_course_page))
