"""Where a student opens something of a course: the one place that chooses between the
course page and a module's page (student pages, their redirects and LTI launches use it;
the URL names are the student app's).

A course of one module shows that module on the course page (`/courses/<slug>/`), as it
always did; a course of several modules has a page per module
(`/courses/<slug>/modules/<module-slug>/`) and its course page is an overview. Links and
redirects to a part, exercise, section or lab go to the page of the item's module.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.urls import reverse

from courses.content_reads import course_modules
from courses.models import Course, CourseModule


def course_url(course_slug: str) -> str:
    """The course page: its only module, or the overview of its modules."""
    return reverse("course-module", args=[course_slug])


def module_page_url(course_slug: str, module_slug: str) -> str:
    """The page of one module of the course (any course; the course page is the usual link
    for a course of one module)."""
    return reverse("module-page", args=[course_slug, module_slug])


@dataclass(frozen=True)
class CourseLinks:
    """The links into one course's pages; `module_slugs` maps the id of every module the
    course runs (released or not) to its slug; the modules in `not_open` (not released, for
    a student) have no page to go to yet: their links go to the course page."""

    course_slug: str
    module_slugs: dict[int, str]
    not_open: frozenset[int] = field(default_factory=frozenset)

    @property
    def several(self) -> bool:
        """Whether the course runs several modules (each with its own page)."""
        return len(self.module_slugs) > 1

    def module(self, module_id: int) -> str:
        """The page showing the module: its own page in a course of several modules, else
        the course page (also for a module the course does not run or not open yet)."""
        slug = self.module_slugs.get(module_id)
        if self.several and slug is not None and module_id not in self.not_open:
            return module_page_url(self.course_slug, slug)
        return course_url(self.course_slug)

    def part(self, module_id: int, part_id: int) -> str:
        return f"{self.module(module_id)}#part-{part_id}"

    def exercise(self, module_id: int, exercise_slug: str) -> str:
        return f"{self.module(module_id)}#exercise-{exercise_slug}"

    def section(self, module_id: int, number: str) -> str:
        return f"{self.module(module_id)}#s-{number}"

    def lab(self, module_id: int, lab_slug: str) -> str:
        """The lab's card on its module's page (the lab's own page is `lab`)."""
        return f"{self.module(module_id)}#lab-{lab_slug}"


def course_links_from(course_slug: str, course_modules: Iterable[CourseModule],
                      student_at: datetime | None = None) -> CourseLinks:
    """`course_links` from the course's CourseModule rows already read (with their module);
    no query."""
    rows = list(course_modules)
    return CourseLinks(
        course_slug=course_slug, module_slugs={cm.module_id: cm.module.slug for cm in rows},
        not_open=frozenset(cm.module_id for cm in rows
                           if student_at is not None and not cm.released(student_at)))


def course_links(course: Course, *, student_at: datetime | None = None) -> CourseLinks:
    """The links into `course`'s pages, from the modules it runs (the content cache: no
    query once cached; most student pages and redirects start with it). `student_at`: the
    links are for a student at that moment (a module released later has no page for them
    yet); None: for staff, who open every module."""
    modules = course_modules(course_id=course.pk).values()
    return course_links_from(course.slug, modules, student_at=student_at)
