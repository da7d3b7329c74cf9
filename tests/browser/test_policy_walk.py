"""A walk through the site under its real Content-Security-Policy, in Chromium, as a student,
an instructor and a phone in a live session (issue 37): no page of the walk may report a CSP
violation, and every lab's plot must be drawn in colour (its pixels not one colour, not
mostly black), its heat map's labels beside the cells, not over them. The live question
shows the class's numbers on the projector and the phone, the locked answer's text, and the
revealed feedback as maths."""

import re

import numpy as np
import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from courses.models import CourseModule, Enrollment, Lab, Module, Part
from grading.variant_assignment import variant_for
from labs.models import LabRun
from labs.services import params_key
from labs.simulations import run_simulation, validate_params
from live.access import LiveStaff
from live.reveal import live_reveal
from live.sessions import live_session_open
from tests.browser.conftest import colour_profile, csp_watched, sign_in
from tests.factories import EnrollmentFactory, UserFactory
from tests.instructor.conftest import build_class

pytestmark = pytest.mark.services

LABS = ("vanishing-gradient", "rnn", "attention", "word-vectors", "self-attention")
DASHBOARD = ("", "progress/", "statistics/", "misconceptions/", "labs/", "reviews/",
             "deadlines/", "people/", "content/", "live/")

#: Right edges of a heat map's row labels, and the left edge of its cells (px).
ROW_LABELS_AND_CELLS = """(svg) => ({
  labels: [...svg.querySelectorAll("g[id$='axes_1'] g[id*='ytick'] text")]
    .map(t => t.getBoundingClientRect().right),
  cells: svg.querySelector("g[id$='axes_1'] image").getBoundingClientRect().left,
})"""


def _stored_run(lab: Lab, course, student) -> LabRun:
    """A succeeded run of `lab`'s defaults by `student` (computed here, as a worker would)."""
    params, errors = validate_params(lab.simulation, {}, lab.param_schema or None)
    assert not errors
    result = run_simulation(lab.simulation, params, rng=np.random.default_rng(1))
    now = timezone.now()
    return LabRun.objects.create(lab=lab, course=course, requester=student, params=params,
                                 params_key=params_key(params), seed=1,
                                 status=LabRun.Status.SUCCEEDED, progress=1.0, result=result,
                                 started_at=now, finished_at=now)


def _student_with_d_1024(course, exercise):
    """A student whose own variant of Module 6's prediction has d = 1024 (the class's: 512)."""
    for i in range(40):
        user = UserFactory(username=f"phone{i}")
        if variant_for(student=user, course=course, exercise=exercise).params["d"] == 1024:
            EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
            return user
    pytest.fail("no student with d = 1024 among 40")


def _plot_is_drawn(page: Page, slug: str) -> None:
    plot = page.locator(".plot svg")
    expect(plot).to_be_visible()
    profile = colour_profile(plot.screenshot())
    assert profile["black"] < 0.1, (slug, profile)  # blocked fills fall back to black
    assert profile["commonest"] < 0.98 and profile["colours"] > 20, (slug, profile)
    assert profile["white"] > 0.4, (slug, profile)  # the figure's white background
    if slug in ("attention", "self-attention"):
        edges = plot.evaluate(ROW_LABELS_AND_CELLS)
        assert edges["labels"] and max(edges["labels"]) <= edges["cells"] + 1, (slug, edges)


def _width_shown(page: Page) -> str:
    """What the live question's prompt says d is, as read on the page."""
    text = re.sub(r"\s+", "", page.locator(".live-prompt").inner_text())
    found = re.search(r"ofwidth\S{1,2}=([0-9,]+)", text)
    return found.group(1) if found else text


def test_no_page_of_the_walk_breaks_the_policy_and_every_plot_is_drawn(
        browser: Browser, live_server, requests_seen, course, alice, irene):
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    build_class(course, 3)
    runs = {slug: _stored_run(Lab.objects.get(slug=slug), course, alice) for slug in LABS}
    part = Part.objects.select_related("exercise").get(exercise__slug="predict-unscaled-peak",
                                                       key="peak")
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    session = live_session_open(staff=staff, part_id=part.pk, variant="class")
    phone_user = _student_with_d_1024(course, part.exercise)
    base = live_server.url

    student_context = browser.new_context(viewport={"width": 1280, "height": 900})
    student_seen = csp_watched(student_context)
    student = student_context.new_page()
    sign_in(student, live_server, "alice")
    student.goto(f"{base}/courses/{course.slug}/")
    student.goto(f"{base}/courses/{course.slug}/modules/module-06/")
    for slug in LABS:
        student.goto(f"{base}{reverse('lab', args=[course.slug, slug])}")
        expect(student.get_by_role("button", name="Run the lab")).to_be_visible()
        student.goto(f"{base}{reverse('lab-run', args=[course.slug, runs[slug].uuid])}")
        _plot_is_drawn(student, slug)

    staff_context = browser.new_context(viewport={"width": 1280, "height": 900})
    staff_seen = csp_watched(staff_context)
    projector = staff_context.new_page()
    sign_in(projector, live_server, "irene")
    for path in DASHBOARD:
        response = projector.goto(f"{base}/courses/{course.slug}/dashboard/{path}")
        assert response is not None and response.ok, path
    projector.goto(f"{base}{reverse('live:projector', args=[course.slug, session.pk])}")
    assert _width_shown(projector) == "512"  # the class's variant, not "d = d"

    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    phone_seen = csp_watched(phone_context)
    phone = phone_context.new_page()
    sign_in(phone, live_server, phone_user.username)
    phone.goto(f"{base}/live/")
    phone.get_by_label("The code on the projector").fill(session.code)
    phone.get_by_role("button", name="Join").click()
    assert _width_shown(phone) == "512"  # the room's run uses 512, not this student's 1024
    phone.get_by_label("Nearly uniform: every key gets about 1/n").check()
    phone.get_by_role("button", name="Lock in my prediction").click()
    expect(phone.locator(".live-mine")).to_have_text("Nearly uniform: every key gets about 1/n")

    projector.get_by_role("button", name="Run the lab").click()
    expect(projector.locator("#live-state")).to_have_text("Running the lab")
    live_reveal(session_id=session.pk)  # what the worker's task does
    verdict = phone.locator("#live-verdict")
    expect(verdict).to_contain_text("Incorrect", timeout=15_000)
    expect(verdict.locator(".feedback math").first).to_be_visible()
    assert "$" not in verdict.inner_text() and "\\sqrt" not in verdict.inner_text()
    phone.reload()  # the page as rendered by the server, after the reveal
    expect(phone.locator("#live-verdict .feedback math").first).to_be_visible()

    for context in (student_context, staff_context, phone_context):
        context.close()  # before the database is emptied: the projector polls
    assert student_seen == [] and staff_seen == [] and phone_seen == []
