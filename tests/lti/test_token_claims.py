"""Signed tokens the tool must still refuse because of what they claim: no expiry or issue
time, dates that are not numbers, a lifetime longer than LTI_MAX_TOKEN_LIFETIME_SECONDS, an
issue time in the future, a nonce the tool never issued, an audience list whose authorised
party is another client; and claims longer than the columns they are stored in."""

import logging
import time

import pytest
from django.contrib.auth.models import User
from lti_tool.models import LtiContext, LtiUser

from courses.models import Course
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec, Platform

pytestmark = pytest.mark.django_db(transaction=True)


def _spec() -> LaunchSpec:
    return LaunchSpec("student-1", [LEARNER], name="Sam Student")


def _assert_refused(response, caplog, reason: str) -> None:
    assert response.status_code == 403, response.text[:500]
    assert f"<code>{reason}</code>" in response.text
    lines = [r.getMessage() for r in caplog.records if r.name == "lti.security"]
    assert len(lines) == 1 and f"reason={reason}" in lines[0], lines
    assert not LtiUser.objects.exists()


def _tamper(drop: tuple[str, ...] = (), **changes):
    def tamper(claims, headers):
        kept = {k: v for k, v in claims.items() if k not in drop}
        return {**kept, **changes}, headers, None
    return tamper


@pytest.mark.parametrize(("tamper", "reason"), [
    (_tamper(drop=("exp",)), "invalid_dates"),
    (_tamper(drop=("exp", "iat")), "invalid_dates"),
    (_tamper(drop=("iat",)), "invalid_dates"),
    (_tamper(exp=str(int(time.time()) + 300)), "invalid_dates"),
    (_tamper(iat=str(int(time.time()))), "invalid_dates"),
    (_tamper(exp=True), "invalid_dates"),
    (_tamper(exp=int(time.time()) + 10 * 365 * 24 * 3600), "token_lifetime"),
    (_tamper(iat=int(time.time()) + 3600, exp=int(time.time()) + 3900), "issued_in_future"),
], ids=["no-exp", "no-exp-no-iat", "no-iat", "exp-string", "iat-string", "exp-bool",
        "exp-ten-years", "iat-future"])
def test_tokens_with_bad_dates_are_refused(platform: Platform, caplog, tamper, reason):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(_spec(), tamper=tamper)
    _assert_refused(response, caplog, reason)


def test_a_lifetime_within_the_setting_is_accepted(platform: Platform, settings):
    settings.LTI_MAX_TOKEN_LIFETIME_SECONDS = 7200
    now = int(time.time())
    _, response = platform.launch_over_http(_spec(), tamper=_tamper(iat=now, exp=now + 3600))
    assert response.status_code == 200, response.text[:500]  # context not set up: a page


def test_a_nonce_the_tool_never_issued_is_not_called_a_replay(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(_spec(), tamper=_tamper(nonce="never-issued"))
    _assert_refused(response, caplog, "unknown_nonce")


@pytest.mark.parametrize("azp", ["other-tool", None], ids=["azp-other", "no-azp"])
def test_an_audience_list_must_name_the_tool_as_authorised_party(platform: Platform, caplog,
                                                                    azp):
    caplog.set_level(logging.WARNING, "lti.security")
    audience = ["other-tool", platform.client_id]
    tamper = _tamper(aud=audience, azp=azp) if azp else _tamper(drop=("azp",), aud=audience)
    _, response = platform.launch_over_http(_spec(), tamper=tamper)
    _assert_refused(response, caplog, "wrong_audience")


def test_a_token_for_another_tool_naming_this_tool_as_authorised_party_is_refused(
        platform: Platform, caplog):
    """`azp` is this tool but the audience is only another tool: the token was not issued to
    this tool, whatever `azp` says (issue 38 item 5)."""
    caplog.set_level(logging.WARNING, "lti.security")
    tamper = _tamper(aud=["other-tool"], azp=platform.client_id)
    _, response = platform.launch_over_http(_spec(), tamper=tamper)
    _assert_refused(response, caplog, "wrong_audience")


def test_an_audience_list_with_the_tool_as_authorised_party_is_accepted(platform: Platform):
    tamper = _tamper(aud=["other-tool", platform.client_id], azp=platform.client_id)
    _, response = platform.launch_over_http(_spec(), tamper=tamper)
    assert response.status_code == 200, response.text[:500]
    assert LtiUser.objects.filter(sub="student-1").exists()


def test_a_subject_longer_than_its_column_is_refused(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(LaunchSpec("s" * 256, [LEARNER]))
    _assert_refused(response, caplog, "invalid_message")
    line = next(r.getMessage() for r in caplog.records if r.name == "lti.security")
    assert "'sub' claim" in line


def test_a_subject_that_is_not_a_string_is_refused(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(_spec(), tamper=_tamper(sub={"id": 1}))
    _assert_refused(response, caplog, "invalid_message")


def test_long_names_titles_and_emails_are_stored_safely(platform: Platform):
    context_claim = "https://purl.imsglobal.org/spec/lti/claim/context"
    long_email = "a" * 250 + "@uni.example"

    def tamper(claims, headers):
        context = {**claims[context_claim], "title": "T" * 900, "label": "L" * 400}
        return ({**claims, context_claim: context, "email": long_email,
                 "given_name": "G" * 600, "family_name": "F" * 600, "name": "N" * 1300},
                headers, None)

    _, response = platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]), tamper=tamper)

    assert response.status_code == 302, response.text[:500]
    lti_user = LtiUser.objects.get(sub="teacher-1")
    assert lti_user.email == ""  # a shortened address would be someone else's
    assert (len(lti_user.given_name), len(lti_user.family_name), len(lti_user.name)) == (
        500, 500, 500)
    user = User.objects.get(pk=lti_user.auth_user_id)
    assert (user.email, len(user.first_name), len(user.last_name)) == ("", 150, 150)
    context = LtiContext.objects.get()
    assert (context.title, context.label) == ("T" * 500, "L" * 255)
    assert Course.objects.get().title == "T" * 200
