"""A phone's answer in a live session while the database is away (PostgreSQL behind a TCP
proxy the test cuts): refused as NOT saved with the answer kept in the page's form, and
stored when that form is sent again (the phone's form is registered in live/hooks.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from live.models import LiveAnswer
from tests.kept_forms import kept_form
from tests.live.conftest import enrol_students

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_phone_answer_refused_while_the_database_is_away_is_kept_and_stored_when_resent(
        proxied_database, course, session) -> None:
    (student,) = enrol_students(course, 1)
    phone = Client()
    phone.force_login(student)
    url = reverse("live:phone", args=[session.code])
    assert phone.get(url).status_code == 200
    proxied_database.cut()

    refused = phone.post(url, {"answer": "queen"})
    assert refused.status_code == 503 and "NOT saved" in refused.content.decode()
    form = kept_form(refused.content.decode())
    assert form.action == url and form.fields["answer"] == "queen"

    proxied_database.restore()
    assert phone.post(form.action, form.fields).status_code == 302
    assert LiveAnswer.objects.filter(session=session, student=student).count() == 1
