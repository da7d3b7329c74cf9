"""The session store reads what Django's database store reads: the stored, unexpired session
of the key, and nothing for an unknown, expired or missing key."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _stored(**data) -> str:
    store = DjangoStore()
    store.update(data)
    store.create()
    return str(store.session_key)


def test_a_stored_session_reads_as_djangos_store_reads_it():
    key = _stored(answer=42, words=["queen"])
    mine, theirs = SessionStore(key), DjangoStore(key)
    assert mine.load() == theirs.load() == {"answer": 42, "words": ["queen"]}
    assert mine.session_key == key


@pytest.mark.parametrize("key", ["not-a-stored-key", "", None])
def test_an_unknown_or_missing_key_reads_empty_and_is_forgotten(key):
    store = SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None


def test_an_expired_session_reads_empty():
    key = _stored(answer=1)
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    store = SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None


def test_a_change_is_saved_and_read_back(client, alice):
    client.force_login(alice)
    key = client.session.session_key
    store = SessionStore(key)
    store["seen"] = True
    store.save()
    assert SessionStore(key).load()["seen"] is True
    assert DjangoStore(key).load()["seen"] is True


def test_a_signed_in_page_reads_the_session_with_one_plain_statement(client, alice):
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if "django_session" in q["sql"]]
    assert len(reads) == 1 and "WHERE s.session_key = " in reads[0]
