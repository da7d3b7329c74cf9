"""The deep-linking picker: an instructor chooses sections, exercises and labs; the answer
goes back to the platform as a signed JWT in an auto-submitted form."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods
from lti_tool.models import LtiLaunch
from pylti1p3.exception import LtiException

from courses.models import Enrollment
from lti.message_launch import launch_restore
from lti.models import CourseLink
from lti.roles import course_role
from lti.selectors import picker_items
from lti.services.deep_linking import deep_link_response_jwt
from lti.views.launch import DEEP_LINK_LAUNCH_KEY


def _deep_link_launch(request: HttpRequest) -> LtiLaunch:
    launch_id = request.session.get(DEEP_LINK_LAUNCH_KEY)
    if not launch_id:
        raise PermissionDenied("Open this page from your course's \"add an activity\" menu.")
    try:
        launch = launch_restore(request, launch_id)
    except LtiException as error:
        raise PermissionDenied("This deep-linking request has expired; start again from "
                               "your course.") from error
    if not launch.is_deep_link_launch or course_role(launch.roles_claim or []) != \
            Enrollment.Role.INSTRUCTOR:
        raise PermissionDenied("Only the course's instructors can add activities.")
    return launch


@login_required
@require_http_methods(["GET", "POST"])
def deep_link(request: HttpRequest) -> HttpResponse:
    """GET: the picker for the course that the launch's context is. POST: the chosen items
    as LTI resource links (exercises with line items), sent back to the platform."""
    launch = _deep_link_launch(request)
    link = CourseLink.objects.select_related("course__module").get(context=launch.context)
    items = picker_items(course=link.course)
    if request.method == "POST":
        chosen = set(request.POST.getlist("item"))
        picked = [item for item in items if item.value in chosen]
        settings = launch.get_launch_data()[
            "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]
        return_url = str(settings.get("deep_link_return_url", ""))
        if not return_url.startswith(("https://", "http://")):
            raise PermissionDenied("The platform gave no web address to return to.")
        if picked:
            token = deep_link_response_jwt(launch=launch, items=picked,
                                           base_url=request.build_absolute_uri("/"))
            del request.session[DEEP_LINK_LAUNCH_KEY]
            return render(request, "lti/deep_link_return.html",
                          {"return_url": return_url, "jwt": token})
        return render(request, "lti/deep_link.html", {
            "course": link.course, "items": items, "context": launch.context,
            "error": "Choose at least one item."}, status=400)
    return render(request, "lti/deep_link.html",
                  {"course": link.course, "items": items, "context": launch.context})
