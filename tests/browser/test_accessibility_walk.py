"""Issue 43 item 1: every page of every role, at 1280 px and at 390 px, has no WCAG 2.2 A/AA
violation that axe-core finds and shows the focus on everything the keyboard reaches (WCAG
2.4.7, which axe does not check); and every named route of the site is either walked here or
listed below as not a page, with the reason.

One browser, one context per role, the pages loaded one after another; each page is checked
at both widths by resizing the viewport (the layout answers to media queries), not by loading
it twice.
"""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast
from urllib.parse import urlencode, urlparse

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Browser, BrowserContext, Page

from courses.models import ContentSync, Course, CourseInvite, Enrollment, Exercise, Lab, Part
from grading.deadlines import extension_set
from grading.services import submission_create
from labs.models import LabRun
from live.access import LiveStaff
from live.sessions import live_session_open
from tests.browser.axe import axe_in_every_page, unseen_focus, wcag_violations
from tests.browser.conftest import sign_in
from tests.browser.test_accessibility_walk_admin import walked_here
from tests.exams.walk import exam_attempt_for_walk
from tests.factories import UserFactory
from tests.lti.ags_setup import lms_rows
from tests.lti.conftest import lms_server, platform  # noqa: F401 (the LMS of the LTI pages)
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform, expired
from tests.lti.test_dynamic_registration import TOKEN, _registration_routes

pytestmark = pytest.mark.services

WIDTHS = (1280, 390)

