"""The People tab of the dashboard (members, roles, a CSV upload, invite links) and the page
that creates a course. Each view parses its input and calls one service of courses.people."""

from collections.abc import Callable
from datetime import datetime, time
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.query_params import int_param
from courses.models import Enrollment, Module
from courses.password_links import password_link_create
from courses.people import (
    PeopleRefused,
    course_create_for,
    enrollment_active_change,
    enrollment_role_change,
    invite_create,
    invite_revoke,
    may_create_courses,
    people_page,
)
from courses.people_import import PEOPLE_CSV_MAX_BYTES, people_import
from exams.accommodations_csv import accommodations_apply, accommodations_read
from exams.services import AttemptRefused
from exams.staff import accommodation_set
from exams.staff_forms import AccommodationForm, form_problems
from exams.staff_selectors import course_accommodations
from instructor.access import StaffAccess
from instructor.forms import InviteForm
from instructor.views import staff_view


def _page(request: HttpRequest, access: StaffAccess, **context: Any) -> HttpResponse:
    return render(request, "instructor/people.html", {
        "access": access, "course": access.course, "nav": "people",
        "roles": Enrollment.Role.choices, "invite_base": request.build_absolute_uri("/invite/"),
        "search": "", "role": "",
        "accommodations": course_accommodations(course=access.course), **context})


def _people_url(access: StaffAccess) -> str:
    return reverse("dashboard:people", args=[access.course.slug])


def _instructors_only(access: StaffAccess) -> None:
    if not access.can_manage_deadlines:
        raise PermissionDenied("Only the course's instructors manage its people.")


@require_GET
@staff_view
def people(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    """Members (search `q`, `role`, `page`), invite links and, for instructors, the forms."""
    search = request.GET.get("q", "").strip()[:100]
    role = request.GET.get("role", "")
    shown = people_page(course=access.course, search=search, role=role,
                        page=int_param(request.GET.get("page"), 1))
    return _page(request, access, people=shown, search=search, role=role)


@require_POST
@staff_view
def people_upload(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    """A CSV of people: `action=preview` shows what it would do, `apply` does it."""
    _instructors_only(access)
    upload = request.FILES.get("people")
    if upload is None:
        messages.error(request, "Choose a CSV file to upload.")
        return redirect(_people_url(access))
    file = cast(UploadedFile, upload)
    if (file.size or 0) > PEOPLE_CSV_MAX_BYTES:
        messages.error(request, f"The file is larger than {PEOPLE_CSV_MAX_BYTES // 1_000_000} MB.")
        return redirect(_people_url(access))
    try:
        text = file.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        messages.error(request, "The file is not UTF-8 text (save it as CSV UTF-8).")
        return redirect(_people_url(access))
    filename = (file.name or "people.csv")[:100]
    accommodations = accommodations_read(text, filename)
    report = people_import(course=access.course, by=access.user, text=text, filename=filename,
                           apply=request.POST.get("action") == "apply"
                           and not accommodations.problems)
    if report.applied and accommodations.rows:
        accommodations = accommodations_apply(course=access.course, by=access.user,
                                              found=accommodations, filename=filename)
    shown = people_page(course=access.course)
    return _page(request, access, people=shown, report=report, accommodations_report=accommodations)


@require_POST
@staff_view
def accommodation(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    """Set one student's exam accommodation (time factor, extra attempts); instructors."""
    _instructors_only(access)
    form = AccommodationForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_problems(form))
        return redirect(_people_url(access) + "#accommodations")
    student = form.cleaned_data["username"]
    try:
        accommodation_set(course=access.course, student=student, by=access.user,
                          time_factor=form.cleaned_data["time_factor"],
                          extra_attempts=form.cleaned_data["extra_attempts"])
    except AttemptRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, f"The exam accommodation of {student.username} is saved.")
    return redirect(_people_url(access) + "#accommodations")


def _act(request: HttpRequest, access: StaffAccess, act: Callable[[], object],
         success: str) -> HttpResponse:
    try:
        act()
    except PeopleRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, success)
    return redirect(_people_url(access))


@require_POST
@staff_view
def member_role(request: HttpRequest, access: StaffAccess, enrollment_id: int) -> HttpResponse:
    _instructors_only(access)
    role = request.POST.get("role", "")
    return _act(request, access, lambda: enrollment_role_change(
        course=access.course, by=access.user, enrollment_id=enrollment_id, role=role),
        "Role changed.")


@require_POST
@staff_view
def member_password_link(request: HttpRequest, access: StaffAccess,
                         enrollment_id: int) -> HttpResponse:
    """A password link for a member who has no password yet, shown on the People page for the
    instructor to send (made again on each request: the page is not reloaded with it)."""
    _instructors_only(access)
    try:
        link = password_link_create(course=access.course, by=access.user,
                                     enrollment_id=enrollment_id)
    except PeopleRefused as refused:
        messages.error(request, str(refused))
        return redirect(_people_url(access))
    url = request.build_absolute_uri(reverse("password_reset_confirm", kwargs={
        "uidb64": link.uidb64, "token": link.token}))
    return _page(request, access, people=people_page(course=access.course),
                 password_link=link, password_url=url)


@require_POST
@staff_view
def member_active(request: HttpRequest, access: StaffAccess, enrollment_id: int) -> HttpResponse:
    _instructors_only(access)
    active = request.POST.get("active") == "1"
    return _act(request, access, lambda: enrollment_active_change(
        course=access.course, by=access.user, enrollment_id=enrollment_id, active=active),
        "Enrolment restored." if active else "Enrolment ended; the work is kept.")


def _end_of(day: str) -> datetime | None:
    date = parse_date(day) if day else None
    if date is None:
        return None
    return timezone.make_aware(datetime.combine(date, time(23, 59, 59)))


@require_POST
@staff_view
def invite_new(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    _instructors_only(access)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(error) for error in form.errors["max_uses"]))
        return redirect(_people_url(access))
    return _act(request, access, lambda: invite_create(
        course=access.course, by=access.user, role=request.POST.get("role", ""),
        expires_at=_end_of(request.POST.get("expires", "").strip()),
        max_uses=form.cleaned_data["max_uses"]), "Invite link created.")


@require_POST
@staff_view
def invite_end(request: HttpRequest, access: StaffAccess, invite_id: int) -> HttpResponse:
    _instructors_only(access)
    return _act(request, access, lambda: invite_revoke(
        course=access.course, by=access.user, invite_id=invite_id), "Invite link ended.")


@login_required
@require_http_methods(["GET", "POST"])
def new_course(request: HttpRequest) -> HttpResponse:
    """Create a course from synced modules; its creator becomes its instructor."""
    user = cast(User, request.user)
    if not may_create_courses(user):
        raise PermissionDenied("Creating courses is for instructors (or ask your operator).")
    modules = list(Module.objects.active().order_by("number"))
    error = ""
    if request.method == "POST":
        chosen = {int(v) for v in request.POST.getlist("modules") if v.isdigit()}
        try:
            course = course_create_for(
                by=user, title=request.POST.get("title", ""), slug=request.POST.get("slug", ""),
                modules=[m for m in modules if m.pk in chosen])
        except PeopleRefused as refused:
            error = str(refused)
        else:
            messages.success(request, f"Course '{course.title}' created. Connect its content "
                                      "repository here, then add people on the People tab.")
            return redirect(reverse("dashboard:content", args=[course.slug]))
    return render(request, "instructor/new_course.html", {
        "modules": modules, "error": error, "form": request.POST})
