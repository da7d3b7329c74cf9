"""Per-address limit on failed sign-ins: spraying one password over many usernames from one
address is refused (429, its own message) once the address has SIGN_IN_ADDRESS_MAX_FAILURES
failures, on the site's and the admin's sign-in, whatever axes' per-user count says; other
addresses are untouched; behind SIGN_IN_PROXY_COUNT proxies the forwarded client counts."""

import pytest
from django.core.cache import cache
from django.test import Client

from ops.sign_in_spray import ADDRESS_PAUSED_MESSAGE, failures
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _limits(settings):
    settings.SIGN_IN_ADDRESS_MAX_FAILURES = 6
    settings.SIGN_IN_ADDRESS_WINDOW_SECONDS = 900
    keys = [f"sign-in-failures:{a}" for a in ("10.1.0.1", "10.1.0.2", "203.0.113.7",
                                                 "203.0.113.8", "10.9.9.9")]
    cache.delete_many(keys)  # only this test's keys: the cache may be a shared Redis
    yield
    cache.delete_many(keys)


def _post(path: str, username: str, password: str, **meta):
    meta.setdefault("REMOTE_ADDR", "10.1.0.1")
    return Client().post(path, {"username": username, "password": password}, **meta)


def test_spraying_usernames_from_one_address_is_refused_after_the_limit_with_429():
    user = UserFactory(username="victim")
    for n in range(6):  # one failure per username: axes' per-user pause never trips
        response = _post("/accounts/login/", f"user{n}", "Spring2026!")
        assert response.status_code == 200
    assert failures("10.1.0.1") == 6
    refused = _post("/accounts/login/", user.username, TEST_PASSWORD)
    assert refused.status_code == 429
    assert ADDRESS_PAUSED_MESSAGE in refused.content.decode()
    assert _post("/admin/login/", "someone", "x").status_code == 429
    # Another address signs in as usual.
    assert _post("/accounts/login/", user.username, TEST_PASSWORD,
                 REMOTE_ADDR="10.1.0.2").status_code == 302


def test_the_address_limit_forgets_after_its_window():
    for n in range(6):
        _post("/accounts/login/", f"user{n}", "x")
    assert _post("/accounts/login/", "a", "x").status_code == 429
    cache.delete("sign-in-failures:10.1.0.1")  # what the window's expiry does
    assert _post("/accounts/login/", "a", "x").status_code == 200


def test_behind_a_trusted_proxy_the_forwarded_client_address_is_counted(settings):
    settings.AXES_IPWARE_PROXY_COUNT = 1
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
    for n in range(6):
        _post("/accounts/login/", f"user{n}", "x", REMOTE_ADDR="10.9.9.9",
              HTTP_X_FORWARDED_FOR="203.0.113.7, 10.9.9.8")
    assert failures("203.0.113.7") == 6
    assert _post("/accounts/login/", "a", "x", REMOTE_ADDR="10.9.9.9",
                 HTTP_X_FORWARDED_FOR="203.0.113.7, 10.9.9.8").status_code == 429
    assert _post("/accounts/login/", "a", "x", REMOTE_ADDR="10.9.9.9",
                 HTTP_X_FORWARDED_FOR="203.0.113.8, 10.9.9.8").status_code == 200
