"""The module filter of the staff pages (`?module=<slug>`): the course's modules to choose
from and the one chosen (none: every module)."""

from dataclasses import dataclass
from urllib.parse import urlencode

from courses.models import Course, CourseModule, Module


@dataclass(frozen=True)
class ModuleFilter:
    choices: list[Module]  # the course's modules, in the course's order
    selected: Module | None  # None: every module

    @property
    def module_id(self) -> int | None:
        return self.selected.pk if self.selected is not None else None

    @property
    def slug(self) -> str:
        return self.selected.slug if self.selected is not None else ""

    @property
    def query(self) -> str:
        """`module=<slug>&` to carry the choice into other links ("" for every module)."""
        return f"{urlencode({'module': self.slug})}&" if self.selected is not None else ""

    @property
    def shown(self) -> bool:
        """Whether the page offers the choice: only for a course of several modules."""
        return len(self.choices) > 1


def module_filter(*, course: Course, slug: str) -> ModuleFilter:
    """The course's modules and the one whose slug is `slug` (an empty or unknown slug, or
    one of a module the course does not run, chooses every module). One query."""
    links = CourseModule.objects.filter(course=course).select_related("module")
    choices = [link.module for link in links]
    selected = next((m for m in choices if slug and m.slug == slug), None)
    return ModuleFilter(choices=choices, selected=selected)
