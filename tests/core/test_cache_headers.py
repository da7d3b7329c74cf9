"""Pages, exports and API answers of signed-in people and API clients say
`Cache-Control: private, no-store`."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


@pytest.mark.parametrize("address", [
    "/", "/courses/rnn-autumn/", "/courses/rnn-autumn/dashboard/progress/",
    "/courses/rnn-autumn/dashboard/export/gradebook.csv",
    "/courses/rnn-autumn/dashboard/export/submissions.csv",
    "/api/v1/courses/rnn-autumn/gradebook/", "/api/v1/courses/",
])
def test_authenticated_pages_and_exports_are_private_no_store(irene, address):
    client = Client()
    client.force_login(irene)

    response = client.get(address)

    assert response.status_code == 200, address
    assert {"private", "no-store"} <= _directives(response), response.get("Cache-Control")
    assert "public" not in _directives(response)


def test_an_api_key_answer_is_private_no_store(course, irene):
    from api.keys import api_key_create
    from api.models import ApiKey

    token = api_key_create(course=course, name="LMS", role=ApiKey.Role.LMS, created_by=irene).token
    response = Client().get(f"/api/v1/courses/{course.slug}/gradebook/",
                            HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 200
    assert {"private", "no-store"} <= _directives(response)

