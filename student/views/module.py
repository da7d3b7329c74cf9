"""Course pages: the home page with a user's courses and progress, the course page (its
module, or an overview of its modules) and the page of one module."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from courses.models import Enrollment, Figure
from labs.simulations.word_vectors import PARAMS, WORDS
from student.course_progress import course_progress_for_student
from student.module_page import CoursePlan, course_plan_for_user, module_page_for_student
from student.views.answers import PART_TAG

#: The word pair Figure 5.1 highlights until the student chooses another: the lab's defaults.
DEFAULT_PAIR = (PARAMS["word_a"]["default"], PARAMS["word_b"]["default"])


def _pair(request: HttpRequest) -> tuple[str, str]:
    a, b = request.GET.get("a", DEFAULT_PAIR[0]), request.GET.get("b", DEFAULT_PAIR[1])
    return (a if a in WORDS else DEFAULT_PAIR[0], b if b in WORDS else DEFAULT_PAIR[1])


def _row(request: HttpRequest) -> int | None:
    value = request.GET.get("row", "")
    return int(value) if value.isdigit() and len(value) < 4 else None


def _revealed(request: HttpRequest) -> set[str]:
    """Figures the student chose to look at (kept open although a prediction is still due)."""
    shown = set()
    if "a" in request.GET or "b" in request.GET:
        shown.add(Figure.Kind.WORD_VECTORS.value)
    if "row" in request.GET:
        shown.add(Figure.Kind.ALIGNMENT_GRID.value)
    return shown


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The signed-in user's courses, each with the module's sections and their progress."""
    courses = course_progress_for_student(user=request.user)
    # The link to create a course, for instructors (read from the list: no extra query) and
    # superusers; other holders of courses.add_course open /courses/new/ directly.
    creates = request.user.is_superuser or any(
        cp.role == Enrollment.Role.INSTRUCTOR for cp in courses)
    return render(request, "student/home.html", {"courses": courses, "creates": creates})


@login_required
@require_GET
def course_module(request: HttpRequest, course_slug: str) -> HttpResponse:
    """The course page (404 for a course the user is not in): a course of one module shows
    that module, section by section, with the student's own work; a course of several
    modules lists them (progress, due dates, when one opens) with a link to each one's page,
    and a course with no module yet says so. `?a=&b=` choose Figure 5.1's words, `?row=`
    Figure 5.6's row."""
    plan = _member_plan(request, course_slug)
    if plan.several or not plan.course_modules:
        (progress,) = course_progress_for_student(user=request.user, plan=plan)
        return render(request, "student/course.html", {"cp": progress, "course": plan.course})
    return _module_response(request, plan=plan)


@login_required
@require_GET
def module_page(request: HttpRequest, course_slug: str, module_slug: str) -> HttpResponse:
    """One module of the course, section by section, with the student's own work and the way
    to the previous and next module; 404 for a module the course does not run and, for a
    student, for one not released yet (staff see it)."""
    plan = _member_plan(request, course_slug)
    return _module_response(request, plan=plan, module_slug=module_slug)


def _member_plan(request: HttpRequest, course_slug: str) -> CoursePlan:
    """The course plan of a member; 404 for anyone else (a course not yours is not shown)."""
    plan = course_plan_for_user(user=request.user, course_slug=course_slug)
    if plan is None:
        raise Http404("No such course.")
    return plan


def _not_open(plan: CoursePlan, module_slug: str | None) -> str:
    shown = plan.course_module(module_slug) if module_slug else None
    if shown is None:
        return "No such module in this course."
    when = shown.release_at
    return f"This module opens on {when:%d %B %Y}." if when else "This module is not open yet."


def _module_response(request: HttpRequest, *, plan: CoursePlan,
                     module_slug: str | None = None) -> HttpResponse:
    # Messages about one part (a refused answer) are shown at that part, the rest on top.
    notices: dict[int, str] = {}
    others = []
    for message in messages.get_messages(request):
        tag = next((t for t in message.extra_tags.split() if t.startswith(PART_TAG)), "")
        if tag[len(PART_TAG):].isdigit():
            notices[int(tag[len(PART_TAG):])] = str(message)
        else:
            others.append(message)
    page = module_page_for_student(user=request.user, plan=plan, notices=notices,
                                   module_slug=module_slug)
    if page is None:
        raise Http404(_not_open(plan, module_slug))
    if page.module is None:  # a course running no module has no module page (see course.html)
        raise Http404("This course runs no module yet.")
    shown = {p.id for s in page.sections for e in (*s.predictions, *s.exercises) for p in e.parts}
    # A refusal about a part the page does not show (a module not open yet) goes on top.
    others.extend(message for part_id, message in notices.items() if part_id not in shown)
    return render(request, "student/module.html", {
        "messages": others,
        "page": page, "enrollment": page.enrollment, "course": page.course,
        "module": page.module, "pair": _pair(request), "row": _row(request),
        "revealed": _revealed(request),
    })
