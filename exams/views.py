"""The exam pages: an assessment's page (start an attempt), the attempt (the paper with the
drafts, a timer, Save and Submit; read-only once closed, with what the release policy
allows), and the draft-saving endpoint the page's script calls as the student types.

Every page works without JavaScript: Save posts the whole form, the page states the end
time, and the server enforces it (a save or a page load after the deadline closes the
attempt with the drafts saved before it)."""

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from core.not_found import found_or_404
from courses.access import is_staff_role
from exams.integrity import client_seen, integrity_refusal
from exams.models import Attempt, Proctoring
from exams.selectors import (
    AssessmentPlace,
    assessment_for_member,
    assessments_for_member,
    attempt_for_student,
    attempts_of,
    course_for_member,
    paper_view,
    parse_field_name,
)
from exams.services import (
    AttemptClosed,
    AttemptRefused,
    accommodation_of,
    attempt_close,
    attempt_start,
    closes_for,
    drafts_save,
)

#: Sent by exams/static/exams/attempt.js: answer with JSON, not a redirect.
SAVE_HEADER = "X-Exam-Save"


def _place(request: HttpRequest, course_slug: str, slug: str) -> AssessmentPlace:
    return found_or_404(assessment_for_member(user=request.user, course_slug=course_slug,
                                              slug=slug), "No such assessment in this course.")


def _own_attempt(request: HttpRequest, attempt_id: int) -> Attempt:
    # Anyone else's attempt is not shown to exist: students never see others' work.
    return found_or_404(attempt_for_student(user=request.user, attempt_id=attempt_id),
                        "No such attempt.")


def _attempt_url(attempt: Attempt) -> str:
    return reverse("exams:attempt", args=[attempt.course.slug, attempt.pk])


@login_required
@require_GET
def assessment_list(request: HttpRequest, course_slug: str) -> HttpResponse:
    """The course's quizzes and exams."""
    course = found_or_404(course_for_member(user=request.user, course_slug=course_slug),
                          "No such course.")
    return render(request, "exams/assessment_list.html", {
        "course": course, "assessments": assessments_for_member(course=course)})


@login_required
@require_GET
def assessment_page(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    """The assessment: its window, time limit and attempts, the student's attempts, Start."""
    place = _place(request, course_slug, slug)
    student = cast(User, request.user)
    accommodation = accommodation_of(course=place.course, student_id=student.pk)
    attempts = attempts_of(place=place, student_id=student.pk)
    now = timezone.now()
    closes_at = closes_for(assessment=place.assessment, course=place.course,
                           student_id=student.pk)
    return render(request, "exams/assessment.html", {
        "course": place.course, "assessment": place.assessment, "attempts": attempts,
        "is_staff": is_staff_role(place.enrollment.role),
        "open_attempt": next((a for a in attempts if a.closed_at is None), None),
        "allowed": place.assessment.attempts + accommodation.extra_attempts,
        "time_factor": accommodation.time_factor,
        "limit_minutes": round(place.assessment.time_limit_minutes * accommodation.time_factor),
        "in_window": place.assessment.opens_at <= now < closes_at, "closes_at": closes_at,
        "needs_code": Proctoring.objects.filter(assessment=place.assessment, course=place.course)
        .exclude(access_code="").exists()})


@login_required
@require_POST
def attempt_begin(request: HttpRequest, course_slug: str, slug: str) -> HttpResponse:
    """Start an attempt (or go back to the one in progress); a refusal is shown, nothing
    changes."""
    place = _place(request, course_slug, slug)
    refusal = integrity_refusal(place.assessment, client_seen(request))
    if refusal is not None:
        messages.error(request, refusal)
        return HttpResponseRedirect(reverse("exams:assessment", args=[course_slug, slug]))
    try:
        started = attempt_start(student=cast(User, request.user), course=place.course,
                                assessment=place.assessment,
                                access_code=str(request.POST.get("access_code", ""))[:100])
    except AttemptRefused as exc:
        messages.error(request, str(exc))
        return HttpResponseRedirect(reverse("exams:assessment", args=[course_slug, slug]))
    if started.resumed:
        messages.info(request, "This attempt is already in progress (perhaps in another "
                               "browser); here it is, with every answer saved so far.")
    return HttpResponseRedirect(_attempt_url(started.attempt))


@login_required
@require_GET
def attempt_page(request: HttpRequest, course_slug: str, attempt_id: int) -> HttpResponse:
    """The paper with the saved drafts while open (closed first if its deadline has passed),
    else the read-only review."""
    attempt = _own_attempt(request, attempt_id)
    if attempt.course.slug != course_slug:
        return HttpResponseRedirect(_attempt_url(attempt))
    if attempt.closed_at is None and timezone.now() >= attempt.deadline_at:
        attempt = attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.DEADLINE)
        attempt = _own_attempt(request, attempt_id)
    refusal = _refused_here(request, attempt)
    if refusal is not None:
        return render(request, "exams/refused.html", {
            "course": attempt.course, "assessment": attempt.assessment, "message": refusal},
            status=403)
    view = paper_view(attempt=attempt)
    return render(request, "exams/attempt.html", {
        "course": attempt.course, "assessment": attempt.assessment, "paper": view,
        "attempt": attempt, "now": timezone.now()})


