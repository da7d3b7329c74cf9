"""The exam timer in a real browser (issue 43 item 3, WCAG 2.2.1 and 4.1.3): the warnings at
5 and 1 minutes left are spoken by a polite status region while focus stays in the field
the student is typing in (no focus event at all while they are announced), and the student
can hide the countdown and show it again (the choice is kept across a reload; the warnings
are still spoken while it is hidden)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from exams.models import Attempt, Question
from exams.services import attempt_start
from tests.browser.conftest import csp_watched, sign_in
from tests.exams.conftest import quiz_course  # noqa: F401 - the fixture

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Records every focus change in the page from now on (none may happen on its own).
RECORD_FOCUS = """() => {
  window.__focusChanges = [];
  for (const kind of ["focusin", "focusout", "blur", "focus"]) {
    document.addEventListener(kind, (e) => window.__focusChanges.push(kind + ":" +
      (e.target && (e.target.name || e.target.tagName))), true);
  }
}"""


def _first_field(attempt: Attempt) -> str:
    entry = attempt.paper[0]
    question = Question.objects.get(uuid=entry["question"])
    return f"q{entry['question']}-{question.parts[0]['key']}"


def test_warnings_are_spoken_politely_focus_never_moves_and_the_timer_can_be_hidden(
        browser: Browser, live_server, quiz_course):  # noqa: F811
    # 20 minutes, started 18 min 56 s ago: the 5-minute warning at once, the 1-minute in ~4 s.
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment,
                            now=timezone.now() - timedelta(minutes=18, seconds=56)).attempt
    context = browser.new_context()
    violations = csp_watched(context)
    page = context.new_page()
    sign_in(page, live_server, "student")
    page.goto(f"{live_server.url}/courses/{quiz_course.course.slug}/attempts/{attempt.pk}/")
    warning = page.locator("[data-timer-warning]")
    assert warning.get_attribute("aria-live") == "polite"
    assert warning.get_attribute("role") == "status"
    line = page.locator("[data-time-left-line]")
    toggle = page.get_by_role("button", name="Hide the time left")
    expect(line).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "true")

    toggle.click()  # the student hides the countdown
    expect(line).to_be_hidden()
    show = page.get_by_role("button", name="Show the time left")
    expect(show).to_have_attribute("aria-expanded", "false")
    expect(show).to_be_focused()  # the button keeps focus after it is pressed

    field = page.locator(f"[name='{_first_field(attempt)}']")
    field.focus()
    page.evaluate(RECORD_FOCUS)
    field.press_sequentially("12", delay=50)
    expect(warning).to_have_text("1 minute left. Your answers are saved as you type.",
                                 timeout=15000)  # spoken while the countdown is hidden
    expect(field).to_be_focused()
    assert page.evaluate("window.__focusChanges") == []
    expect(line).to_be_hidden()

    page.reload()  # the choice is kept for the attempt
    expect(page.locator("[data-time-left-line]")).to_be_hidden()
    page.get_by_role("button", name="Show the time left").click()
    expect(page.locator("[data-time-left-line]")).to_be_visible()
    expect(page.locator("[data-time-left]")).to_contain_text("min")
    assert violations == []
    context.close()
