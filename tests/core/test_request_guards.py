"""A NUL character in any address or form field is a 400 with a message on every page and
API endpoint (on PostgreSQL, which cannot store one, it used to reach the database: a 500)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

DASHBOARD = "/courses/rnn-autumn/dashboard/"


@pytest.mark.parametrize("address", [
    DASHBOARD + "progress/?q=%00", DASHBOARD + "progress/?group=%00",
    DASHBOARD + "progress/?sort=%00", DASHBOARD + "statistics/?group=%00",
    DASHBOARD + "misconceptions/?group=%00", DASHBOARD + "export/gradebook.csv?group=%00",
    DASHBOARD + "progress/?q=a%00b", DASHBOARD + "progress/?%00=1",
    "/courses/rnn-autumn/?row=%00", "/lti/sync/?state=%00",
])
def test_a_nul_in_a_page_query_is_a_400_page(irene, address):
    client = Client()
    client.force_login(irene)

    response = client.get(address)

    assert response.status_code == 400, response.content[:300]
    assert b"NUL character" in response.content


@pytest.mark.parametrize("address", [
    "/api/v1/courses/rnn-autumn/submissions/?student=%00",
    "/api/v1/courses/rnn-autumn/gradebook/?group=%00",
    "/api/v1/courses/rnn-autumn/lab-runs/?student=%00",
    "/api/v1/courses/rnn-autumn/submissions/?exercise=x%00",
    "/api/v1/courses/rnn%00autumn/",
])
def test_a_nul_in_an_api_address_is_a_json_400(irene, address):
    client = Client()
    client.force_login(irene)

    response = client.get(address)

    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "bad_request" and "NUL character" in body["message"]


def test_a_nul_in_a_form_field_is_a_400(db):
    response = Client().post("/accounts/login/", "username=irene%00&password=x",
                             content_type="application/x-www-form-urlencoded")

    assert response.status_code == 400
    assert b"NUL character (%00) in its form" in response.content


def test_an_ordinary_query_still_works(irene):
    client = Client()
    client.force_login(irene)
    assert client.get(DASHBOARD + "progress/?q=alice&group=A").status_code == 200
