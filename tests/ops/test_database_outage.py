"""A PostgreSQL connection that drops (a restart, a failover), through a TCP proxy in front
of the shared server that the test cuts: a page or API GET is retried once on a new
connection and succeeds; a POST, or any request while the database stays away, gets a 503
with Retry-After, never a bare 500: an answer is told plainly that it was NOT saved and its
text comes back in the page's form (or, to the page's script and the API, JSON with
`"saved": false`), and resending that form once the database is back stores it once."""

import pytest
from rest_framework.test import APIClient

from grading.models import Submission
from tests.kept_forms import kept_form

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_get_is_retried_once_on_a_new_connection_after_the_database_dropped_it(
        proxied_database, client, course, alice) -> None:
    client.force_login(alice)
    page = f"/courses/{course.slug}/"
    api = APIClient()
    api.force_login(alice)
    assert client.get(page).status_code == 200
    proxied_database.cut()     # PostgreSQL restarts: every open connection is gone ...
    proxied_database.restore()  # ... and it accepts new ones again
    assert client.get(page).status_code == 200
    proxied_database.cut()
    proxied_database.restore()
    assert api.get(f"/api/v1/courses/{course.slug}/exercises/").status_code == 200


def test_an_answer_while_the_database_is_away_is_refused_as_not_saved_with_its_text_kept(
        proxied_database, client, course, alice) -> None:
    from courses.models import Part

    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    answer_url = f"/courses/{course.slug}/parts/{part.pk}/answer/"
    client.force_login(alice)
    api = APIClient()
    api.force_login(alice)
    assert client.get(f"/courses/{course.slug}/").status_code == 200
    proxied_database.cut()

    response = client.post(answer_url, {"answer": "0.85^40 <b>"})
    assert response.status_code == 503 and response["Retry-After"]
    text = response.content.decode()
    assert "NOT saved" in text and "not needed" not in text
    form = kept_form(text)
    assert form.action == answer_url
    assert form.fields["answer"] == "0.85^40 <b>"  # kept as typed (escaped in the page)
    assert "&lt;b&gt;" in text and form.fields["csrfmiddlewaretoken"]
    in_place = client.post(answer_url, {"answer": "0.5"}, HTTP_X_ANSWER_FRAGMENT="1")
    assert in_place.status_code == 503 and in_place.json()["saved"] is False
    assert "NOT saved" in in_place.json()["message"]
    answer = api.post(f"/api/v1/courses/{course.slug}/submissions/",
                      {"part": part.pk, "answer": "0.5"}, format="json")
    assert answer.status_code == 503 and answer["Retry-After"]
    assert answer.json()["code"] == "database_unavailable" and answer.json()["saved"] is False
    # A GET whose retry fails too (the database still away) is a 503 page, not a 500.
    page = client.get(f"/courses/{course.slug}/")
    assert page.status_code == 503 and "reload" in page.content.decode()

    proxied_database.restore()
    resent = client.post(form.action, form.fields)
    assert resent.status_code == 302
    assert list(Submission.objects.values_list("raw_answer", flat=True)) == ["0.85^40 <b>"]


def test_a_connection_lost_while_the_session_is_read_before_the_view_is_a_503_keeping_the_answer(
        proxied_database, monkeypatch, course, alice) -> None:
    """The request-log layer reads the session and the user before the view runs: a
    connection lost there (a cut in that instant) is the outage's 503, not a 500."""
    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.core.cache import cache
    from django.test import Client

    from courses.models import Part

    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    assert client.get(f"/courses/{course.slug}/").status_code == 200
    real_load = SessionStore.load

    def cut_then_load(store):
        proxied_database.cut()
        cache.clear()  # the session and the user are read from the database
        return real_load(store)

    monkeypatch.setattr(SessionStore, "load", cut_then_load)
    response = client.post(f"/courses/{course.slug}/parts/{part.pk}/answer/", {"answer": "0.25"})
    assert response.status_code == 503
    assert kept_form(response.content.decode()).fields["answer"] == "0.25"