#: Named routes that are not pages a person reads, each with the reason. Every other named
#: route must be visited by the walk (test_every_named_route_is_walked_or_listed_here).
NOT_PAGES: dict[str, str] = {
    "favicon": "an image",
    "logout": "POST-only: signs out and redirects to the sign-in page (walked)",
    "health-live": "JSON for the orchestrator's probes",
    "health-ready": "JSON for the orchestrator's probes",
    "metrics": "Prometheus text for the metrics scraper",
    "api-schema": "the OpenAPI document (YAML/JSON) of the REST API",
    "lti:jwks": "JSON: the tool's public keys for the LMS",
    "lti:login": "OIDC login initiation for one registration named in the path: the same view "
                 "and cookie check page as lti:login-any (walked)",
    "lti-sync:resend": "POST-only: resends a score and redirects to the LMS page (walked)",
    "lti-sync:roster": "POST-only: syncs a roster and redirects to the LMS page (walked)",
    "live:open": "POST-only: opens a question and redirects to its projector page (walked)",
    "live:settings": "POST-only: saves the live settings and redirects to the live page "
                     "(walked)",
    "live:room-state": "JSON polled by the projector page's script",
    "live:control": "POST-only: reveals or closes a question, redirects to the projector page",
    "live:run": "POST-only: runs the lab for the room, redirects to the projector page",
    "live:csv": "a CSV download",
    "live:phone-state": "JSON polled by the phone page's script",
    "dashboard:override": "POST-only: records an override, redirects to the student's page "
                          "(walked)",
    "dashboard:extension": "POST-only: grants an extension, redirects to the student's page "
                           "(walked)",
    "dashboard:review": "POST-only: records a review, redirects to the review queue (walked)",
    "dashboard:people-upload": "POST-only: reads a roster file, redirects to People (walked)",
    "dashboard:member-role": "POST-only: changes a member's role, redirects to People (walked)",
    "dashboard:member-active": "POST-only: removes or restores a member, redirects to People "
                               "(walked)",
    "dashboard:member-password-link": "POST-only: makes a password link, redirects to People "
                                      "(walked), which shows it",
    "dashboard:people-accommodation": "POST-only: saves a student's exam accommodation, "
                                      "redirects to People (walked)",
    "dashboard:invite-new": "POST-only: makes an invite link, redirects to People (walked)",
    "dashboard:invite-end": "POST-only: ends an invite link, redirects to People (walked)",
    "dashboard:gradebook-csv": "a CSV download",
    "dashboard:submissions-csv": "a CSV download",
    "part-fragment": "an HTML fragment the course page's script swaps in place of a part "
                     "(checked inside the course page, walked)",
    "part-answer": "POST-only: grades an answer and redirects to the part on its page (walked)",
    "submission-status": "JSON polled by the course page's script",
    "lab-run-status": "JSON polled by the lab run page's script",
    "exams:start": "POST-only: starts an attempt, redirects to it (walked)",
    "exams:save": "POST-only: saves drafts (JSON for the attempt page's script), else "
                  "redirects to the attempt (walked)",
    "exams:submit": "POST-only: submits an attempt, redirects to its review",
    "exams:release": "POST-only: saves a release, redirects to the team's page (walked)",
    "exams:accommodation": "POST-only: saves an accommodation, redirects to the team's page "
                           "(walked)",
    "exams:access-code": "POST-only: saves the access code, redirects to the team's page "
                         "(walked)",
    "exams:extension": "POST-only: extends a student's window, redirects to the team's page "
                       "(walked)",
    "exams:reopen": "POST-only: reopens an attempt, redirects to the team's page (walked)",
    "api-accommodation": "the REST API: JSON for programs",
    "api-accommodations": "the REST API: JSON for programs",
    "api-course": "the REST API: JSON for programs",
    "api-courses": "the REST API: JSON for programs",
    "api-exam-extensions": "the REST API: JSON for programs",
    "api-exam-reopen": "the REST API: JSON for programs",
    "api-exercise": "the REST API: JSON for programs",
    "api-exercises": "the REST API: JSON for programs",
    "api-gradebook": "the REST API: JSON (or CSV) for programs",
    "api-gradebook-student": "the REST API: JSON (or CSV) for programs",
    "api-key": "the REST API: JSON for programs",
    "api-keys": "the REST API: JSON for programs",
    "api-lab-run": "the REST API: JSON for programs",
    "api-lab-runs": "the REST API: JSON for programs",
    "api-lms-sync": "the REST API: JSON for programs",
    "api-misconception-clearing": "the REST API: JSON for programs",
    "api-module": "the REST API: JSON for programs",
    "api-modules": "the REST API: JSON for programs",
    "api-open-misconceptions": "the REST API: JSON for programs",
    "api-roster": "the REST API: JSON for programs",
    "api-section": "the REST API: JSON for programs",
    "api-sections": "the REST API: JSON for programs",
    "api-submission": "the REST API: JSON for programs",
    "api-submissions": "the REST API: JSON for programs",
    "api-variant-fairness": "the REST API: JSON for programs",
    "api-webhook": "the REST API: JSON for programs",
    "api-webhook-deliveries": "the REST API: JSON for programs",
    "api-webhook-delivery-replay": "the REST API: JSON for programs",
    "api-webhooks": "the REST API: JSON for programs",
    "admin:autocomplete": "JSON for the admin's autocomplete boxes",
    "admin:jsi18n": "JavaScript: the admin's translation catalogue",
    "admin:view_on_site": "a redirect to an object's page on the site",
    "admin:logout": "POST-only: signs out and redirects to the sign-in page (walked)",
}
#: Whole namespaces or name prefixes that are not the service's own pages.
NOT_PAGE_PREFIXES: dict[str, str] = {
}


def named_routes() -> set[str]:
    """Every named route of the URL configuration, with its namespaces ('live:phone')."""

    def walk(patterns: list, namespace: str) -> Iterator[str]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = namespace
                if pattern.namespace:
                    inner = f"{namespace}{pattern.namespace}:"
                yield from walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield f"{namespace}{pattern.name}"

    return set(walk(get_resolver().url_patterns, ""))


def not_a_page(route: str) -> bool:
    return route in NOT_PAGES or any(route.startswith(p) for p in NOT_PAGE_PREFIXES)


@dataclass
class World:
    course: Course
    alice: User
    tara: User
    irene: User
    admin: User
    values: dict[str, Any]


