"""Deadlines a student can see (issue 25, item 1): "Due 30 Nov, 12:00" in the course's time
zone beside each exercise and on the home page, "extended to ... for you", and after the
deadline a closed form with the reason; the dashboard sets the rules (item 9)."""

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from courses.models import CourseModule, Exercise
from grading.deadlines import deadline_policy_set, deadline_set, extension_set
from grading.models import Deadline, DeadlinePolicy
from tests.student.module_pages import page_for

pytestmark = pytest.mark.django_db
LONDON = ZoneInfo("Europe/London")


def _text(page: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.decode()))


def _exercise_html(page: bytes, slug: str) -> str:
    html = page.decode()
    start = html.index(f'id="exercise-{slug}"')
    return html[start:html.index("</article>", start)]


@pytest.fixture
def apply_1(module_05) -> Exercise:
    return Exercise.objects.get(slug="apply-1-gradient-bound")


def _london(course, irene, **kwargs):
    deadline_policy_set(course=course, time_zone="Europe/London", late=kwargs.get("late", "refused"),
                        late_share=kwargs.get("late_share", 0.0),
                        late_days=kwargs.get("late_days", 0), tas_grant_extensions=False, by=irene)


def test_the_due_date_is_beside_the_exercise_and_on_the_home_page(client, course, alice, irene,
                                                                  apply_1):
    _london(course, irene)
    due = datetime(2030, 11, 30, 12, 0, tzinfo=LONDON)
    deadline_set(course=course, exercise_id=apply_1.pk, due_at=due, by=irene)
    client.force_login(alice)
    page = client.get(reverse("course-module", args=[course.slug])).content
    box = _exercise_html(page, apply_1.slug)
    assert "Due 30 Nov, 12:00 (Europe/London)" in _text(box.encode())
    assert f'datetime="{due.isoformat()}"' in box and "data-local-time" in box
    assert "<textarea" in box or "<input" in box  # still open
    home = _text(client.get(reverse("home")).content)
    assert "Due dates" in home and "Apply 1: Due 30 Nov, 12:00 (Europe/London)" in home


def test_an_extension_is_shown_as_extended_for_you(client, course, alice, bob, irene, apply_1):
    deadline_set(course=course, exercise_id=apply_1.pk,
                 due_at=datetime(2030, 11, 30, 12, 0, tzinfo=ZoneInfo("UTC")), by=irene)
    extension_set(course=course, exercise_id=apply_1.pk, student_id=alice.pk,
                  due_at=datetime(2030, 12, 3, 9, 30, tzinfo=ZoneInfo("UTC")), reason="illness",
                  by=irene)
    client.force_login(alice)
    box = _text(_exercise_html(client.get(reverse("course-module", args=[course.slug])).content,
                               apply_1.slug).encode())
    assert "Extended to 3 Dec, 09:30 (UTC) for you (due 30 Nov, 12:00 (UTC) for the class)" in box
    client.force_login(bob)
    box = _text(_exercise_html(client.get(reverse("course-module", args=[course.slug])).content,
                               apply_1.slug).encode())
    assert "extended" not in box and "Due 30 Nov, 12:00 (UTC)" in box


def test_after_the_deadline_the_form_is_closed_with_the_reason(client, course, alice, irene,
                                                               apply_1):
    deadline_set(course=course, exercise_id=apply_1.pk,
                 due_at=timezone.now() - timedelta(hours=1), by=irene)
    client.force_login(alice)
    box = _exercise_html(client.get(reverse("course-module", args=[course.slug])).content,
                         apply_1.slug)
    assert "Closed:" in box and "answers are no longer accepted" in box
    assert "<form" not in box  # no answer box to type into


def test_a_closed_part_says_its_state_in_one_sentence(client, course, alice, irene, apply_1):
    deadline_set(course=course, exercise_id=apply_1.pk,
                 due_at=timezone.now() - timedelta(hours=1), by=irene)
    client.force_login(alice)
    box = _text(_exercise_html(client.get(reverse("course-module", args=[course.slug])).content,
                               apply_1.slug).encode())
    assert "Closed (attempts used: 0 of 5)." in box
    assert "left" not in box and "No attempts" not in box  # not "5 left" and "none left"


def test_the_late_window_is_announced_and_keeps_the_form_open(client, course, alice, irene,
                                                              apply_1):
    _london(course, irene, late="per_day", late_share=0.1, late_days=3)
    deadline_set(course=course, exercise_id=apply_1.pk,
                 due_at=timezone.now() - timedelta(hours=1), by=irene)
    client.force_login(alice)
    box = _exercise_html(client.get(reverse("course-module", args=[course.slug])).content,
                         apply_1.slug)
    assert "late answers until" in _text(box.encode()) and "Closed:" not in box
    assert "<form" in box


def test_staff_home_pages_show_no_progress_of_their_own(client, course, irene, alice):
    client.force_login(irene)
    assert "Your progress by section" not in client.get(reverse("home")).content.decode()
    client.force_login(alice)
    assert "Your progress by section" in client.get(reverse("home")).content.decode()


