"""The course team's page of an assessment: attempts (reopen one with a reason), release
of feedback and key, accommodations, item analysis and the audit log."""

from collections.abc import Callable
from typing import NoReturn, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from core.not_found import found_or_404
from exams.models import Attempt
from exams.selectors import AssessmentPlace
from exams.services import AttemptRefused
from exams.staff import (
    access_code_set,
    accommodation_set,
    attempt_reopen,
    feedback_release,
    window_extend,
)
from exams.staff_forms import (
    AccessCodeForm,
    AccommodationForm,
    ExtensionForm,
    ReopenForm,
    form_problems,
)
from exams.staff_selectors import (
    access_code_of,
    accommodations_for_staff,
    attempts_for_staff,
    audit_for_staff,
    extensions_for_staff,
    item_analysis,
    release_of,
    staff_place,
)


def _staff_place(request: HttpRequest, course_slug: str, slug: str) -> AssessmentPlace:
    # Students and strangers are not shown that the page exists.
    return found_or_404(staff_place(user=request.user, course_slug=course_slug, slug=slug),
                        "No such page.")


def _back(course_slug: str, slug: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("exams:staff", args=[course_slug, slug]))


def _acted(request: HttpRequest, course_slug: str, slug: str,
           action: Callable[[], str]) -> HttpResponseRedirect:
    """Run a staff action that returns its success message or raises AttemptRefused; either
    way the course team is sent back to the assessment's page with the message shown."""
    try:
        messages.success(request, action())
    except AttemptRefused as exc:
        messages.error(request, str(exc))
    return _back(course_slug, slug)


@login_required
@require_GET
def staff_page(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    """Everything the course team reads and does about one assessment."""
    place = _staff_place(request, course_slug, slug)
    return render(request, "exams/staff.html", {
        "course": place.course, "assessment": place.assessment,
        "is_instructor": place.enrollment.role == "instructor",
        "attempts": attempts_for_staff(place), "release": release_of(place),
        "accommodations": accommodations_for_staff(place), "audit": audit_for_staff(place),
        "analysis": item_analysis(place), "access_code": access_code_of(place),
        "extensions": extensions_for_staff(place)})


def _refused(form: Form) -> NoReturn:
    """Raise AttemptRefused with the form's problems, for `_acted` to show."""
    raise AttemptRefused(form_problems(form))


@login_required
@require_POST
def release(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = _staff_place(request, course_slug, slug)

    def act() -> str:
        feedback_release(assessment=place.assessment, course=place.course,
                         by=cast(User, request.user), feedback="feedback" in request.POST,
                         key="key" in request.POST)
        return "The release is saved."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def accommodation(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = _staff_place(request, course_slug, slug)
    form = AccommodationForm(request.POST)

    def act() -> str:
        if not form.is_valid():
            return _refused(form)
        student = form.cleaned_data["username"]
        accommodation_set(course=place.course, student=student,
                          time_factor=form.cleaned_data["time_factor"],
                          extra_attempts=form.cleaned_data["extra_attempts"],
                          by=cast(User, request.user))
        return f"The accommodation of {student.username} is saved."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def reopen(request: HttpRequest, course_slug: str, slug: str, attempt_id: int) -> HttpResponse:
    place = _staff_place(request, course_slug, slug)
    if not Attempt.objects.filter(pk=attempt_id, assessment=place.assessment,
                                  course=place.course).exists():
        raise Http404("No such attempt.")
    form = ReopenForm(request.POST)

    def act() -> str:
        if not form.is_valid():
            return _refused(form)
        attempt_reopen(attempt_id=attempt_id, by=cast(User, request.user),
                       minutes=form.cleaned_data["minutes"], reason=form.cleaned_data["reason"])
        return "The attempt is open again."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def access_code(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = _staff_place(request, course_slug, slug)
    form = AccessCodeForm(request.POST)

    def act() -> str:
        if not form.is_valid():
            return _refused(form)
        access_code_set(assessment=place.assessment, course=place.course,
                        code=form.cleaned_data["access_code"], by=cast(User, request.user))
        return "The access code is saved."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def extension(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = _staff_place(request, course_slug, slug)
    form = ExtensionForm(request.POST)

    def act() -> str:
        if not form.is_valid():
            return _refused(form)
        student, closes_at = form.cleaned_data["username"], form.cleaned_data["closes_at"]
        window_extend(assessment=place.assessment, course=place.course, student=student,
                      closes_at=closes_at, reason=form.cleaned_data["reason"],
                      by=cast(User, request.user))
        return f"The window of {student.username} is extended."
    return _acted(request, course_slug, slug, act)
