"""Course pages: sign-in required, the module rendered with MathML, other courses are 404."""

import pytest
from django.urls import reverse

from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.django_db


def test_home_requires_sign_in(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_student_signs_in_and_sees_their_course(client, alice, course):
    response = client.post(reverse("login"), {"username": "alice", "password": TEST_PASSWORD})
    assert response.status_code == 302
    home = client.get("/")
    assert course.title in home.content.decode()


def test_module_page_renders_every_section_with_mathml(client, alice, course):
    client.force_login(alice)
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    for number in ("5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7"):
        assert f'id="s-{number}"' in page
    assert "<math" in page
    assert "$$" not in page


def test_module_page_of_another_course_is_404(client, alice, other_course):
    client.force_login(alice)
    assert client.get(reverse("course-module", args=[other_course.slug])).status_code == 404
