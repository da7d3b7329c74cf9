"""Live pages: each parses its input and calls one service or selector.

Staff (under the course's dashboard): the sessions kept, open a question, the projector,
its controls and Run, a session's report and CSV. Students (at /live/): type a code, the
phone page (a plain form: without JavaScript they answer and reload to see the verdict).
"""

import csv
from collections.abc import Iterator
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.not_found import NotFound
from grading.answer_form import AnswerForm
from live.access import LiveStaff, live_session_for_staff, live_staff
from live.answers import LiveAnswerRefused, live_answer_submit
from live.codes import normalise_code
from live.forms import ControlForm, OpenForm, SettingsForm
from live.models import LiveSession, LiveSettings
from live.qr import qr_svg
from live.selectors import (
    PhoneView,
    live_phone_state,
    live_phone_view,
    live_question,
    live_room_state,
    live_session_rows,
    live_sessions_of_course,
)
from live.sessions import (
    LiveActionRefused,
    course_parts,
    live_session_control,
    live_session_open,
    live_session_run,
)
from live.settings import live_settings_get, live_settings_set


def _room_state(session: LiveSession) -> dict[str, Any]:
    state = live_room_state(session_id=session.pk)
    if state is None:  # deleted since it was read
        raise Http404("No such live session.")
    return state


def _course_session(staff: LiveStaff, session_id: int) -> LiveSession:
    session = live_session_for_staff(staff=staff, session_id=session_id)
    if session is None:
        raise Http404("No such live session.")
    return session

@login_required
@require_GET
def sessions(request: HttpRequest, course_slug: str) -> HttpResponse:
    """The course's live sessions kept (question, time, participation) and the form that
    opens a new one."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    return render(request, "live/sessions.html", {
        "access": staff, "course": staff.course, "nav": "live",
        "sessions": live_sessions_of_course(course_id=staff.course.pk)[:100],
        "parts": course_parts(staff=staff), "variants": LiveSession.Variant.choices,
        "settings": live_settings_get(course=staff.course),
        "scorings": LiveSettings.Scoring.choices,
    })


@login_required
@require_POST
def session_open(request: HttpRequest, course_slug: str) -> HttpResponse:
    """Open the chosen part for the room, then show its projector page."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    form = OpenForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a question and a variant.")
        return redirect("live:sessions", course_slug)
    try:
        session = live_session_open(staff=staff, part_id=form.cleaned_data["part"],
                                    variant=form.cleaned_data["variant"])
    except LiveActionRefused as exc:
        messages.error(request, str(exc))
        return redirect("live:sessions", course_slug)
    return redirect("live:projector", course_slug, session.pk)


@login_required
@require_POST
def settings_update(request: HttpRequest, course_slug: str) -> HttpResponse:
    """How the course counts live answers: graded, or participation only."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    form = SettingsForm(request.POST)
    if form.is_valid():
        live_settings_set(staff=staff, scoring=form.cleaned_data["scoring"])
        messages.success(request, "Saved how live answers count.")
    else:
        messages.error(request, "Choose how live answers count.")
    return redirect("live:sessions", course_slug)


@login_required
@require_GET
def projector(request: HttpRequest, course_slug: str, session_id: int) -> HttpResponse:
    """The page for the projector: question, join code and QR code, the room's answers as
    they come (drawn by static/live/projector.js, which this page needs), the controls."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    session = _course_session(staff, session_id)
    join_url = request.build_absolute_uri(reverse("live:phone", args=[session.code]))
    return render(request, "live/projector.html", {
        "course": staff.course, "session": session, "join_url": join_url,
        "join_short": request.build_absolute_uri(reverse("live:join")),
        "qr": qr_svg(join_url), "question": live_question(session=session),
    })


