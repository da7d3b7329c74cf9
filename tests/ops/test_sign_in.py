"""Sign-in throttling on django-axes: per username and address, on the site's and the
admin's sign-in, the page says signing in is paused, passwords are never stored."""

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import Client

from ops.sign_in import SIGN_IN_PAUSED_MESSAGE
from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user(course):
    from tests.factories import UserFactory

    return UserFactory(username="root", is_staff=True, is_superuser=True)


def _post(path: str, username: str, password: str, address: str = "10.0.0.1",
          client: Client | None = None):
    return (client or Client()).post(path, {"username": username, "password": password},
                                     REMOTE_ADDR=address)


def test_the_admin_sign_in_is_paused_after_five_failures_and_says_so(admin_user):
    for _ in range(4):
        response = _post("/admin/login/", "root", "wrong")
        assert response.status_code == 200 and SIGN_IN_PAUSED_MESSAGE not in response.content.decode()
    fifth = _post("/admin/login/", "root", "wrong")
    assert fifth.status_code == 429 and SIGN_IN_PAUSED_MESSAGE in fifth.content.decode()

    client = Client()
    refused = _post("/admin/login/", "root", TEST_PASSWORD, client=client)
    assert refused.status_code == 429
    assert 'class="errornote"' in refused.content.decode()
    assert "_auth_user_id" not in client.session
    assert _post("/admin/login/", "root", TEST_PASSWORD, address="10.0.0.9").status_code == 302


def test_the_paused_site_page_is_429_keeps_the_username_and_says_so(alice):
    for _ in range(5):
        response = _post("/accounts/login/", "alice", "wrong")
    page = response.content.decode()
    assert response.status_code == 429
    assert "signing in is paused" in page and 'value="alice"' in page
    assert '<form method="post" action="/accounts/login/"' in page


def test_a_pause_on_the_site_also_holds_on_the_admin_for_that_username_and_address(admin_user):
    for _ in range(5):
        _post("/accounts/login/", "root", "wrong")
    assert _post("/admin/login/", "root", TEST_PASSWORD).status_code == 429


def test_failures_are_kept_per_username_and_address_without_the_password(alice):
    _post("/accounts/login/", "alice", "pw-Quokka-5150", address="10.0.0.1")
    _post("/accounts/login/", "alice", "pw-Quokka-5150", address="10.0.0.2")
    attempts = AccessAttempt.objects.order_by("ip_address")
    assert [(a.username, a.ip_address, a.failures_since_start) for a in attempts] == [
        ("alice", "10.0.0.1", 1), ("alice", "10.0.0.2", 1)]
    assert all("pw-Quokka-5150" not in a.post_data for a in attempts)


def test_an_operator_can_lift_a_pause(alice):
    for _ in range(5):
        _post("/accounts/login/", "alice", "wrong")
    assert _post("/accounts/login/", "alice", TEST_PASSWORD).status_code == 429

    call_command("axes_reset_username", "alice", verbosity=0)

    assert _post("/accounts/login/", "alice", TEST_PASSWORD).status_code == 302
