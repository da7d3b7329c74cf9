"""The course team's page of an assessment: attempts (reopen one with a reason), release
of feedback and key, accommodations, item analysis and the audit log."""

from collections.abc import Callable
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_POST

from exams.models import Attempt
from exams.services import AttemptRefused
from exams.staff import (
    access_code_set,
    accommodation_set,
    attempt_reopen,
    feedback_release,
    window_extend,
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
    place = staff_place(user=request.user, course_slug=course_slug, slug=slug)
    return render(request, "exams/staff.html", {
        "course": place.course, "assessment": place.assessment,
        "is_instructor": place.enrollment.role == "instructor",
        "attempts": attempts_for_staff(place), "release": release_of(place),
        "accommodations": accommodations_for_staff(place), "audit": audit_for_staff(place),
        "analysis": item_analysis(place), "access_code": access_code_of(place),
        "extensions": extensions_for_staff(place)})


def _int(value: str | None, default: int) -> int:
    text = (value or "").strip()
    return int(text) if text.isdigit() and len(text) < 7 else default


@login_required
@require_POST
def release(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = staff_place(user=request.user, course_slug=course_slug, slug=slug)

    def act() -> str:
        feedback_release(assessment=place.assessment, course=place.course,
                         by=cast(User, request.user), feedback="feedback" in request.POST,
                         key="key" in request.POST)
        return "The release is saved."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def accommodation(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = staff_place(user=request.user, course_slug=course_slug, slug=slug)
    student = User.objects.filter(username=str(request.POST.get("username", ""))[:150]).first()
    try:
        factor = float(str(request.POST.get("time_factor", "1"))[:10])
    except ValueError:
        factor = 0.0

    def act() -> str:
        if student is None:
            raise AttemptRefused("No student has that user name.")
        accommodation_set(course=place.course, student=student, time_factor=factor,
                          extra_attempts=_int(request.POST.get("extra_attempts"), -1),
                          by=cast(User, request.user))
        return f"The accommodation of {student.username} is saved."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def reopen(request: HttpRequest, course_slug: str, slug: str, attempt_id: int) -> HttpResponse:
    place = staff_place(user=request.user, course_slug=course_slug, slug=slug)
    if not Attempt.objects.filter(pk=attempt_id, assessment=place.assessment,
                                  course=place.course).exists():
        raise Http404("No such attempt.")

    def act() -> str:
        attempt_reopen(attempt_id=attempt_id, by=cast(User, request.user),
                       minutes=_int(request.POST.get("minutes"), 0),
                       reason=str(request.POST.get("reason", ""))[:250])
        return "The attempt is open again."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def access_code(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = staff_place(user=request.user, course_slug=course_slug, slug=slug)

    def act() -> str:
        access_code_set(assessment=place.assessment, course=place.course,
                        code=str(request.POST.get("access_code", "")), by=cast(User, request.user))
        return "The access code is saved."
    return _acted(request, course_slug, slug, act)


@login_required
@require_POST
def extension(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    place = staff_place(user=request.user, course_slug=course_slug, slug=slug)
    student = User.objects.filter(username=str(request.POST.get("username", ""))[:150]).first()
    when = parse_datetime(str(request.POST.get("closes_at", ""))[:40])

    def act() -> str:
        if student is None:
            raise AttemptRefused("No student has that user name.")
        if when is None:
            raise AttemptRefused("Give the new close as a date and time.")
        closes_at = timezone.make_aware(when) if timezone.is_naive(when) else when
        window_extend(assessment=place.assessment, course=place.course, student=student,
                      closes_at=closes_at, reason=str(request.POST.get("reason", ""))[:300],
                      by=cast(User, request.user))
        return f"The window of {student.username} is extended."
    return _acted(request, course_slug, slug, act)
