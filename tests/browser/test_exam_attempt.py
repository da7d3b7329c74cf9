"""Taking a quiz in a real browser (issue 40): a student with a 1.5x accommodation starts it,
types (saved as typed), the browser is closed mid-way, a new browser restores every draft,
a reload right after typing keeps the text (sent on leaving the page), submit gives a
read-only review with only what the release policy allows; no CSP violation."""

import pytest
from playwright.sync_api import Browser, expect

from exams.models import Accommodation, Answer, Attempt, Question
from exams.paper import question_params
from tests.browser.conftest import csp_watched, sign_in
from tests.exams.conftest import quiz_course  # noqa: F401 - the fixture
from tests.exams.test_attempts import KEYS

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _keys(attempt: Attempt) -> list[tuple[str, str]]:
    """(field name, right answer) of each question, in the paper's order."""
    out = []
    for entry in attempt.paper:
        question = Question.objects.get(uuid=entry["question"])
        name = f"q{entry['question']}-{question.parts[0]['key']}"
        out.append((name, KEYS[question.slug](question_params(question, entry["seed"]))))
    return out


def test_start_type_close_the_browser_restore_submit_read_only(
        browser: Browser, live_server, quiz_course):  # noqa: F811
    Accommodation.objects.create(course=quiz_course.course, student=quiz_course.student,
                                 time_factor=1.5)
    context = browser.new_context()
    violations = csp_watched(context)
    page = context.new_page()
    sign_in(page, live_server, "student")
    page.goto(f"{live_server.url}/courses/{quiz_course.course.slug}/assessments/quiz-1/")
    expect(page.get_by_text("30 minutes (your accommodation: 1.5 times 20 minutes)")).to_be_visible()
    page.get_by_role("button", name="Start the quiz").click()
    expect(page.get_by_text("This attempt ends at")).to_be_visible()
    expect(page.locator("[data-time-left]")).to_contain_text("min")  # the script's countdown
    attempt = Attempt.objects.get(student=quiz_course.student)
    assert (attempt.deadline_at - attempt.started_at).total_seconds() == 30 * 60
    (first, first_key), (second, second_key) = _keys(attempt)

    page.locator(f"[name='{first}']").press_sequentially(first_key, delay=30)
    expect(page.locator("[data-save-status]")).to_contain_text("Saved at")
    assert Answer.objects.get(attempt=attempt, question__uuid=first[1:37]).raw == first_key
    assert Answer.objects.get(attempt=attempt).outcome == ""  # a draft: not graded
    context.close()  # the browser is closed mid-way

    context = browser.new_context()
    violations += csp_watched(context)
    page = context.new_page()
    sign_in(page, live_server, "student")
    page.goto(f"{live_server.url}/courses/{quiz_course.course.slug}/assessments/quiz-1/")
    page.get_by_role("link", name="Continue your attempt").click()
    expect(page.locator(f"[name='{first}']")).to_have_value(first_key)  # restored
    page.locator(f"[name='{second}']").fill(second_key)
    page.reload()  # at once, before the debounced save: nothing typed is lost
    expect(page.locator(f"[name='{second}']")).to_have_value(second_key)
    expect(page.locator(f"[name='{first}']")).to_have_value(first_key)
    expect(page.locator("[data-save-status]")).to_contain_text("Saved at")
    assert Answer.objects.get(attempt=attempt, question__uuid=second[1:37]).raw == second_key

    page.get_by_role("button", name="Submit the attempt").click()
    expect(page.get_by_text("This attempt is closed")).to_be_visible()
    expect(page.locator("main input[type=text]")).to_have_count(0)  # read-only
    expect(page.get_by_text("Score: 1")).to_be_visible()  # feedback after submission
    expect(page.get_by_text("Key", exact=True)).to_have_count(0)  # key only on release
    attempt.refresh_from_db()
    assert attempt.closed_by == Attempt.ClosedBy.STUDENT and attempt.score == pytest.approx(1)
    assert violations == []
    context.close()


def test_without_javascript_save_and_submit_work(browser: Browser, live_server,
                                                 quiz_course):  # noqa: F811
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, "student")
    page.goto(f"{live_server.url}/courses/{quiz_course.course.slug}/assessments/quiz-1/")
    page.get_by_role("button", name="Start the quiz").click()
    expect(page.get_by_text("This attempt ends at")).to_be_visible()
    attempt = Attempt.objects.get(student=quiz_course.student)
    (first, first_key), _ = _keys(attempt)
    page.locator(f"[name='{first}']").fill(first_key)
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".message.success")).to_contain_text("Saved at")
    expect(page.locator(f"[name='{first}']")).to_have_value(first_key)
    page.get_by_role("button", name="Submit the attempt").click()
    expect(page.get_by_text("This attempt is closed")).to_be_visible()
    context.close()


def test_the_5_minute_warning_is_spoken_politely_and_focus_stays(
        browser: Browser, live_server, quiz_course):  # noqa: F811
    from datetime import timedelta

    from django.utils import timezone

    from exams.services import attempt_start

    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment,
                            now=timezone.now() - timedelta(minutes=14, seconds=57)).attempt
    context = browser.new_context()
    page = context.new_page()
    sign_in(page, live_server, "student")
    page.goto(f"{live_server.url}/courses/{quiz_course.course.slug}/attempts/{attempt.pk}/")
    field = page.locator(f"[name='{_keys(attempt)[0][0]}']")
    field.focus()
    warning = page.locator("[data-timer-warning]")
    assert warning.get_attribute("aria-live") == "polite" and warning.get_attribute("role") == "status"
    expect(warning).to_have_text("5 minutes left. Your answers are saved as you type.",
                                 timeout=15000)
    expect(field).to_be_focused()
    context.close()
