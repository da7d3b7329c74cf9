"""A PostgreSQL connection that drops (a restart, a failover), through a TCP proxy in front
of the shared server that the test cuts: a page or API GET is retried once on a new
connection and succeeds; a POST, or any request while the database stays away, gets a 503
that says the answer may have been saved (JSON for the API), never a bare 500."""

import pytest
from rest_framework.test import APIClient

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


def test_a_post_while_the_database_is_away_gets_a_503_saying_the_answer_may_be_saved(
        proxied_database, client, course, alice) -> None:
    from courses.models import Part

    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    client.force_login(alice)
    api = APIClient()
    api.force_login(alice)
    assert client.get(f"/courses/{course.slug}/").status_code == 200
    proxied_database.cut()
    response = client.post(f"/courses/{course.slug}/parts/{part.pk}/answer/", {"answer": "0.85^40"})
    assert response.status_code == 503
    text = response.content.decode()
    assert "may have been saved" in text and "sending it again is not needed" in text
    assert response["Retry-After"]
    answer = api.post(f"/api/v1/courses/{course.slug}/submissions/",
                      {"part": part.pk, "answer": "0.5"}, format="json")
    assert answer.status_code == 503
    assert answer.json()["code"] == "database_unavailable" and answer.json()["answer_may_be_saved"]
    # A GET whose retry fails too (the database still away) is a 503 page, not a 500.
    assert client.get(f"/courses/{course.slug}/").status_code == 503
