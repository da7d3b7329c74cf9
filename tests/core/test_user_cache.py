"""The request's user comes from the cache, read from the database once, and a save,
a deletion or a bulk write of users flushes the copy; sessions are Django's cached_db."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from core.user_cache import USER_BACKEND, CachedUserBackend, user_cache_flush
from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def test_the_cached_user_is_the_one_modelbackend_reads(alice):
    mine = CachedUserBackend().get_user(str(alice.pk))
    theirs = ModelBackend().get_user(str(alice.pk))
    assert isinstance(mine, User) and mine.pk == alice.pk
    assert model_to_dict(mine) == model_to_dict(theirs)
    assert mine.get_session_auth_hash() == alice.get_session_auth_hash()


def test_the_second_read_runs_no_query(alice):
    CachedUserBackend().get_user(alice.pk)
    with CaptureQueriesContext(connection) as queries:
        again = CachedUserBackend().get_user(alice.pk)
    assert again is not None and again.pk == alice.pk
    assert len(queries) == 0


@pytest.mark.parametrize("user_id", ["999999", "not-a-number", None])
def test_no_user_for_an_unknown_or_unreadable_id(user_id):
    assert CachedUserBackend().get_user(user_id) is None


def test_a_save_flushes_the_copy(alice):
    CachedUserBackend().get_user(alice.pk)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert CachedUserBackend().get_user(alice.pk) is None


def test_a_password_change_signs_the_old_session_out(client, alice):
    client.force_login(alice)
    assert client.get("/").status_code == 200
    alice.set_password("another-long-password-1")
    alice.save()
    page = client.get("/courses/rnn-autumn/")
    assert page.status_code == 302  # to the sign-in page: the session's hash is stale


def test_a_deleted_user_is_gone():
    user = User.objects.create_user("dora", password=TEST_PASSWORD)
    CachedUserBackend().get_user(user.pk)
    pk = user.pk
    user.delete()
    assert CachedUserBackend().get_user(pk) is None


def test_a_bulk_write_flushed_by_hand_is_seen(alice):
    CachedUserBackend().get_user(alice.pk)
    User.objects.filter(pk=alice.pk).update(first_name="Alicia")
    assert CachedUserBackend().get_user(alice.pk).first_name != "Alicia"
    user_cache_flush([alice.pk])
    assert CachedUserBackend().get_user(alice.pk).first_name == "Alicia"


def test_a_signed_in_page_reads_neither_session_nor_user_from_the_database(client, alice):
    client.force_login(alice)
    client.get("/")  # the first request fills the cache
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/")
    assert page.status_code == 200 and alice.username.encode() in page.content
    tables = " ".join(q["sql"] for q in queries.captured_queries)
    assert "auth_user" not in tables and "django_session" not in tables


def test_signing_in_through_the_form_stores_this_backend(client, alice):
    page = client.post("/accounts/login/", {"username": alice.username,
                                            "password": TEST_PASSWORD})
    assert page.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == USER_BACKEND