def _world(course: Course, alice: User, tara: User, irene: User) -> World:
    """A course with something on every page: answers of each outcome, a free answer waiting
    for review, an extension, a lab run, an open live question alice joined, a content sync,
    an LMS link, an invite and a password link."""
    bound = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    steps = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    free = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    wrong = submission_create(student=alice, course=course, part=bound, raw_answer="0.85*40")
    submission_create(student=alice, course=course, part=steps, raw_answer="40")
    submission_create(student=alice, course=course, part=free,
                      raw_answer="The fixed-size state must hold the whole sentence.")
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    extension_set(course=course, exercise_id=exercise.pk, student_id=alice.pk,
                  due_at=timezone.now() + timedelta(days=2), reason="ill", by=irene)
    lab = Lab.objects.get(slug="vanishing-gradient")
    run = LabRun.objects.create(lab=lab, course=course, requester=alice,
                                params={"steps": 7}, params_key="k1", seed=1,
                                status=LabRun.Status.FAILED, error="The run stopped.")
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    live_part = Part.objects.get(exercise__slug="predict-analogy", key="endpoint")
    session = live_session_open(staff=staff, part_id=live_part.pk, variant="class")
    sync = ContentSync.objects.create(course=course, source="upload", revision="abc123", by=irene,
                                      ok=True, changes=["Added exercise apply-9"], problems=[])
    lms_rows(course)
    invite = CourseInvite.objects.create(course=course, token="walk-invite", role="student")
    newcomer = cast(User, UserFactory(username="newcomer"))
    newcomer.set_unusable_password()
    newcomer.save()
    admin = cast(User, UserFactory(username="root", is_staff=True, is_superuser=True))
    return World(course=course, alice=alice, tara=tara, irene=irene, admin=admin, values={
        "bound": bound, "submission": wrong, "run": run, "lab": lab, "session": session,
        "sync": sync, "invite": invite, "exercise": exercise,
        "attempt": exam_attempt_for_walk(course=course, student=alice),
        "password_link": {"uidb64": urlsafe_base64_encode(force_bytes(newcomer.pk)),
                          "token": default_token_generator.make_token(newcomer)},
    })


@dataclass
class Visit:
    """One page of the walk: its route, the URL (from the world) and how to get there when a
    plain GET does not show it (a form's POST, a launch from the LMS)."""

    route: str
    url: Callable[[World], str]
    arrive: Callable[[Page, str], None] | None = None


def _slug(w: World) -> str:
    return w.course.slug


def _dash(w: World) -> str:
    return f"/courses/{w.course.slug}/dashboard/"


def _preview_posted(page: Page, url: str) -> None:
    """The no-JavaScript Preview button's page: the part's form POSTed to the preview URL."""
    page.goto(url.split("#")[0])
    page.evaluate("""(part) => {
      const form = document.querySelector("#part-" + part + " form");
      form.querySelector("[name=answer]").value = "0.85^40";
      form.action = form.querySelector("[formaction]").getAttribute("formaction");
      HTMLFormElement.prototype.submit.call(form);
    }""", url.split("#part-")[1])
    page.wait_for_url("**/preview/")


