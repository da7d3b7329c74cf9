"""Course pages: the home page listing a user's courses and the module page of a course."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from courses.selectors import course_list_for_user, enrollment_get, module_sections


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The signed-in user's courses."""
    courses = course_list_for_user(user=request.user)
    return render(request, "courses/home.html", {"courses": courses})


@login_required
def course_module(request: HttpRequest, course_slug: str) -> HttpResponse:
    """The module of a course, section by section (404 for a course the user is not in)."""
    enrollment = enrollment_get(user=request.user, course_slug=course_slug)
    sections = module_sections(course=enrollment.course)
    return render(
        request,
        "courses/module.html",
        {"enrollment": enrollment, "course": enrollment.course,
         "module": enrollment.course.module, "sections": sections},
    )
