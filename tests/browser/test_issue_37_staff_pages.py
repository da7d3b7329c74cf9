"""Issue 37's smaller items in a real browser, as a person sees them: a dashboard page's
message shown once, maths readable in the staff's part labels, the progress matrix in
natural order (Student2 before Student10), module filter links apart from each other, the
CSV preview's roles and groups, a TA's review named as a TA's, no "(your time ...)" that
repeats the course's time, and the site's 404 page for another student's lab run under
bin/run's settings."""

import itertools
import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, expect

from courses.models import CourseModule, Enrollment, Exercise, Lab, Module, Part
from grading.deadlines import deadline_policy_set, deadline_set
from grading.reviews import review_create
from grading.services import submission_create
from labs.services import lab_run_request
from tests.browser.conftest import sign_in
from tests.config.test_local_settings import _local_debug
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.services


@pytest.fixture
def two_module_class(course, irene):
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    for n in (10, 2, 1):
        EnrollmentFactory(course=course, role=Enrollment.Role.STUDENT, user=UserFactory(
            username=f"student{n}", first_name=f"Student{n}", last_name=""))
    return course


@pytest.fixture
def staff_page(browser: Browser, live_server, two_module_class):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    sign_in(page, live_server, "irene")
    yield page
    page.close()


def _dashboard(live_server, course, tab: str) -> str:
    return f"{live_server.url}/courses/{course.slug}/dashboard/{tab}/"


def test_the_matrix_lists_student2_before_student10(staff_page, live_server, two_module_class):
    staff_page.goto(_dashboard(live_server, two_module_class, "progress"))
    rows = staff_page.locator("table.matrix tbody th[scope=row] .username").all_inner_texts()
    assert [r.strip() for r in rows] == ["student1", "student2", "student10"]


def test_a_part_label_keeps_its_maths_readable(staff_page, live_server, two_module_class):
    staff_page.goto(_dashboard(live_server, two_module_class, "progress"))
    expect(staff_page.locator("table.matrix thead")).to_contain_text(
        "Without the 1/√d, each row")


def test_the_module_filter_links_stand_apart(staff_page, live_server, two_module_class):
    staff_page.goto(_dashboard(live_server, two_module_class, "progress"))
    links = staff_page.locator("nav.module-filter a")
    assert links.all_inner_texts() == ["All modules", "Module 5", "Module 6"]
    boxes = [links.nth(i).bounding_box() for i in range(3)]
    for left, right in itertools.pairwise(boxes):
        assert left and right and right["x"] - (left["x"] + left["width"]) >= 4
    assert staff_page.get_by_role("navigation", name="Module").get_by_role(
        "listitem").count() == 3


def test_a_message_shows_once_and_the_csv_preview_gives_roles_and_groups(
        staff_page, live_server, two_module_class, tmp_path):
    staff_page.goto(_dashboard(live_server, two_module_class, "people"))
    staff_page.get_by_role("button", name="Create link").click()
    expect(staff_page.get_by_text("Invite link created.")).to_have_count(1)
    csv = tmp_path / "class.csv"
    csv.write_text("username,email,role,group\nnewbie,newbie@example.org,ta,Lab 2\n")
    staff_page.get_by_label("CSV file").set_input_files(str(csv))
    staff_page.get_by_role("button", name="Preview").click()
    row = staff_page.get_by_role("table", name="What would change").get_by_role("row").nth(1)
    assert row.inner_text().split("\t") == ["newbie", "enrol (new account)",
                                            "Teaching assistant", "Lab 2"]


def test_a_student_reads_who_reviewed_their_answer(browser: Browser, live_server, course,
                                                  alice, tara):
    part = Part.objects.get(exercise__slug="extend-bottleneck")
    submission = submission_create(student=alice, course=course, part=part,
                                   raw_answer="One fixed-size vector holds all the words.")
    review_create(course=course, submission_id=submission.pk, reviewer=tara,
                  points=float(part.points))
    page = browser.new_page()
    try:
        sign_in(page, live_server, "alice")
        page.goto(f"{live_server.url}/courses/{course.slug}/#part-{part.pk}")
        expect(page.locator(f"#part-{part.pk}")).to_contain_text(
            "Reviewed by your teaching assistant.")
        expect(page.get_by_text("Reviewed by your instructor")).to_have_count(0)
    finally:
        page.close()


def test_no_local_time_is_added_when_it_reads_as_the_course_s(browser: Browser, live_server,
                                                              course, irene, alice):
    # Europe/London is on UTC in November: a reader in UTC sees the same time.
    deadline_policy_set(course=course, time_zone="Europe/London", late="refused", late_share=0,
                        late_days=0, tas_grant_extensions=False, by=irene)
    deadline_set(course=course, exercise_id=Exercise.objects.get(slug="apply-1-gradient-bound").pk,
                 due_at=datetime(2030, 11, 30, 12, 0, tzinfo=ZoneInfo("Europe/London")), by=irene)
    context = browser.new_context(timezone_id="UTC", locale="en-GB")
    try:
        page = context.new_page()
        sign_in(page, live_server, "alice")
        due = page.locator(".due-list")
        expect(due).to_contain_text("Due 30 Nov, 12:00 (Europe/London)")
        page.goto(f"{live_server.url}/courses/{course.slug}/")
        exercise_due = page.locator("#exercise-apply-1-gradient-bound .due")
        expect(exercise_due).to_contain_text("Due 30 Nov, 12:00 (Europe/London)")
        assert page.locator("time[data-local-time]").first.get_attribute("data-localised") == "1"
        assert "your time" not in exercise_due.inner_text()
    finally:
        context.close()


def test_another_student_s_run_is_the_site_s_404_page_under_bin_run_s_settings(
        browser: Browser, live_server, settings, course, alice, bob):
    settings.DEBUG = _local_debug()
    run = lab_run_request(lab=Lab.objects.get(slug="vanishing-gradient"), course=course,
                          requester=bob, params={}, seed=1)
    page = browser.new_page()
    try:
        sign_in(page, live_server, "alice")
        response = page.goto(f"{live_server.url}/courses/{course.slug}/runs/{run.uuid}/")
        assert response is not None and response.status == 404
        expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
        expect(page.get_by_role("link", name="Your courses")).to_be_visible()
        assert "URLconf" not in page.content()
    finally:
        page.close()


