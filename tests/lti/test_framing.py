"""The LMS may frame LTI pages (CSP frame-ancestors names the registered platforms); every
other page keeps X-Frame-Options: DENY."""

import pytest
import requests

from lti.models import PlatformFraming
from tests.lti.platform import INSTRUCTOR, LaunchSpec

pytestmark = pytest.mark.django_db(transaction=True)


def _directives(policy: str) -> dict[str, str]:
    pairs = (part.strip().partition(" ") for part in policy.split(";") if part.strip())
    return {name: value for name, _, value in pairs}


def test_pages_of_a_launched_session_name_the_platform_in_frame_ancestors(platform):
    PlatformFraming.objects.create(registration=platform.registration_in_tool,
                                   frame_ancestors="https://school.instructure.com")
    http, response = platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))

    page = http.get(platform.tool_url + response.headers["Location"], timeout=10)

    assert page.status_code == 200
    policy = _directives(page.headers["Content-Security-Policy"])
    origins = f"'self' {platform.issuer} https://school.instructure.com"
    assert (policy["frame-ancestors"], policy["form-action"]) == (origins, origins)
    assert (policy["default-src"], policy["script-src"]) == ("'self'", "'self'")
    assert "X-Frame-Options" not in page.headers
    launch_policy = _directives(response.headers["Content-Security-Policy"])  # the launch too
    assert launch_policy["frame-ancestors"] == origins


def test_pages_outside_an_lti_session_keep_x_frame_options_deny(platform):
    page = requests.get(platform.tool_url + "/accounts/login/", timeout=10)

    assert page.headers["X-Frame-Options"] == "DENY"
    policy = _directives(page.headers["Content-Security-Policy"])
    assert (policy["frame-ancestors"], policy["form-action"]) == ("'none'", "'self'")


def test_the_staff_setup_page_is_never_framed(platform, admin_client):
    page = admin_client.get("/lti/setup/")

    assert page.status_code == 200
    assert page["X-Frame-Options"] == "DENY"
    assert _directives(page["Content-Security-Policy"])["frame-ancestors"] == "'none'"
