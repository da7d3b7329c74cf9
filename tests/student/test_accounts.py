"""Signing in without an LMS (issue 37 item 10): a password link opens a page in the site's
layout where the person chooses a password and is signed in; the link works once and
expires; the sign-in page says how to get one; a reset by e-mail where the service has an
e-mail backend (also for accounts without a password yet); an invite page that signs in an
existing account."""

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from courses.models import Enrollment
from courses.password_links import password_link_create
from courses.people import invite_create
from courses.people_import import people_import

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase 47"


@pytest.fixture
def carol(course, irene):
    people_import(course=course, by=irene, apply=True,
                  text="username,email\ncarol,carol@example.org\n")
    return Enrollment.objects.get(course=course, user__username="carol")


def _link(course, irene, carol) -> str:
    link = password_link_create(course=course, by=irene, enrollment_id=carol.pk)
    return reverse("password_reset_confirm", kwargs={"uidb64": link.uidb64, "token": link.token})


def _set(client, url, password=PASSWORD):
    page = client.get(url, follow=True)
    return page, client.post(page.redirect_chain[-1][0], {
        "new_password1": password, "new_password2": password}, follow=True)


def test_a_password_link_sets_the_password_and_signs_in(client, course, irene, carol):
    page, done = _set(client, _link(course, irene, carol))
    assert "Choose your password" in page.content.decode()
    assert "Your username is <strong>carol</strong>" in page.content.decode()
    assert done.redirect_chain[-1][0] == reverse("home")
    assert "Your password is set and you are signed in." in done.content.decode()
    assert "RNNs, autumn" in done.content.decode()
    carol.user.refresh_from_db()
    assert carol.user.check_password(PASSWORD)
    client.logout()
    signed_in = client.post(reverse("login"), {"username": "carol", "password": PASSWORD})
    assert signed_in.status_code == 302 and signed_in["Location"] == reverse("home")


def test_a_password_link_works_once(client, course, irene, carol):
    url = _link(course, irene, carol)
    _set(client, url)
    client.logout()
    again = client.get(url, follow=True).content.decode()
    assert "This password link has been used, has expired" in again
    assert "Ask your course's instructor for a new one" in again


def test_an_expired_password_link_is_refused(client, settings, course, irene, carol):
    url = _link(course, irene, carol)
    settings.PASSWORD_RESET_TIMEOUT = -1
    assert "has expired" in client.get(url, follow=True).content.decode()


def test_a_weak_password_is_refused_with_the_rules(client, course, irene, carol):
    _, done = _set(client, _link(course, irene, carol), password="12345678")
    assert "This password is too common." in done.content.decode()
    carol.user.refresh_from_db()
    assert not carol.user.has_usable_password()


def test_the_sign_in_page_says_how_to_get_a_password(client, settings):
    settings.PASSWORD_RESET_BY_EMAIL = False
    page = client.get(reverse("login")).content.decode()
    assert "Ask your course's instructor for a password link." in page
    assert reverse("password_reset") not in page
    assert client.get(reverse("password_reset")).status_code == 404
    settings.PASSWORD_RESET_BY_EMAIL = True
    page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}">Forgot your password, or never had one?' in page


def test_a_reset_by_e_mail_reaches_an_account_without_a_password(client, settings, mailoutbox,
                                                                 carol):
    settings.PASSWORD_RESET_BY_EMAIL = True
    sent = client.post(reverse("password_reset"), {"email": "Carol@example.org"}, follow=True)
    assert "Check your e-mail" in sent.content.decode()
    [mail] = mailoutbox
    assert mail.to == ["carol@example.org"] and 'your account "carol"' in mail.body
    found = re.search(r"http://testserver(/accounts/password/\S+/)", mail.body)
    assert found is not None, mail.body
    _, done = _set(client, found.group(1))
    assert done.redirect_chain[-1][0] == reverse("home")
    assert User.objects.get(username="carol").check_password(PASSWORD)


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, settings,
                                                                       mailoutbox):
    settings.PASSWORD_RESET_BY_EMAIL = True
    sent = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert "Check your e-mail" in sent.content.decode()
    assert mailoutbox == []


def test_an_invite_link_signs_in_an_existing_account_then_joins(client, course, other_course,
                                                                oscar, alice):
    invite = invite_create(course=other_course, by=oscar, role="student")
    url = reverse("invite", args=[invite.token])
    page = client.get(url).content.decode()
    assert f'action="{reverse("login")}"' in page and f'name="next" value="{url}"' in page
    signed_in = client.post(reverse("login"), {"username": "alice", "password":
                                               "correct horse battery staple", "next": url})
    assert signed_in["Location"] == url
    joined = client.post(url, {"action": "join"})
    assert joined["Location"] == reverse("course-module", args=[other_course.slug])
    assert Enrollment.objects.filter(course=other_course, user=alice).exists()


def test_signing_up_with_the_username_of_an_account_without_a_password_says_what_to_do(
        client, course, irene, carol):
    invite = invite_create(course=course, by=irene, role="student")
    refused = client.post(reverse("invite", args=[invite.token]), {
        "action": "sign-up", "username": "carol", "email": "c2@example.org",
        "password": PASSWORD}).content.decode()
    assert "ask them for a password link" in refused
