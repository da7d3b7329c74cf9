"""The instructor's LMS sync page: score deliveries by state, "send again", roster read."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from lti_tool.models import LtiContext

from core.query_params import int_param
from courses.access import staff_enrollment_get
from courses.models import Course, Enrollment
from courses.roster import RosterInvalid, RosterMassDeactivation
from lti.ags.connector import PlatformError
from lti.ags.deliveries import score_delivery_resend
from lti.nrps.roster import roster_from_platform
from lti.scores_models import ScoreDelivery
from lti.sync.selectors import SHOWN_STATES, sync_health


@dataclass(frozen=True)
class _Access:
    course: Course
    role: str
    user: User


def _staff(request: HttpRequest, course_slug: str) -> _Access:
    enrollment = staff_enrollment_get(
        user=request.user, course_slug=course_slug,
        refusal="The dashboard is for the course's instructors and TAs.")
    return _Access(course=enrollment.course, role=enrollment.role, user=enrollment.user)


def _page_url(course: Course) -> str:
    return reverse("lti-sync:health", args=[course.slug])


@login_required
@require_GET
def health(request: HttpRequest, course_slug: str) -> HttpResponse:
    """Each student's latest score for the LMS and its delivery state, counts by state."""
    access = _staff(request, course_slug)
    state = request.GET.get("state") or None
    if state not in (None, *SHOWN_STATES):
        state = None
    report = sync_health(course=access.course, state=state,
                         page=int_param(request.GET.get("page")))
    contexts = LtiContext.objects.filter(course_link__course=access.course).exclude(
        memberships_url="")
    return render(request, "lti/sync_health.html", {
        "access": access, "course": access.course, "nav": "lms", "report": report,
        "state": state, "states": SHOWN_STATES, "contexts": contexts,
        "page_query": f"state={state}&" if state else "",
        "can_sync_roster": access.role == Enrollment.Role.INSTRUCTOR})


@login_required
@require_POST
def resend(request: HttpRequest, course_slug: str, delivery_id: int) -> HttpResponse:
    """Send a delivery's latest score again (instructors and TAs)."""
    access = _staff(request, course_slug)
    try:
        delivery = score_delivery_resend(course=access.course, delivery_id=delivery_id)
    except ScoreDelivery.DoesNotExist as exc:
        raise Http404("No such delivery in this course.") from exc
    messages.success(request, f"The score of {delivery.student.username} on "
                              f"{delivery.item_title} will be sent again.")
    return redirect(_page_url(access.course))


@login_required
@require_POST
def roster(request: HttpRequest, course_slug: str, context_id: int) -> HttpResponse:
    """Read the roster from the LMS now (instructors only); a mass deactivation needs the
    "confirm" box."""
    access = _staff(request, course_slug)
    if access.role != Enrollment.Role.INSTRUCTOR:
        raise PermissionDenied("Only instructors read the roster from the LMS.")
    context = (LtiContext.objects.select_related("deployment__registration")
               .filter(pk=context_id, course_link__course=access.course).first())
    if context is None:
        raise Http404("No such LMS course linked here.")
    try:
        diff = roster_from_platform(context=context, course=access.course,
                                    allow_mass_deactivation=request.POST.get("confirm") == "on")
    except (PlatformError, RosterInvalid, RosterMassDeactivation) as exc:
        messages.error(request, f"The roster was not changed: {exc}")
    else:
        messages.success(request, f"Roster read from the LMS: {len(diff.created)} added, "
                                  f"{len(diff.updated)} updated, {len(diff.deactivated)} "
                                  f"deactivated, {len(diff.unchanged)} unchanged.")
    return redirect(_page_url(access.course))