def test_the_dashboard_sets_rules_and_a_module_wide_due_date_in_the_course_zone(
        client, course, irene, tara, alice, apply_1):
    client.force_login(irene)
    url = reverse("dashboard:deadlines", args=[course.slug])
    client.post(url, {"action": "policy", "time_zone": "Europe/London", "late": "flat",
                      "late_percent": "25", "late_days": "2", "tas_grant_extensions": "on"})
    policy = DeadlinePolicy.objects.get(course=course)
    assert (policy.time_zone, policy.late, policy.late_share, policy.late_days,
            policy.tas_grant_extensions) == ("Europe/London", "flat", 0.25, 2, True)
    client.post(url, {"action": "module", "due_at": "2030-07-01T12:00"})
    dues = set(Deadline.objects.filter(course=course).values_list("due_at", flat=True))
    assert dues == {datetime(2030, 7, 1, 12, 0, tzinfo=LONDON)}  # 11:00 UTC, summer time
    page = _text(client.get(url).content)
    assert "Europe/London" in page and "losing 25% of the score" in page
    response = client.post(url, {"action": "policy", "time_zone": "Nowhere/Land", "late": "flat"},
                           follow=True)
    assert "Unknown time zone" in _text(response.content)
    # a TA may now grant an extension from the student's page
    client.force_login(tara)
    student_page = reverse("dashboard:student", args=[course.slug, alice.pk])
    assert "Save extension" in client.get(student_page).content.decode()
    client.post(reverse("dashboard:extension", args=[course.slug, alice.pk]),
                {"exercise": apply_1.pk, "due_at": "2030-07-05T09:00", "reason": "illness"})
    assert alice.extensions.get().due_at == datetime(2030, 7, 5, 9, 0, tzinfo=LONDON)


def test_the_module_s_default_due_date_is_shown_where_an_exercise_has_none_of_its_own(
        client, course, alice, irene, apply_1):
    """The page says what the answer path enforces: an exercise without its own deadline is
    due at its module's default due date in the course; its own deadline wins; an extension
    still moves it later for one student."""
    _london(course, irene)
    CourseModule.objects.filter(course=course, module=apply_1.module).update(
        due_at=datetime(2030, 12, 5, 17, 0, tzinfo=LONDON))
    own = Exercise.objects.get(slug="apply-2-sequential-steps")
    deadline_set(course=course, exercise_id=own.pk,
                 due_at=datetime(2030, 11, 30, 12, 0, tzinfo=LONDON), by=irene)
    extension_set(course=course, exercise_id=apply_1.pk, student_id=alice.pk,
                  due_at=datetime(2030, 12, 8, 9, 0, tzinfo=LONDON), reason="", by=irene)
    client.force_login(alice)
    page = client.get(reverse("course-module", args=[course.slug])).content
    assert "Due 30 Nov, 12:00 (Europe/London)" in _text(_exercise_html(page, own.slug).encode())
    assert ("Extended to 8 Dec, 09:00 (Europe/London) for you (due 5 Dec, 17:00 "
            "(Europe/London) for the class)") in _text(_exercise_html(page, apply_1.slug).encode())
    others = Exercise.objects.active().filter(module=apply_1.module).exclude(
        pk__in=[own.pk, apply_1.pk])
    for exercise in others:
        assert "Due 5 Dec, 17:00 (Europe/London)" in _text(
            _exercise_html(page, exercise.slug).encode()), exercise.slug
    home = _text(client.get(reverse("home")).content)
    assert "Apply 2: Due 30 Nov, 12:00 (Europe/London)" in home


def test_a_past_module_due_date_closes_the_form_on_the_page_as_on_the_answer_path(
        client, course, alice, apply_1):
    CourseModule.objects.filter(course=course, module=apply_1.module).update(
        due_at=timezone.now() - timedelta(hours=1))
    client.force_login(alice)
    box = _exercise_html(client.get(reverse("course-module", args=[course.slug])).content,
                         apply_1.slug)
    assert "Closed:" in box and "<form" not in box


def test_the_module_page_reads_every_deadline_in_the_same_queries_as_none(
        course, alice, irene, apply_1):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            page_for(alice, course.slug)
        return len(queries.captured_queries)

    count()  # the first visit draws the student's variants
    none = count()
    _london(course, irene)
    CourseModule.objects.filter(course=course).update(due_at=datetime(2030, 12, 5, tzinfo=LONDON))
    deadline_set(course=course, exercise_id=apply_1.pk,
                 due_at=datetime(2030, 11, 30, 12, 0, tzinfo=LONDON), by=irene)
    extension_set(course=course, exercise_id=apply_1.pk, student_id=alice.pk,
                  due_at=datetime(2030, 12, 8, tzinfo=LONDON), reason="", by=irene)
    # the deadlines, the modules' exercises and the policy from the content cache (read
    # once): alice's extensions are the one query added, whatever the number of deadlines
    count()
    assert count() == none + 1