ANONYMOUS = [
    Visit("login", lambda w: "/accounts/login/"),
    Visit("password_reset", lambda w: "/accounts/password-reset/"),
    Visit("password_reset_done", lambda w: "/accounts/password-reset/sent/"),
    Visit("password_reset_confirm",
          lambda w: "/accounts/password/{uidb64}/{token}/".format(**w.values["password_link"])),
    Visit("invite", lambda w: f"/invite/{w.values['invite'].token}/"),
    Visit("guides", lambda w: "/docs/"),
    Visit("guide", lambda w: "/docs/api.html"),
    Visit("guide", lambda w: "/docs/accessibility.html"),
]
STUDENT = [
    Visit("home", lambda w: "/"),
    Visit("language", lambda w: "/accounts/language/"),
    Visit("course-module", lambda w: f"/courses/{_slug(w)}/"),
    Visit("module-page", lambda w: f"/courses/{_slug(w)}/modules/module-05/"),
    Visit("submission", lambda w: f"/courses/{_slug(w)}/answers/{w.values['submission'].pk}/"),
    Visit("part-preview", lambda w: f"/courses/{_slug(w)}/#part-{w.values['bound'].pk}",
          _preview_posted),
    Visit("lab", lambda w: f"/courses/{_slug(w)}/labs/{w.values['lab'].slug}/"),
    Visit("lab-run", lambda w: f"/courses/{_slug(w)}/runs/{w.values['run'].uuid}/"),
    Visit("live:join", lambda w: "/live/"),
    Visit("live:phone", lambda w: f"/live/{w.values['session'].code}/"),
    Visit("exams:list", lambda w: f"/courses/{_slug(w)}/assessments/"),
    Visit("exams:assessment", lambda w: f"/courses/{_slug(w)}/assessments/walk-quiz/"),
    Visit("exams:attempt", lambda w: f"/courses/{_slug(w)}/attempts/{w.values['attempt'].pk}/"),
]
TA = [
    Visit("dashboard:overview", _dash),
    Visit("dashboard:reviews", lambda w: f"{_dash(w)}reviews/"),
    Visit("dashboard:student", lambda w: f"{_dash(w)}students/{w.alice.pk}/"),
]
INSTRUCTOR_PAGES = [
    Visit("dashboard:overview", _dash),
    Visit("dashboard:matrix", lambda w: f"{_dash(w)}progress/"),
    Visit("dashboard:statistics", lambda w: f"{_dash(w)}statistics/"),
    Visit("dashboard:part", lambda w: f"{_dash(w)}statistics/parts/{w.values['bound'].pk}/"),
    Visit("dashboard:preview", lambda w: f"{_dash(w)}exercises/{w.values['exercise'].pk}/preview/"),
    Visit("dashboard:misconceptions", lambda w: f"{_dash(w)}misconceptions/"),
    Visit("dashboard:labs", lambda w: f"{_dash(w)}labs/"),
    Visit("dashboard:student", lambda w: f"{_dash(w)}students/{w.alice.pk}/"),
    Visit("dashboard:reviews", lambda w: f"{_dash(w)}reviews/"),
    Visit("dashboard:deadlines", lambda w: f"{_dash(w)}deadlines/"),
    Visit("dashboard:content", lambda w: f"{_dash(w)}content/?sync={w.values['sync'].pk}"),
    Visit("dashboard:people", lambda w: f"{_dash(w)}people/"),
    Visit("lti-sync:health", lambda w: f"{_dash(w)}lms/"),
    Visit("live:sessions", lambda w: f"{_dash(w)}live/"),
    Visit("live:projector", lambda w: f"{_dash(w)}live/{w.values['session'].pk}/"),
    Visit("live:report", lambda w: f"{_dash(w)}live/{w.values['session'].pk}/report/"),
    Visit("new-course", lambda w: "/courses/new/"),
    Visit("exams:staff", lambda w: f"/courses/{_slug(w)}/assessments/walk-quiz/staff/"),
]
ADMIN = [
    Visit("lti:setup", lambda w: "/lti/setup/"),
]
#: The LTI pages a person sees: reached through launches from the LMS (see _lti_pages).
LTI_ROUTES = {"lti:login-any", "lti:launch", "lti:deep-link", "lti:register"}

ROLES: dict[str, tuple[str | None, list[Visit]]] = {
    "anonymous": (None, ANONYMOUS),
    "student": ("alice", STUDENT),
    "TA": ("tara", TA),
    "instructor": ("irene", INSTRUCTOR_PAGES),
    "administrator": ("root", ADMIN),
}


def test_every_named_route_is_walked_or_listed_here():
    """A new route fails this test until the walk visits it or NOT_PAGES says why it is not
    a page; a route listed both ways, or listed but gone, fails it too."""
    walked = {visit.route for _, visits in ROLES.values() for visit in visits} | LTI_ROUTES
    routes = named_routes()
    walked |= {r for r in routes if walked_here(r)}  # test_accessibility_walk_admin.py
    assert sorted(r for r in routes if r not in walked and not not_a_page(r)) == []
    assert sorted(r for r in walked if not_a_page(r)) == []
    assert sorted((walked | set(NOT_PAGES)) - routes) == []


