"""Every launch the tool must refuse, each with its log line and a plain 403 page: a bad
signature, the wrong audience or issuer, an unknown deployment, an expired token, a replayed
nonce, a state that does not match."""

import logging
from typing import Any

import pytest
import requests
from lti_tool.models import LtiDeployment, LtiUser

from tests.lti.platform import LEARNER, LaunchSpec, Platform, expired, rsa_key_pem

pytestmark = pytest.mark.django_db(transaction=True)


def _spec() -> LaunchSpec:
    return LaunchSpec("student-1", [LEARNER], name="Sam Student")


def _assert_refused(response, caplog, reason: str) -> None:
    assert response.status_code == 403, response.text[:500]
    assert "This launch was refused" in response.text
    assert f"<code>{reason}</code>" in response.text
    lines = [r.getMessage() for r in caplog.records if r.name == "lti.security"]
    assert len(lines) == 1 and f"reason={reason}" in lines[0], lines
    assert not LtiUser.objects.exists()  # nothing recorded from a refused launch


def _claims(**changes):
    def tamper(claims, headers):
        return {**claims, **changes}, headers, None
    return tamper


def test_a_token_signed_by_another_key_is_refused(platform: Platform, caplog):
    stranger_key, _ = rsa_key_pem()
    caplog.set_level(logging.WARNING, "lti.security")

    _, response = platform.launch_over_http(
        _spec(), tamper=lambda claims, headers: (claims, headers, stranger_key))

    _assert_refused(response, caplog, "bad_signature")


def test_a_token_for_another_tool_is_refused(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(_spec(), tamper=_claims(aud="other-tool",
                                                                     azp="other-tool"))
    _assert_refused(response, caplog, "wrong_audience")


def test_a_token_from_an_unregistered_issuer_is_refused(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(_spec(), tamper=_claims(iss="https://lms.evil.example"))
    _assert_refused(response, caplog, "unknown_issuer")
    line = next(r.getMessage() for r in caplog.records if r.name == "lti.security")
    assert "issuer=https://lms.evil.example" in line


def test_a_deployment_nobody_registered_is_refused(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    claim = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
    _, response = platform.launch_over_http(_spec(), tamper=_claims(**{claim: "deployment-x"}))
    _assert_refused(response, caplog, "unknown_deployment")
    assert not LtiDeployment.objects.filter(deployment_id="deployment-x").exists()


def test_an_inactive_deployment_is_refused(platform: Platform, caplog):
    LtiDeployment.objects.update(is_active=False)
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(_spec())
    _assert_refused(response, caplog, "unknown_deployment")


def test_an_expired_token_is_refused(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(_spec(), tamper=expired)
    _assert_refused(response, caplog, "expired_token")


def test_a_replayed_launch_is_refused(platform: Platform, caplog):
    posted: dict[str, str] = {}

    def keep(fields: dict[str, str]) -> dict[str, str]:
        posted.update(fields)
        return fields

    http, first = platform.launch_over_http(_spec(), before_post=keep)
    assert first.status_code == 200  # the context is not set up yet: a page, not a refusal
    LtiUser.objects.all().delete()
    caplog.set_level(logging.WARNING, "lti.security")

    again = http.post(platform.tool_url + "/lti/launch/", data=posted, allow_redirects=False,
                      timeout=10)

    _assert_refused(again, caplog, "replayed_nonce")


def test_a_state_that_does_not_match_the_browsers_is_refused(platform: Platform, caplog):
    caplog.set_level(logging.WARNING, "lti.security")
    _, response = platform.launch_over_http(
        _spec(), before_post=lambda fields: {**fields, "state": "state-forged"})
    _assert_refused(response, caplog, "state_mismatch")
    assert "open the tool in a new window" in response.text


def test_a_launch_posted_from_another_browser_is_refused(platform: Platform, caplog):
    posted: dict[str, str] = {}

    def steal(fields: dict[str, str]) -> dict[str, str]:
        posted.update(fields)
        return {**fields, "id_token": "x.y.z"}  # the victim's own POST goes nowhere

    platform.launch_over_http(_spec(), before_post=steal)
    caplog.clear()
    caplog.set_level(logging.WARNING, "lti.security")

    response = requests.post(platform.tool_url + "/lti/launch/", data=posted,
                             allow_redirects=False, timeout=10)

    _assert_refused(response, caplog, "state_mismatch")


class _BrowserBehindProxy(requests.Session):
    """A browser whose scheme is the TLS proxy's (`X-Forwarded-Proto`): over "https" it sends
    the Secure cookies too (the test's own hop to the live server is HTTP)."""

    def __init__(self, scheme: str) -> None:
        super().__init__()
        self.headers["X-Forwarded-Proto"] = scheme

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        for cookie in self.cookies:
            cookie.secure = False
        return super().request(*args, **kwargs)


@pytest.mark.parametrize(("scheme", "reason"), [("http", "state_mismatch"),
                                                ("https", "unknown_nonce")])
def test_a_token_posted_with_another_browsers_own_state_is_refused(platform: Platform, caplog,
                                                                    scheme, reason, settings):
    """Issue 38 item 4: the victim's signed launch, posted by a browser that holds a state
    cookie of its own sign-in (its state in the form, so the cookie matches), is refused:
    the token's nonce was issued with the victim's state, not this one. Over plain HTTP
    pylti1p3 keeps nonces outside any browser's session, so only this binding refuses it;
    over HTTPS (behind a proxy that says so, as in production) the nonce is not in the
    attacker's session either."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    stolen: dict[str, str] = {}

    def steal(fields: dict[str, str]) -> dict[str, str]:
        stolen.update(fields)
        return {**fields, "id_token": "x.y.z"}  # the victim's own POST goes nowhere

    def swap(fields: dict[str, str]) -> dict[str, str]:
        return {**fields, "id_token": stolen["id_token"]}  # the attacker's own state kept

    platform.launch_over_http(_spec(), session=_BrowserBehindProxy(scheme), before_post=steal)
    caplog.clear()
    caplog.set_level(logging.WARNING, "lti.security")

    _, response = platform.launch_over_http(LaunchSpec("attacker-1", [LEARNER]),
                                            session=_BrowserBehindProxy(scheme), before_post=swap)

    _assert_refused(response, caplog, reason)


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_launch_from_the_browser_that_signed_in_is_accepted(platform: Platform, scheme,
                                                              settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    _, response = platform.launch_over_http(_spec(), session=_BrowserBehindProxy(scheme))

    assert response.status_code == 200, response.text[:500]  # context not set up: a page
    assert LtiUser.objects.filter(sub="student-1").exists()


def test_a_rotated_platform_key_is_fetched_again_once(platform: Platform, lms_server):
    platform.launch_over_http(_spec())
    platform.launch_over_http(LaunchSpec("student-2", [LEARNER]))
    assert len(lms_server.received("GET", "/jwks")) == 1  # cached

    platform.rotate_key()
    _, response = platform.launch_over_http(LaunchSpec("student-3", [LEARNER]))

    assert response.status_code == 200, response.text[:500]
    assert len(lms_server.received("GET", "/jwks")) == 2
