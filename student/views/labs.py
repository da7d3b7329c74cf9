"""Web pages of labs: the parameter form ("Run this section"), a run's page with its live
status, plot and key numbers, and the small JSON status the page polls."""

import uuid
from typing import cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from core.not_found import NotFound
from courses.access import is_staff_role
from courses.page_links import course_links
from labs.models import LabRun
from labs.selectors import lab_for_student, lab_run_for_student, lab_run_key_results
from labs.services import LabParamsInvalid, LabRunRefused, lab_run_plot, lab_run_request
from student.lab_forms import LabParamsForm


@login_required
@require_http_methods(["GET", "POST"])
def lab_detail(request: HttpRequest, course_slug: str, lab_slug: str) -> HttpResponse:
    """The lab's form with its defaults and bounds and the student's earlier runs; a POST
    requests a run and redirects to its page (or shows the form again with the errors)."""
    page = lab_for_student(user=request.user, course_slug=course_slug, lab_slug=lab_slug)
    if page is NotFound.COURSE:
        raise Http404("No such course.")
    if page is NotFound.ITEM:
        raise Http404("No such lab.")
    form = LabParamsForm(page.lab.param_schema, request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST" and not form.is_valid():
        status = 400
    elif request.method == "POST":
        try:
            run = lab_run_request(lab=page.lab, course=page.enrollment.course,
                                  requester=cast(User, request.user), params=form.params(),
                                  requester_is_staff=is_staff_role(page.enrollment.role))
        except LabParamsInvalid as exc:
            form.add_lab_errors(exc)
            status = 400
        except LabRunRefused as exc:
            if exc.code != "predict_first" or not page.predictions_due:
                form.add_error(None, str(exc))  # else the page's "Predict first" notice says it
            status = 409
        else:
            return HttpResponseRedirect(reverse("lab-run", args=[course_slug, run.uuid]))
    links = course_links(page.enrollment.course, student_at=None
                         if is_staff_role(page.enrollment.role) else timezone.now())
    return render(request, "student/labs/lab_detail.html", {
        "course": page.enrollment.course, "lab": page.lab, "form": form, "runs": page.runs,
        "back": links.lab(page.lab.module_id, page.lab.slug),
        "predictions_due": [(e, links.exercise(e.module_id, e.slug))
                            for e in page.predictions_due],
        "refused": status == 409,
    }, status=status)


def _own_run(request: HttpRequest, course_slug: str, run_uuid: uuid.UUID, *,
             with_result: bool = True) -> LabRun:
    run = lab_run_for_student(user=request.user, course_slug=course_slug, run_uuid=run_uuid,
                              with_result=with_result)
    if run is None:
        raise Http404("No such run.")
    return run


@login_required
@require_GET
def lab_run_detail(request: HttpRequest, course_slug: str, run_uuid: uuid.UUID) -> HttpResponse:
    """One of the student's runs: live status while it runs, then the plot and key numbers."""
    run = _own_run(request, course_slug, run_uuid)
    plot = lab_run_plot(run=run)
    return render(request, "student/labs/run_detail.html", {
        "course": run.course, "lab": run.lab, "run": run, "plot": plot,
        "key_results": lab_run_key_results(run=run),
    })


@login_required
@require_GET
def lab_run_status(request: HttpRequest, course_slug: str, run_uuid: uuid.UUID) -> JsonResponse:
    """The run's status and progress as JSON (polled by the run page)."""
    run = _own_run(request, course_slug, run_uuid, with_result=False)
    return JsonResponse({
        "status": run.status, "label": run.get_status_display(), "progress": run.progress,
        "finished": run.is_finished, "error": run.error,
    })