class Checked:
    """The violations found so far, and the routes whose pages were checked."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.routes: set[str] = set()

    def page(self, page: Page, label: str, route: str | None = None) -> None:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            self.problems += [f"{label} at {width} px: {v}" for v in wcag_violations(page)]
        self.problems += [f"{label}: focus not shown on {e}" for e in unseen_focus(page)]
        if route is not None:
            self.routes.add(route)


def _context(browser: Browser) -> BrowserContext:
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900}, bypass_csp=True)
    axe_in_every_page(context)
    return context


def _lti_pages(browser: Browser, platform: Platform, live_server, checked: Checked) -> None:  # noqa: F811
    """The pages an LMS launch shows: the cookie check, the deep-linking picker, a launch into
    a context with no course, a launch not allowed, a refused launch; and the dynamic
    registration's confirm and done pages."""
    context = _context(browser)
    page = context.new_page()
    try:
        # The cookie check page, held on screen: its script (which moves on) is not loaded.
        page.route("**/cookie_check*.js", lambda route: route.abort())
        page.goto(platform.launch_url(LaunchSpec("teacher-1", [INSTRUCTOR], deep_link=True)))
        page.wait_for_selector("#lti1p3-warning-msg", state="attached")
        # What a person sees there: the loading line, or the warning where cookies are blocked.
        page.evaluate("document.querySelectorAll('[hidden]').forEach(e => e.hidden = false)")
        assert resolve(urlparse(page.url).path).view_name == "lti:login-any"
        checked.page(page, "LTI cookie check", "lti:login-any")
        page.unroute("**/cookie_check*.js")
        page.goto(platform.launch_url(LaunchSpec("teacher-1", [INSTRUCTOR], deep_link=True)))
        page.wait_for_url("**/lti/deep-link/")
        checked.page(page, "LTI deep-linking picker", "lti:deep-link")
        for label, spec, tamper in [
                ("LTI launch not allowed", LaunchSpec("student-1", [LEARNER], deep_link=True),
                 None),
                ("LTI launch into a context with no course",
                 LaunchSpec("student-2", [LEARNER], context_id="course-202"), None),
                ("LTI launch refused", LaunchSpec("student-3", [LEARNER]), expired)]:
            page.goto(platform.launch_url(spec, tamper))
            page.wait_for_url("**/lti/launch/")
            checked.page(page, label, "lti:launch")
        page.close()
        sign_in_page = context.new_page()
        sign_in(sign_in_page, live_server, "root")
        config_url = _registration_routes(platform.server, [])
        sign_in_page.goto(f"{live_server.url}/lti/register/?" + urlencode(
            {"openid_configuration": config_url, "registration_token": TOKEN}))
        checked.page(sign_in_page, "LTI registration", "lti:register")
        sign_in_page.locator("form button[type=submit]").first.click()
        sign_in_page.wait_for_load_state()
        checked.page(sign_in_page, "LTI registered", "lti:register")
    finally:
        context.close()


def test_every_page_of_every_role_has_no_wcag_22_aa_violation(
        browser: Browser, live_server, course, alice, tara, irene,
        platform: Platform, settings):  # noqa: F811
    settings.PASSWORD_RESET_BY_EMAIL = True  # the reset pages exist only where e-mail is sent
    world = _world(course, alice, tara, irene)
    checked = Checked()
    for role, (username, visits) in ROLES.items():
        context = _context(browser)
        page = context.new_page()
        try:
            if username is not None:
                sign_in(page, live_server, username)
            for visit in visits:
                url = f"{live_server.url}{visit.url(world)}"
                if visit.arrive is None:
                    response = page.goto(url)
                    if response is None or response.status != 200:
                        checked.problems.append(f"{role} {url}: not shown")
                    assert resolve(urlparse(url).path).view_name == visit.route, url
                else:
                    visit.arrive(page, url)
                    assert resolve(urlparse(page.url).path).view_name == visit.route, page.url
                checked.page(page, f"{role} {visit.route} {urlparse(page.url).path}", visit.route)
            if role == "anonymous":
                page.goto(f"{live_server.url}/no-such-page/")
                checked.page(page, "the page-not-found page")
        finally:
            context.close()
    _lti_pages(browser, platform, live_server, checked)
    walked = {visit.route for _, visits in ROLES.values() for visit in visits} | LTI_ROUTES
    assert checked.routes == walked
    assert checked.problems == []
