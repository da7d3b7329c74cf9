"""Sync health: the instructor's LMS sync page (states, counts, platform messages, "send
again", roster read) and the same states in the REST API."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from courses.models import Part
from grading.services import submission_create
from lti.ags.deliveries import score_delivery_attempt
from lti.scores_models import ScoreDelivery
from lti.sync.selectors import sync_health
from tests.lti.ags_setup import platform_link
from tests.lti.platform_services import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


@pytest.fixture
def deliveries(lms_server, course, alice, bob, bound):
    """Alice's score sent; Bob's refused by the platform (400 with its message)."""
    cache.clear()
    link = platform_link(lms_server, course)
    link.identity(alice)
    link.identity(bob)
    link.line_item(bound.exercise)
    link.platform.faults.rejected.append("sub-bob")
    for student in (alice, bob):
        submission_create(student=student, course=course, part=bound, raw_answer="3")
    for pk in ScoreDelivery.objects.values_list("pk", flat=True):
        score_delivery_attempt(delivery_id=pk)
    return link


def _page(client, course) -> str:
    response = client.get(f"/courses/{course.slug}/dashboard/lms/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_instructor_sees_each_state_its_count_and_the_platform_message(
        deliveries, course, irene):
    client = Client()
    client.force_login(irene)
    html = _page(client, course)

    assert re.search(r'data-state="sent">1<', html) and re.search(r'data-state="failed">1<', html)
    assert re.search(r'data-state="waiting">0<', html)
    assert "User sub-bob is not enrolled" in html
    assert "LMS sync" in html  # the dashboard's navigation links the page


def test_send_again_needs_csrf_and_queues_the_latest_score(deliveries, course, irene, bob):
    failed = ScoreDelivery.objects.get(student=bob)
    client = Client(enforce_csrf_checks=True)
    client.force_login(irene)
    url = f"/courses/{course.slug}/dashboard/lms/deliveries/{failed.pk}/resend/"
    assert client.post(url).status_code == 403  # no CSRF token

    page = client.get(f"/courses/{course.slug}/dashboard/lms/")
    token = page.cookies["csrftoken"].value
    response = client.post(url, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    failed.refresh_from_db()
    assert failed.state == "waiting" and failed.attempts == 0

    deliveries.platform.faults.rejected.clear()  # the LMS enrolled Bob meanwhile
    assert score_delivery_attempt(delivery_id=failed.pk).outcome == "sent"


def test_students_and_other_courses_instructors_cannot_open_the_page(deliveries, course, alice,
                                                                    oscar):
    for user, status in ((alice, 403), (oscar, 404)):
        client = Client()
        client.force_login(user)
        assert client.get(f"/courses/{course.slug}/dashboard/lms/").status_code == status
        delivery = ScoreDelivery.objects.first()
        assert client.post(f"/courses/{course.slug}/dashboard/lms/deliveries/{delivery.pk}/resend/"
                           ).status_code == status


def test_the_instructor_reads_the_roster_from_the_page_but_a_ta_may_not(deliveries, course,
                                                                      irene, tara):
    deliveries.platform.members = [member("sub-alice", "Alice A"), member("sub-bob", "Bob B")]
    path = f"/courses/{course.slug}/dashboard/lms/contexts/{deliveries.context.pk}/roster/"
    ta = Client()
    ta.force_login(tara)
    assert ta.post(path).status_code == 403

    client = Client()
    client.force_login(irene)
    response = client.post(path, follow=True)
    # Alice and Bob launched before: their accounts are adopted, not duplicated.
    assert "Roster read from the LMS: 0 added, 2 updated" in response.content.decode()


def test_the_api_gives_the_same_states_to_staff_only(deliveries, course, irene, alice, bob):
    staff = APIClient()
    staff.force_login(irene)
    data = staff.get(f"/api/v1/courses/{course.slug}/lms-sync/").json()
    assert data["counts"] == {"sent": 1, "waiting": 0, "retrying": 0, "failed": 1}
    by_user = {d["username"]: d for d in data["deliveries"]}
    assert by_user["bob"]["state"] == "failed" and "not enrolled" in by_user["bob"]["message"]
    assert by_user["alice"]["state"] == "sent" and by_user["alice"]["last_sent_at"]

    failed_only = staff.get(f"/api/v1/courses/{course.slug}/lms-sync/?state=failed").json()
    assert [d["username"] for d in failed_only["deliveries"]] == ["bob"]
    assert staff.get(f"/api/v1/courses/{course.slug}/lms-sync/?state=bogus").status_code == 400

    student = APIClient()
    student.force_login(alice)
    assert student.get(f"/api/v1/courses/{course.slug}/lms-sync/").status_code == 403


def test_the_sync_health_costs_three_queries_whatever_the_class(deliveries, course,
                                                               django_assert_num_queries):
    with django_assert_num_queries(3):
        report = sync_health(course=course)
    assert len(report.rows) == 2 and report.rows[0].state == "failed"


def test_deliveries_are_paged_in_the_database_failed_first(deliveries, course, irene,
                                                            monkeypatch,
                                                            django_assert_num_queries):
    monkeypatch.setattr("lti.sync.selectors.PER_PAGE", 1)
    with django_assert_num_queries(3):
        first = sync_health(course=course, page=1)
    second, past = sync_health(course=course, page=2), sync_health(course=course, page=9)
    assert (first.page, first.pages, first.total) == (1, 2, 2)
    assert [r.username for r in first.rows + second.rows] == ["bob", "alice"]
    assert (past.page, [r.username for r in past.rows]) == (2, ["alice"])
    client = Client()
    client.force_login(irene)
    html = client.get(f"/courses/{course.slug}/dashboard/lms/?state=sent&page=1").content.decode()
    assert "alice" in html and "bob" not in html and 'rel="next"' not in html
    html = _page(client, course)
    assert 'href="?page=2" rel="next"' in html
    staff = APIClient()
    staff.force_login(irene)
    data = staff.get(f"/api/v1/courses/{course.slug}/lms-sync/?page=2").json()
    assert (data["page"], data["pages"], data["total"]) == (2, 2, 2)
    assert [d["username"] for d in data["deliveries"]] == ["alice"]
    assert staff.get(f"/api/v1/courses/{course.slug}/lms-sync/?page=0").status_code == 400


@pytest.mark.django_db
def test_the_empty_sync_page_and_the_dashboard_link_the_lti_setup_page(course, irene) -> None:
    # Issue 25, item 11: a course with no platform said only "No scores for the LMS yet".
    client = Client()
    client.force_login(irene)
    html = _page(client, course)
    assert "No scores for the LMS yet" in html and 'href="/lti/setup/"' in html
    assert "A site administrator registers the LMS" in html
    irene.is_staff = True
    irene.save(update_fields=["is_staff"])
    overview = client.get(f"/courses/{course.slug}/dashboard/").content.decode()
    assert '<a href="/lti/setup/">LTI setup</a>' in overview
    assert "Set up LTI 1.3" in _page(client, course)
