"""The REST API answers JSON to a browser too (no browsable HTML API): its routes are not pages,
and the one page for people is the Swagger UI page (api-docs), walked with axe in
tests/browser/test_accessibility_walk_admin.py."""

import pytest

pytestmark = pytest.mark.django_db

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_a_browser_signed_in_gets_json_not_an_html_page(client, irene, course):
    client.force_login(irene)
    response = client.get(f"/api/v1/courses/{course.slug}/", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["slug"] == course.slug


def test_the_browsable_api_format_is_not_offered(client, irene, course):
    client.force_login(irene)
    response = client.get(f"/api/v1/courses/{course.slug}/?format=api")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
