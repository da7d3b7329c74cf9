"""Every page with a script under the site's Content-Security-Policy, in Chromium: the module
page's live preview and Figure 5.6, a lab run's polling, the dashboard's charts and Swagger UI
raise no CSP violation (and the policy is really there, strict: no 'unsafe-inline')."""

import pytest
from playwright.sync_api import Page, expect

from courses.models import Part
from tests.browser.conftest import sign_in
from tests.instructor.conftest import build_class

pytestmark = pytest.mark.services

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline")
                              + " at " + (e.sourceFile || "?") + ":" + e.lineNumber);
});
"""


@pytest.fixture
def violations(page: Page):
    """Reads the CSP violations the current page reported (events and console messages)."""
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.add_init_script(WATCH)

    def read() -> list[str]:
        return [*page.evaluate("window.__cspViolations || []"), *console]

    return read


def _policy(response) -> dict[str, str]:
    header = response.headers["content-security-policy"]
    pairs = (part.strip().partition(" ") for part in header.split(";") if part.strip())
    return {name: value for name, _, value in pairs}


def test_student_pages_with_scripts_raise_no_csp_violation(page: Page, live_server, requests_seen,
                                                           violations, alice, course):
    sign_in(page, live_server, "alice")
    response = page.goto(f"{live_server.url}/courses/{course.slug}/")
    assert response is not None
    policy = _policy(response)
    assert policy["script-src"].split()[0] == "'self'" and "unsafe" not in str(policy)
    assert policy["frame-ancestors"] == "'none'"

    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    box = page.locator(f"#part-{part.pk}")
    box.get_by_label("Your answer").fill("0.85^40")  # the preview: fetch, then MathML
    expect(box.locator(".preview math")).to_be_visible()
    grid = page.locator("[data-alignment-grid]")
    if grid.count() and grid.first.is_visible():
        grid.first.locator("a[data-row]").first.click()  # Figure 5.6's rows, without reloading

    page.locator("#lab-vanishing-gradient").get_by_role("link", name="Open the lab").click()
    page.get_by_label("Steps").fill("20")
    with page.expect_response(lambda r: r.request.resource_type == "fetch", timeout=30_000):
        page.get_by_role("button", name="Run the lab").click()  # no worker: it polls
        expect(page.locator("[data-poll]")).to_have_count(1)

    assert violations() == []


def test_dashboard_charts_and_swagger_ui_raise_no_csp_violation(page: Page, live_server,
                                                                requests_seen, violations,
                                                                course, irene):
    build_class(course, 4)
    sign_in(page, live_server, "irene")

    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/")
    expect(page.locator(".charts svg").first).to_be_visible()
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/statistics/")
    page.goto(f"{live_server.url}/courses/{course.slug}/dashboard/progress/")
    expect(page.locator("table.matrix")).to_be_visible()

    response = page.goto(f"{live_server.url}/api/v1/docs/")
    assert response is not None and "'nonce-" in _policy(response)["style-src"]
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible(timeout=30_000)

    assert violations() == []
