"""What the API does with requests it cannot serve: unknown paths, bad query values, bodies
that are not JSON. Each gets the one error shape and a 4xx, never a page or a silent default."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
def test_an_unknown_api_path_answers_the_json_404_for_every_method(method, irene) -> None:
    # A session-authenticated browser client with CSRF checks on, as a real browser is.
    client = Client(enforce_csrf_checks=True)
    client.force_login(irene)
    if method == "get":
        response = client.get("/api/v1/no-such-thing/")
    else:
        response = getattr(client, method)("/api/v1/no-such-thing/", data="{}",
                                           content_type="application/json")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"code": "not_found", "message": "No such API endpoint.", "fields": {}}


def test_a_csrf_refusal_under_the_api_is_json(course, irene) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(irene)
    response = client.put(f"/api/v1/courses/{course.slug}/roster/", data='{"roster": []}',
                          content_type="application/json")
    assert response.status_code == 403
    assert set(response.json()) == {"code", "message", "fields"}


@pytest.mark.parametrize("query", [
    "offset=null", "offset=-1", "offset=1.5", "offset=", "limit=abc", "limit=0", "limit=",
    "limit=-5",
])
@pytest.mark.parametrize("tail", ["submissions/", "lab-runs/", "roster/", "webhook-deliveries/"])
def test_bad_page_parameters_are_a_400_naming_them(course, irene, client_for, query, tail) -> None:
    response = client_for(irene).get(f"/api/v1/courses/{course.slug}/{tail}?{query}")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert query.split("=")[0] in response.json()["fields"]


@pytest.mark.parametrize(("tail", "query"), [
    ("submissions/", "since="), ("submissions/", "since=yesterday"), ("submissions/", "since=null"),
    ("submissions/", "part="), ("submissions/", "part=abc"), ("submissions/", "student="),
    ("submissions/", "exercise="), ("gradebook/", "updated_since="),
    ("gradebook/", "updated_since=null"), ("gradebook/", "updated_since=2026-13-45"),
    ("gradebook/", "group="), ("lab-runs/", "student="), ("lab-runs/", "student=x"),
    ("webhook-deliveries/", "status="), ("webhook-deliveries/", "status=lost"),
])
def test_bad_filter_values_are_a_400_not_an_unfiltered_list(course, irene, client_for, tail,
                                                             query) -> None:
    response = client_for(irene).get(f"/api/v1/courses/{course.slug}/{tail}?{query}")
    assert response.status_code == 400, response.content
    assert query.split("=")[0] in response.json()["fields"]


def test_good_page_and_filter_values_still_work(course, irene, client_for) -> None:
    client = client_for(irene)
    base = f"/api/v1/courses/{course.slug}"
    assert client.get(f"{base}/submissions/?limit=5&offset=0&since=2020-01-01T00:00:00Z").status_code == 200
    assert client.get(f"{base}/gradebook/?updated_since=2020-01-01T00:00:00Z").status_code == 200
    assert client.get(f"{base}/submissions/?limit=500").json()["results"] == []