@login_required
@require_GET
def room_state(request: HttpRequest, course_slug: str, session_id: int) -> JsonResponse:
    """The projector's state as JSON (polled when the WebSocket is not available)."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    session = _course_session(staff, session_id)
    return JsonResponse(_room_state(session))


@login_required
@require_POST
def control(request: HttpRequest, course_slug: str, session_id: int) -> HttpResponse:
    """Close or reopen answering; show or hide the distribution."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    session = _course_session(staff, session_id)
    form = ControlForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Unknown action.")
    else:
        try:
            live_session_control(session=session, action=form.cleaned_data["action"])
        except LiveActionRefused as exc:
            messages.error(request, str(exc))
    return redirect("live:projector", course_slug, session.pk)


@login_required
@require_POST
def run(request: HttpRequest, course_slug: str, session_id: int) -> HttpResponse:
    """Run: close answering, run the lab on the workers, grade every locked prediction."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    session = _course_session(staff, session_id)
    try:
        live_session_run(session=session, staff=staff)
    except LiveActionRefused as exc:
        messages.error(request, str(exc))
    return redirect("live:projector", course_slug, session.pk)


@login_required
@require_GET
def report(request: HttpRequest, course_slug: str, session_id: int) -> HttpResponse:
    """One session afterwards: question, times, participation, distribution before and
    after the reveal."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    session = _course_session(staff, session_id)
    return render(request, "live/report.html", {
        "access": staff, "course": staff.course, "nav": "live", "session": session,
        "state": _room_state(session),
    })


@login_required
@require_GET
def answers_csv(request: HttpRequest, course_slug: str, session_id: int) -> StreamingHttpResponse:
    """The session's answers as CSV (one row per answer given, unreadable ones included)."""
    staff = live_staff(user=request.user, course_slug=course_slug)
    session = _course_session(staff, session_id)

    class Echo:
        def write(self, value: str) -> str:
            return value

    def rows() -> Iterator[str]:
        writer = csv.writer(Echo())
        yield writer.writerow(["session", "question", "opened_at", "run_at", "measured",
                               "student", "answered_at", "answer", "counted", "bucket",
                               "outcome", "score", "misconception"])
        head = [session.code, str(session.part), session.opened_at.isoformat(),
                session.run_at.isoformat() if session.run_at else "", session.measured]
        for row in live_session_rows(session=session).iterator(chunk_size=500):
            s = row.submission
            yield writer.writerow([*head, row.student.get_username(), row.created_at.isoformat(),
                                   _cell(s.raw_answer), "yes" if row.valid else "no", _cell(row.bucket),
                                   s.outcome, "" if s.score is None else f"{s.score:g}", s.misconception])

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="live-{session.code}.csv"'
    return response


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@login_required
@require_GET
def join(request: HttpRequest) -> HttpResponse:
    """Type the code shown on the projector (GET ?code= goes to its page)."""
    code = normalise_code(str(request.GET.get("code", "")))
    if code:
        return redirect("live:phone", code)
    return render(request, "live/join.html", {})


@login_required
@require_http_methods(["GET", "POST"])
def phone(request: HttpRequest, code: str) -> HttpResponse:
    """A student's page for the question: the answer form while answering is open, the
    locked-in answer, and once the lab has run, the verdict (reload without JavaScript)."""
    view = _phone_view(request, code)
    if request.method == "POST":
        form = AnswerForm(request.POST)
        if not form.is_valid():
            messages.error(request, form.error_text())
        else:
            try:
                live_answer_submit(session=view.session, student=cast(User, request.user),
                                   raw_answer=form.cleaned_answer())
            except LiveAnswerRefused as exc:
                messages.error(request, str(exc))
        return redirect("live:phone", view.session.code)
    return render(request, "live/phone.html", {"view": view, "session": view.session,
                                               "course": view.session.course})


@login_required
@require_GET
def phone_state(request: HttpRequest, code: str) -> JsonResponse:
    """A phone's state as JSON (polled when the WebSocket is not available)."""
    return JsonResponse(live_phone_state(view=_phone_view(request, code)))


def _phone_view(request: HttpRequest, code: str) -> PhoneView:
    view = live_phone_view(user=request.user, code=code)
    if view is NotFound.ITEM:
        raise Http404("No live question has this code. Check the code on the projector.")
    if view is NotFound.COURSE:
        raise Http404("This live question is for another course."
                      if request.user.is_authenticated else "No such live question.")
    return view
