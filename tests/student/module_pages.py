"""The module page as a member reads it, in the tests: the course plan, then the page."""

from typing import Any

from django.contrib.auth.models import User

from student.module_page import ModulePage, course_plan_for_user, module_page_for_student


def page_for(user: User, course_slug: str, **options: Any) -> ModulePage | None:
    """`module_page_for_student` for a member of the course (the plan read first, as the view
    does); AssertionError for anyone else, whose course the view does not show."""
    plan = course_plan_for_user(user=user, course_slug=course_slug)
    assert plan is not None, f"{user} is not a member of {course_slug}"
    return module_page_for_student(user=user, plan=plan, **options)
