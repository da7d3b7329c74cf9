"""The user of each signed-in request is read by hand, as ModelBackend reads it; sessions
signed in through Django's ModelBackend before still sign in."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from core.auth_backend import LEGACY_BACKEND, USER_BACKEND, UserBackend
from core.sessions import SessionStore
from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.django_db


def test_the_user_read_by_hand_is_the_one_modelbackend_reads(alice):
    mine, theirs = UserBackend().get_user(str(alice.pk)), ModelBackend().get_user(str(alice.pk))
    assert isinstance(mine, User) and mine.pk == alice.pk
    assert model_to_dict(mine) == model_to_dict(theirs)
    assert mine.get_session_auth_hash() == alice.get_session_auth_hash()


@pytest.mark.parametrize("user_id", ["999999", "not-a-number", None])
def test_no_user_for_an_unknown_or_unreadable_id(user_id):
    assert UserBackend().get_user(user_id) is None


def test_an_inactive_user_is_not_signed_in(alice):
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert UserBackend().get_user(alice.pk) is None


def _session_of(user: User, backend: str) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


@pytest.mark.parametrize("backend", [LEGACY_BACKEND, USER_BACKEND])
def test_a_session_signed_in_before_or_now_opens_the_page_reading_the_user_by_hand(
        client, alice, backend):
    client.cookies["sessionid"] = _session_of(alice, backend)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/")
    assert page.status_code == 200 and alice.username.encode() in page.content
    users = [q["sql"] for q in queries.captured_queries if "auth_user" in q["sql"]]
    assert len(users) == 1 and "WHERE u.id = " in users[0]


def test_signing_in_through_the_form_stores_this_backend(client, alice):
    page = client.post("/accounts/login/", {"username": alice.username, "password": TEST_PASSWORD})
    assert page.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == USER_BACKEND