def _refused_here(request: HttpRequest, attempt: Attempt) -> str | None:
    """Why this request may not work on the open attempt (the assessment's networks or Safe
    Exam Browser check), or None; a closed attempt's review is never refused."""
    if attempt.closed_at is not None:
        return None
    return integrity_refusal(attempt.assessment, client_seen(request))


def _drafts(request: HttpRequest) -> dict[tuple[str, str], str]:
    drafts = {}
    for name in request.POST:
        where = parse_field_name(name)
        if where is not None:
            drafts[where] = request.POST.get(name, "")
    return drafts


@login_required
@require_POST
def attempt_save(request: HttpRequest, course_slug: str, attempt_id: int) -> HttpResponse:
    """Save the drafts posted (one field from the script as the student types, or the whole
    form: Save, leaving the page). JSON for the script: `{saved_at}`, or 409 `{closed,
    message}` once the attempt is closed; without the script, back to the paper."""
    attempt = _own_attempt(request, attempt_id)
    scripted = request.headers.get(SAVE_HEADER) == "1"
    refusal = _refused_here(request, attempt)
    if refusal is not None:
        if scripted:
            return JsonResponse({"closed": False, "message": refusal}, status=403)
        messages.error(request, refusal)
        return HttpResponseRedirect(_attempt_url(attempt))
    try:
        saved = drafts_save(attempt_id=attempt.pk, student=cast(User, request.user),
                            drafts=_drafts(request))
    except AttemptClosed as exc:
        if scripted:
            return JsonResponse({"closed": True, "message": str(exc)}, status=409)
        messages.info(request, str(exc))
    except AttemptRefused as exc:
        if scripted:
            return JsonResponse({"closed": False, "message": str(exc)}, status=400)
        messages.error(request, str(exc))
    else:
        if scripted:
            return JsonResponse({"saved_at": saved.isoformat()})
        messages.success(request, f"Saved at {timezone.localtime(saved):%H:%M:%S}.")
    return HttpResponseRedirect(_attempt_url(attempt))


@login_required
@require_POST
def attempt_submit(request: HttpRequest, course_slug: str, attempt_id: int) -> HttpResponse:
    """Save the form's answers, then close and grade the attempt; show the review."""
    attempt = _own_attempt(request, attempt_id)
    refusal = _refused_here(request, attempt)
    if refusal is not None:
        messages.error(request, refusal)
        return HttpResponseRedirect(_attempt_url(attempt))
    try:
        drafts_save(attempt_id=attempt.pk, student=cast(User, request.user),
                    drafts=_drafts(request))
    except AttemptClosed as exc:
        messages.info(request, str(exc))
        return HttpResponseRedirect(_attempt_url(attempt))
    except AttemptRefused as exc:
        messages.error(request, str(exc))
        return HttpResponseRedirect(_attempt_url(attempt))
    attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT,
                  actor=cast(User, request.user))
    messages.success(request, "Your attempt is submitted.")
    return HttpResponseRedirect(_attempt_url(attempt))
