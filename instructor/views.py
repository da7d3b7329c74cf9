"""Dashboard pages: each parses its input and calls one selector or service."""

import base64
from collections.abc import Callable
from functools import wraps
from typing import IO, Any, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.query_params import int_param
from courses.course_sync import (
    course_repository_connect,
    course_sync_archive,
    course_sync_repository,
)
from courses.models import ContentRepository, Exercise
from courses.repository import RepositoryRefused
from courses.selectors import content_page
from grading.author_preview import exercise_preview
from grading.deadlines import (
    deadline_list,
    deadline_policy_of,
    deadline_policy_set,
    deadline_set,
    deadline_set_module,
    extension_granters,
    extension_set,
    policy_zone,
)
from grading.overrides import grade_override_create
from grading.reviews import review_create
from grading.staff import StaffActionRefused
from instructor import exports
from instructor.access import StaffAccess, dashboard_access
from instructor.forms import (
    DeadlineForm,
    DeadlinePolicyForm,
    ExtensionForm,
    ModuleDeadlineForm,
    OverrideForm,
    ReviewForm,
)
from instructor.labs import labs_overview
from instructor.misconceptions import misconception_profile
from instructor.module_filter import ModuleFilter, module_filter
from instructor.overview import course_overview
from instructor.progress import PER_PAGE, class_progress
from instructor.review_queue import review_queue
from instructor.statistics import part_detail, question_statistics
from instructor.students import student_detail
from interchange.bundles import MODULE_NAME, moodle_import_bundle
from interchange.safe_xml import MAX_XML_BYTES

View = Callable[..., HttpResponseBase]


