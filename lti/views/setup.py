"""The "LTI setup" page for site staff: the URLs to paste into Canvas or Moodle."""

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from lti_tool.models import LtiRegistration

from lti.selectors import tool_urls
from lti.services.keys import tool_key_ensure
from lti.services.registration import SCOPES


@staff_member_required
@require_GET
def setup(request: HttpRequest) -> HttpResponse:
    """The tool's JWKS, login-initiation, launch (redirect) and deep-linking URLs, the scopes,
    and each registered platform with its own login URL and deployments."""
    tool_key_ensure()
    base = request.build_absolute_uri("/")
    registrations = (LtiRegistration.objects.order_by("name").prefetch_related("deployments"))
    return render(request, "lti/setup.html", {
        "urls": tool_urls(base_url=base), "scopes": SCOPES,
        "register_url": request.build_absolute_uri("/lti/register/"),
        "registrations": [(r, tool_urls(base_url=base, registration=r)) for r in registrations],
    })
