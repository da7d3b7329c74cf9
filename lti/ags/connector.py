"""Calls to a platform's LTI services, on pylti1p3's ServiceConnector: the client-assertion
JWT it signs with the tool key, plus access tokens cached (Django cache) until they expire,
timeouts, and errors classified as transient (retry) or final.
"""

import hashlib
import time
import uuid
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from django.core.cache import cache
from lti_tool.models import LtiRegistration
from pylti1p3.service_connector import ServiceConnector

AGS_SCOPES = ("https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
              "https://purl.imsglobal.org/spec/lti-ags/scope/score")
NRPS_SCOPES = ("https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",)
#: A token is dropped from the cache this many seconds before the platform says it expires.
EXPIRY_MARGIN = 30


def http_timeout() -> float:
    """Seconds one request to a platform may take (setting LTI_HTTP_TIMEOUT)."""
    return float(getattr(settings, "LTI_HTTP_TIMEOUT", 10.0))


class PlatformError(Exception):
    """A platform request failed: `status` (None: no answer), the platform's message, and
    whether trying again later may succeed (5xx, 429, timeouts, connection errors, 401)."""

    def __init__(self, message: str, *, status: int | None, transient: bool,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message, self.status, self.transient = message, status, transient
        self.retry_after = retry_after


@dataclass(frozen=True)
class PlatformResponse:
    status: int
    body: Any
    next_url: str | None


class _TimeoutSession(requests.Session):
    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", http_timeout())
        return super().request(*args, **kwargs)


def _error_from(response: requests.Response) -> PlatformError:
    text = (response.text or "").strip()[:500]
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        text = str(body.get("error_description") or body.get("message") or body.get("error")
                   or text)[:500]
    status = response.status_code
    retry_after = None
    if status == 429 and (response.headers.get("Retry-After") or "").isdigit():
        retry_after = float(response.headers["Retry-After"])
    return PlatformError(f"{status}: {text or response.reason}", status=status,
                         transient=status >= 500 or status in (401, 408, 429),
                         retry_after=retry_after)


class PlatformClient(ServiceConnector):
    """A ServiceConnector for one registration whose access tokens live in the Django cache."""

    def __init__(self, registration: LtiRegistration) -> None:
        session = _TimeoutSession()
        session.headers["User-Agent"] = "gradeservice-lti/1"
        super().__init__(registration.to_registration(), requests_session=session)
        self.registration_id = registration.pk

    def _token_key(self, scopes: tuple[str, ...]) -> str:
        digest = hashlib.sha256("|".join(sorted(scopes)).encode()).hexdigest()[:16]
        return f"lti:token:{self.registration_id}:{digest}"

    def get_access_token(self, scopes: Any) -> str:
        """A token for `scopes` from the cache, or a new one from the platform's token URL
        (cached until `expires_in` less a margin)."""
        key = self._token_key(tuple(scopes))
        token = cache.get(key)
        if token:
            return str(token)
        try:
            response = self._token_request(scopes)
        except requests.RequestException as exc:
            raise PlatformError(f"token request failed: {exc}", status=None,
                                transient=True) from exc
        if not response.ok:
            raise _error_from(response)
        body = response.json()
        token = str(body["access_token"])
        lifetime = int(body.get("expires_in") or 3600) - EXPIRY_MARGIN
        if lifetime > 0:
            cache.set(key, token, timeout=lifetime)
        return token

    def _token_request(self, scopes: Any) -> requests.Response:
        registration = self._registration
        client_id = str(registration.get_client_id())
        token_url = str(registration.get_auth_token_url())
        audience = registration.get_auth_audience() or token_url
        now = int(time.time())
        claims: dict[str, str | int] = {
            "iss": client_id, "sub": client_id, "aud": str(audience), "iat": now - 5,
            "exp": now + 60, "jti": f"lti-service-token-{uuid.uuid4()}",
        }
        kid = registration.get_kid()
        assertion = self.encode_jwt(claims, str(registration.get_tool_private_key()),
                                    {"kid": kid} if kid else {})
        return self._requests_session.post(token_url, data={
            "grant_type": "client_credentials",
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": assertion,
            "scope": " ".join(scopes),
        })

    def forget_token(self, scopes: tuple[str, ...]) -> None:
        """Drop the cached token for `scopes` (the platform refused it)."""
        cache.delete(self._token_key(scopes))

    def call(self, method: str, url: str, *, scopes: tuple[str, ...], json_body: Any = None,
             content_type: str = "application/json",
             accept: str = "application/json") -> PlatformResponse:
        """One authorised request; PlatformError unless the platform answers 2xx. A 401 drops
        the cached token (the next try fetches a new one)."""
        token = self.get_access_token(scopes)
        headers = {"Authorization": f"Bearer {token}", "Accept": accept}
        if json_body is not None:
            headers["Content-Type"] = content_type
        try:
            response = self._requests_session.request(method, url, json=json_body,
                                                      headers=headers)
        except requests.RequestException as exc:
            raise PlatformError(f"no answer from the platform: {type(exc).__name__}",
                                status=None, transient=True) from exc
        if response.status_code == 401:
            self.forget_token(scopes)
        if not response.ok:
            raise _error_from(response)
        try:
            body = response.json() if response.content else None
        except ValueError:
            body = None
        next_link = response.links.get("next", {}).get("url")
        return PlatformResponse(status=response.status_code, body=body, next_url=next_link)
