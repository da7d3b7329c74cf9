"""Web pages of grading: answer a part (in place from the page's script, else a plain POST
and redirect), preview how an answer is read, and a student's own submissions with their
status."""

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.not_found import NotFound
from courses.access import is_staff_role
from courses.models import Course, Part
from courses.page_links import course_links
from grading.answer_form import AnswerForm
from grading.preview import answer_preview
from grading.services import MAX_ANSWER, SubmissionRefused, submission_create
from student.selectors import (
    StudentPart,
    SubmissionDetail,
    part_for_student,
    part_view_for_student,
    submission_for_student,
)


def _part_url(course: Course, part: Part, *, staff: bool = False) -> str:
    """The part on its module's page (the course page while the module is not open to a
    student, so that a refusal is still shown there)."""
    links = course_links(course, student_at=None if staff else timezone.now())
    return links.part(part.exercise.module_id, part.pk)


def _target_url(target: StudentPart) -> str:
    return _part_url(target.course, target.part, staff=is_staff_role(target.enrollment.role))


#: Sent by config/static/grader.js: answer in place, reply with the part's new state only.
FRAGMENT_HEADER = "X-Answer-Fragment"
#: The tag of a message about one part (shown at that part on the module page).
PART_TAG = "part-"


@login_required
@require_POST
def part_answer(request: HttpRequest, course_slug: str, part_id: int) -> HttpResponse:
    """Store and grade the answer. From the page's script (header X-Answer-Fragment), reply
    with the part's new state as an HTML fragment that replaces it; without JavaScript, go
    back to the part on the module page (PRG).

    An unreadable answer is stored as invalid (no attempt used) and its message is shown
    beside the part; a refusal (deadline passed, no attempts left, not enrolled) is shown
    at the part too, in the fragment or on the page it redirects to.
    """
    target = _part(request, course_slug, part_id)
    form = AnswerForm(request.POST)
    notice = ""
    if not form.is_valid():
        notice = form.error_text()
    else:
        try:
            submission_create(student=cast(User, request.user), course=target.course,
                              part=target.part, raw_answer=form.cleaned_answer(),
                              enrollment=target.enrollment, variant=target.variant,
                              dates=target.dates)
        except SubmissionRefused as exc:
            notice = str(exc)
    if request.headers.get(FRAGMENT_HEADER) == "1":
        part = part_view_for_student(user=request.user, target=target, notice=notice)
        return render(request, "student/_part.html", {
            "part": part, "course": target.course, "exercise": target.part.exercise})
    if notice:
        messages.error(request, notice, extra_tags=f"{PART_TAG}{part_id}")
    return HttpResponseRedirect(_target_url(target))


@login_required
@require_GET
def part_fragment(request: HttpRequest, course_slug: str, part_id: int) -> HttpResponse:
    """The part's current state as the HTML fragment of the module page: the page's script
    swaps it in when a prediction's lab run has finished, instead of reloading the page
    (which lost what the student had typed in other parts, and their place)."""
    target = _part(request, course_slug, part_id)
    part = part_view_for_student(user=request.user, target=target, notice="")
    return render(request, "student/_part.html", {
        "part": part, "course": target.course, "exercise": target.part.exercise})


@login_required
@require_http_methods(["GET", "POST"])
def part_preview(request: HttpRequest, course_slug: str, part_id: int) -> HttpResponse:
    """How an answer would be read. GET `?answer=` gives JSON (for the live preview); a POST
    from the answer form's Preview button (no JavaScript) gives a page with the form again."""
    target = _part(request, course_slug, part_id)
    data = request.POST if request.method == "POST" else request.GET
    raw = str(data.get("answer", ""))[:MAX_ANSWER]
    try:
        preview = answer_preview(raw=raw, spec=target.part.spec)
    except ValueError:
        return JsonResponse({"error": "This question has no preview."}, status=404)
    if request.method == "GET":
        return JsonResponse(preview.as_dict())
    return render(request, "student/preview.html", {
        "course": target.course, "part": target.part, "raw": raw, "preview": preview,
        "question": target.question, "part_prompt": target.part_prompt,
        "back": _target_url(target),
    })


def _part(request: HttpRequest, course_slug: str, part_id: int) -> StudentPart:
    target = part_for_student(user=request.user, course_slug=course_slug, part_id=part_id)
    if target is NotFound.COURSE:
        raise Http404("No such course.")
    if target is NotFound.ITEM:
        raise Http404("No such question.")
    return target


def _own_submission(request: HttpRequest, course_slug: str, submission_id: int,
                    ) -> SubmissionDetail:
    detail = submission_for_student(user=request.user, course_slug=course_slug,
                                    submission_id=submission_id)
    if detail is None:
        raise Http404("No such answer.")
    return detail


@login_required
@require_GET
def submission_detail(request: HttpRequest, course_slug: str, submission_id: int) -> HttpResponse:
    """One of the student's own answers: as typed, as read, the verdict and feedback."""
    detail = _own_submission(request, course_slug, submission_id)
    return render(request, "student/submission_detail.html", {
        "course": detail.submission.course, "detail": detail, "submission": detail.submission,
        "back": _part_url(detail.submission.course, detail.submission.part),
    })


@login_required
@require_GET
def submission_status(request: HttpRequest, course_slug: str, submission_id: int) -> JsonResponse:
    """A small JSON status of one of the student's answers, polled while it is graded."""
    detail = _own_submission(request, course_slug, submission_id)
    submission = detail.submission
    return JsonResponse({
        "outcome": submission.outcome, "label": submission.get_outcome_display(),
        "waiting": detail.waiting,
    })