def staff_view(view: View) -> View:
    """Sign-in required; then the course's instructors and TAs only (404 for other courses,
    403 for its students). The view receives `access` instead of the course slug."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, course_slug: str, **kwargs: Any) -> HttpResponseBase:
        access = dashboard_access(user=request.user, course_slug=course_slug)
        return view(request, access, **kwargs)

    return wrapper


def _page(request: HttpRequest, access: StaffAccess, template: str, nav: str,
          **context: Any) -> HttpResponse:
    return render(request, f"instructor/{template}",
                  {"access": access, "course": access.course, "nav": nav, **context})


def _modules(request: HttpRequest, access: StaffAccess) -> ModuleFilter:
    """The module chosen with `?module=<slug>` (none: every module)."""
    return module_filter(course=access.course, slug=request.GET.get("module", "").strip()[:100])


def _errors(request: HttpRequest, form: Any) -> None:
    for field, problems in form.errors.items():
        label = "" if field == "__all__" else f"{field}: "
        for problem in problems:
            messages.error(request, f"{label}{problem}")


def _submit(request: HttpRequest, form: Any, act: Callable[[dict[str, Any]], object],
            success: str) -> None:
    """Validate `form`, then `act(cleaned_data)`; report the outcome as messages."""
    if not form.is_valid():
        _errors(request, form)
        return
    try:
        act(form.cleaned_data)
    except StaffActionRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, success)


@require_GET
@staff_view
def overview(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    modules = _modules(request, access)
    return _page(request, access, "overview.html", "overview", modules=modules,
                 overview=course_overview(course=access.course, module_id=modules.module_id))


@require_GET
@staff_view
def matrix(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    modules = _modules(request, access)
    progress = class_progress(
        module_id=modules.module_id,
        course=access.course, group=request.GET.get("group", "").strip(),
        search=request.GET.get("q", "").strip()[:100], sort=request.GET.get("sort", "name"),
        descending=request.GET.get("desc") == "1", page=int_param(request.GET.get("page")),
        per_page=int_param(request.GET.get("per_page"), PER_PAGE),
    )
    filters = urlencode({k: v for k, v in (("group", progress.group), ("q", progress.search))
                         if v})
    keep = f"{filters}&" if filters else ""  # what the module links keep
    base_query = keep + modules.query
    page_query = (f"{base_query}sort={progress.sort}&" + ("desc=1&" if progress.descending else "")
                  + f"per_page={progress.per_page}&")
    csv_query = urlencode({k: v for k, v in (("group", progress.group),
                                             ("module", modules.slug)) if v})
    return _page(request, access, "matrix.html", "matrix", progress=progress, modules=modules,
                 keep=keep, base_query=base_query, page_query=page_query, csv_query=csv_query)


@require_GET
@staff_view
def statistics(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    group = request.GET.get("group", "").strip()
    modules = _modules(request, access)
    keep = f"{urlencode({'group': group})}&" if group else ""
    return _page(request, access, "statistics.html", "statistics", group=group,
                 modules=modules, keep=keep,
                 statistics=question_statistics(course=access.course, group=group,
                                                module_id=modules.module_id))


@require_GET
@staff_view
def part(request: HttpRequest, access: StaffAccess, part_id: int) -> HttpResponse:
    group = request.GET.get("group", "").strip()
    detail = part_detail(course=access.course, part_id=part_id, group=group)
    if detail is None:
        raise Http404("No such question in this course.")
    return _page(request, access, "part.html", "statistics", group=group, detail=detail)


@require_http_methods(["GET", "POST"])
@staff_view
def preview(request: HttpRequest, access: StaffAccess, exercise_id: int) -> HttpResponse:
    """The exercise as a student sees it in variant ?variant=N; a POST grades the answers
    typed (answer-<part key>) in that variant, a part marked against earlier answers with
    the earlier answers typed for it (earlier.<part key>.<earlier part key>), and stores
    nothing."""
    exercise = Exercise.objects.filter(pk=exercise_id, module_id__in=access.course.module_ids(),
                                       archived_at__isnull=True).first()
    if exercise is None:
        raise Http404("No such exercise in this course.")
    data = request.POST if request.method == "POST" else request.GET
    answers = {k.removeprefix("answer-"): str(request.POST.get(k, ""))[:2000]
               for k in request.POST if k.startswith("answer-")}
    earlier = {k: str(request.POST.get(k, ""))[:2000]
               for k in request.POST if k.startswith("earlier.")}
    try:
        shown = exercise_preview(exercise=exercise, number=int_param(data.get("variant"), 0),
                                 answers=answers, earlier=earlier)
    except ValueError as exc:
        raise Http404(str(exc)) from None
    return _page(request, access, "preview.html", "statistics", preview=shown)


@require_GET
@staff_view
def misconceptions(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    group = request.GET.get("group", "").strip()
    profile = misconception_profile(course=access.course, group=group,
                                    page=int_param(request.GET.get("page")))
    page_query = f"{urlencode({'group': group})}&" if group else ""
    return _page(request, access, "misconceptions.html", "misconceptions", group=group,
                 profile=profile, page_query=page_query)


@require_GET
@staff_view
def labs(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    return _page(request, access, "labs.html", "labs", labs=labs_overview(course=access.course))


@require_GET
@staff_view
def student(request: HttpRequest, access: StaffAccess, student_id: int) -> HttpResponse:
    detail = student_detail(course=access.course, student_id=student_id)
    if detail is None:
        raise Http404("No such student in this course.")
    return _page(request, access, "student.html", "matrix", detail=detail,
                 may_extend=access.role in extension_granters(course=access.course),
                 zone=policy_zone(deadline_policy_of(course=access.course)))


@require_POST
@staff_view
def student_override(request: HttpRequest, access: StaffAccess, student_id: int) -> HttpResponse:
    _submit(request, OverrideForm(request.POST), lambda data: grade_override_create(
        course=access.course, student_id=student_id, part_id=data["part"],
        points=data["points"], reason=data["reason"], by=access.user,
    ), "Grade overridden; the change is in the audit trail.")
    return redirect(_url("student", access, student_id=student_id))


@require_POST
@staff_view
def student_extension(request: HttpRequest, access: StaffAccess, student_id: int) -> HttpResponse:
    # extension_set refuses whoever may not grant one (TAs, unless the course lets them).
    with timezone.override(policy_zone(deadline_policy_of(course=access.course))):
        form = ExtensionForm(request.POST)
        form.is_valid()
    _submit(request, form, lambda data: extension_set(
        course=access.course, exercise_id=data["exercise"], student_id=student_id,
        due_at=data["due_at"], reason=data["reason"], by=access.user,
    ), "Extension saved.")
    return redirect(_url("student", access, student_id=student_id))


@require_GET
@staff_view
def reviews(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    queue = review_queue(course=access.course, page=int_param(request.GET.get("page")))
    return _page(request, access, "reviews.html", "reviews", queue=queue)


@require_POST
@staff_view
def review(request: HttpRequest, access: StaffAccess, submission_id: int) -> HttpResponse:
    _submit(request, ReviewForm(request.POST), lambda data: review_create(
        course=access.course, submission_id=submission_id, reviewer=access.user,
        points=data["points"], comment=data["comment"],
    ), "Review saved; the student sees your score and comment.")
    return redirect(_url("reviews", access) + f"?page={int_param(request.POST.get('page'))}")


@staff_view
def deadlines(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    if request.method == "POST":
        if not access.can_manage_deadlines:
            raise PermissionDenied("Only the course's instructors change deadlines.")
        action = request.POST.get("action", "exercise")
        # Dates typed on this page are in the course's time zone.
        with timezone.override(policy_zone(deadline_policy_of(course=access.course))):
            if action == "policy":
                _submit(request, DeadlinePolicyForm(request.POST), lambda data: deadline_policy_set(
                    course=access.course, time_zone=data["time_zone"], late=data["late"],
                    late_share=data["late_percent"] / 100, late_days=data["late_days"],
                    tas_grant_extensions=data["tas_grant_extensions"], by=access.user,
                ), "Deadline rules saved.")
            elif action == "module":
                _submit(request, ModuleDeadlineForm(request.POST), lambda data: deadline_set_module(
                    course=access.course, due_at=data["due_at"], by=access.user,
                    module_id=data["module"],
                ), "Due date set for every exercise of the module.")
            else:
                _submit(request, DeadlineForm(request.POST), lambda data: deadline_set(
                    course=access.course, exercise_id=data["exercise"], due_at=data["due_at"],
                    by=access.user,
                ), "Deadline saved.")
        return redirect(_url("deadlines", access))
    return _page(request, access, "deadlines.html", "deadlines",
                 deadlines=deadline_list(course=access.course))


def _csv_response(lines: Any, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
@staff_view
def gradebook_csv(request: HttpRequest, access: StaffAccess) -> StreamingHttpResponse:
    group = request.GET.get("group", "").strip()
    modules = _modules(request, access)
    lines = exports.gradebook_csv(course=access.course, group=group, module_id=modules.module_id)
    suffix = f"-{modules.slug}" if modules.selected else ""
    return _csv_response(lines, f"{access.course.slug}{suffix}-gradebook.csv")


@require_GET
@staff_view
def submissions_csv(request: HttpRequest, access: StaffAccess) -> StreamingHttpResponse:
    return _csv_response(exports.submissions_csv(course=access.course),
                         f"{access.course.slug}-submissions.csv")


def _url(name: str, access: StaffAccess, **kwargs: Any) -> str:
    return reverse(f"dashboard:{name}", kwargs={"course_slug": access.course.slug, **kwargs})


@staff_view
def content(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    """The course's content repository: connect it, preview or sync it, and past syncs.

    Only instructors change or sync; a sync runs synchronously within the fetch time limit
    (CONTENT_REPOSITORY_TIMEOUT_SECONDS) and its record is shown after the redirect.
    """
    course = access.course
    if request.method == "POST":
        if not access.can_manage_deadlines:
            raise PermissionDenied("Only the course's instructors sync its content.")
        action = request.POST.get("action", "")
        dry_run = action in ("preview", "preview-archive")
        record = None
        if action == "connect":
            try:
                course_repository_connect(course=course, user=access.user,
                                          url=request.POST.get("url", ""),
                                          branch=request.POST.get("branch", "").strip() or "main")
                messages.success(request, "Repository connected.")
            except RepositoryRefused as exc:
                messages.error(request, f"Repository refused: {exc}")
        elif action in ("sync", "preview"):
            if not ContentRepository.objects.filter(course=course).exists():
                messages.error(request, "Connect a repository first.")
            else:
                record = course_sync_repository(course=course, user=access.user, dry_run=dry_run)
        elif action == "import-moodle":
            return _moodle_import(request, access)
        elif action == "download-import":
            return _import_download(request)
        elif action in ("sync-archive", "preview-archive") and "archive" in request.FILES:
            upload = cast(UploadedFile, request.FILES["archive"])
            record = course_sync_archive(course=course, user=access.user,
                                         upload=cast(IO[bytes], upload),
                                         name=upload.name or "archive", dry_run=dry_run)
        else:
            messages.error(request, "Choose an archive to upload.")
        url = _url("content", access)
        return redirect(f"{url}?sync={record.pk}" if record else url)
    page = content_page(course=course, shown_id=int_param(request.GET.get("sync"), default=0))
    return _page(request, access, "content.html", "content", repository=page.repository,
                 syncs=page.syncs, shown=page.shown)


def _moodle_import(request: HttpRequest, access: StaffAccess) -> HttpResponse:
    """A Moodle XML upload imported as a new module folder: its report, files and zip shown."""
    upload = request.FILES.get("questions")
    if upload is None:
        messages.error(request, "Choose a Moodle XML file to import.")
        return redirect(_url("content", access))
    if (upload.size or 0) > MAX_XML_BYTES:
        messages.error(request, f"The file is larger than {MAX_XML_BYTES:,} bytes; refused.")
        return redirect(_url("content", access))
    try:
        bundle = moodle_import_bundle(data=upload.read(), module=request.POST.get("module", ""),
                                      title=request.POST.get("title", "").strip()[:200]
                                      or "Imported questions",
                                      gift=(upload.name or "").lower().endswith((".gift", ".txt")))
    except ValueError as exc:
        messages.error(request, f"Not imported: {exc}.")
        return redirect(_url("content", access))
    page = content_page(course=access.course, shown_id=0)
    return _page(request, access, "content.html", "content", repository=page.repository,
                 syncs=page.syncs, shown=None, imported=bundle,
                 imported_zip=base64.b64encode(bundle.archive).decode("ascii"))


def _import_download(request: HttpRequest) -> HttpResponse:
    """The zip of an import shown on the page, sent back by the instructor who made it."""
    try:
        archive = base64.b64decode(request.POST.get("archive", ""), validate=True)
    except ValueError:
        return HttpResponse("Not a zip of an import.", status=400, content_type="text/plain")
    module = request.POST.get("module", "")
    if not archive.startswith(b"PK") or not MODULE_NAME.fullmatch(module):
        return HttpResponse("Not a zip of an import.", status=400, content_type="text/plain")
    response = HttpResponse(archive, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{module}.zip"'
    return response
