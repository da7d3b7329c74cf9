"""Error pages: 400, 403, 404 and 500 in the site's layout with a reason and a way back, one log
line each (a 500 one record with its traceback), JSON under the API's prefix."""

import logging

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from config import errors

pytestmark = pytest.mark.django_db


def _records(caplog):
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_an_unknown_address_is_a_404_page_with_the_layout_a_reason_and_a_way_back(
    client, alice, caplog
):
    client.force_login(alice)
    caplog.set_level(logging.INFO)
    response = client.get("/no/such/page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert 'class="site-header"' in page and "<h1>Page not found</h1>" in page
    assert "There is no page at this address" in page
    assert f'<a href="{reverse("home")}">Your courses</a>' in page
    [record] = _records(caplog)
    assert record.exc_info is None and "/no/such/page/" in record.getMessage()


def test_a_course_that_is_not_yours_says_so(client, alice, other_course, caplog):
    client.force_login(alice)
    caplog.set_level(logging.INFO)
    response = client.get(reverse("course-module", args=[other_course.slug]))
    assert response.status_code == 404
    assert "No such course." in response.content.decode()
    assert len(_records(caplog)) == 1


def test_a_student_refused_the_dashboard_gets_a_403_page_with_the_reason_and_one_log_line(
    client, alice, course, caplog
):
    client.force_login(alice)
    caplog.set_level(logging.INFO)
    response = client.get(reverse("dashboard:overview", args=[course.slug]))
    page = response.content.decode()
    assert response.status_code == 403
    assert 'class="site-header"' in page and "<h1>Not allowed</h1>" in page
    assert "The dashboard is for the course&#x27;s instructors and TAs." in page
    assert f'<a href="{reverse("course-module", args=[course.slug])}">Back to the course</a>' in page
    [record] = _records(caplog)
    assert record.exc_info is None, "a refusal is one line, not a traceback"
    assert "\n" not in record.getMessage()


def test_a_signed_out_visitor_s_error_page_offers_to_sign_in(client, caplog):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Sign in</a>" in response.content.decode()


def test_a_request_for_another_host_is_a_400_page_with_one_log_line(caplog):
    caplog.set_level(logging.INFO)
    response = Client().get("/", HTTP_HOST="evil.example.org")
    page = response.content.decode()
    assert response.status_code == 400
    assert "<h1>Bad request</h1>" in page and 'class="site-header"' in page
    assert len(_records(caplog)) == 1


def test_a_server_error_is_a_500_page_logged_once_with_its_traceback(
    alice, monkeypatch, caplog
):
    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("student.views.module.course_progress_for_student", broken)
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    caplog.set_level(logging.INFO)
    response = client.get("/")
    page = response.content.decode()
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in page and 'class="site-header"' in page
    assert "the database went away" not in page
    [record] = _records(caplog)
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError


@pytest.mark.parametrize(("handler", "status", "code"), [
    (errors.bad_request, 400, "bad_request"),
    (errors.permission_denied, 403, "permission_denied"),
    (errors.page_not_found, 404, "not_found"),
])
def test_under_the_api_prefix_errors_stay_json(handler, status, code):
    request = RequestFactory().get("/api/v1/whatever/")
    response = handler(request, Exception())
    assert response.status_code == status and response["Content-Type"] == "application/json"
    assert b'"code": "' + code.encode() + b'"' in response.content


def test_the_api_s_own_404_is_still_json(client):
    response = client.get("/api/v1/no-such-endpoint/")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")


@pytest.mark.django_db
def test_a_failed_csrf_check_gets_the_sites_403_page_with_a_reason(alice) -> None:
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post("/accounts/logout/")
    assert response.status_code == 403
    page = response.content.decode()
    assert "Reload the page and try again" in page and 'class="site-header"' in page
