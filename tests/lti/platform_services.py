"""The platform's service side for the tests: OAuth2 client-credentials tokens (the tool's
client assertion verified against the tool's JWKS), AGS line items and scores, NRPS
memberships with paging, and fault injection on the score endpoint.

Scores follow the AGS rule: a score whose timestamp is older than the one the platform holds
for that user and line item is not applied (and counted in `older_rejected`); every score
POST received is also logged in order, so tests can check what arrived and how often.
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import jwt

from tests.lti.lms_server import LmsRequest, LmsResponse, LmsServer

SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"


@dataclass
class ReceivedScore:
    line_item: str
    user_id: str
    body: dict[str, Any]
    applied: bool
    received_at: float = field(default_factory=time.monotonic)

    @property
    def timestamp(self) -> datetime:
        return datetime.fromisoformat(self.body["timestamp"])


@dataclass
class Faults:
    """Faults of the score endpoint: `unavailable` requests answered 503, then `timeouts`
    requests held past the client's timeout (not processed), then normal service."""

    unavailable: int = 0
    timeouts: int = 0
    hold_seconds: float = 2.0
    delay_seconds: float = 0.0  # every score request is this slow (and then processed)
    rejected: list[str] = field(default_factory=list)  # user ids answered 400 (bad user)


class PlatformServices:
    """AGS and NRPS of one platform context on an LmsServer."""

    def __init__(self, server: LmsServer, *, client_id: str, jwks: Callable[[], dict[str, Any]],
                 context_id: str = "course-1", token_lifetime: int = 3600,
                 members_per_page: int = 2) -> None:
        self.server, self.client_id, self.jwks = server, client_id, jwks
        self.token_url = f"{server.url}/token"
        self.context_path = f"/contexts/{context_id}"
        self.lineitems_url = f"{server.url}{self.context_path}/lineitems"
        self.memberships_url = f"{server.url}{self.context_path}/memberships"
        self.token_lifetime = token_lifetime
        self.members_per_page = members_per_page
        self.tokens: dict[str, set[str]] = {}
        self.token_requests = 0
        self.assertion_errors: list[str] = []
        self.line_items: dict[str, dict[str, Any]] = {}
        self.scores: list[ReceivedScore] = []
        self.results: dict[tuple[str, str], dict[str, Any]] = {}
        self.older_rejected = 0
        self.members: list[dict[str, Any]] = []
        self.faults = Faults()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        server.route("POST", "/token", self._token)
        server.route("GET", f"{self.context_path}/lineitems", self._lineitems_get)
        server.route("POST", f"{self.context_path}/lineitems", self._lineitems_post)
        server.route("GET", f"{self.context_path}/memberships", self._memberships)

    # --- OAuth2 -----------------------------------------------------------------------

    def _token(self, request: LmsRequest) -> LmsResponse:
        form = request.form()
        with self._lock:
            self.token_requests += 1
        if form.get("grant_type") != "client_credentials" or form.get(
                "client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            return LmsResponse(400, {"error": "unsupported_grant_type"})
        try:
            assertion = form["client_assertion"]
            kid = jwt.get_unverified_header(assertion).get("kid")
            keys = jwt.PyJWKSet.from_dict(self.jwks())
            key = next(k for k in keys.keys if k.key_id == kid or kid is None)
            claims = jwt.decode(assertion, key.key, algorithms=["RS256"], audience=self.token_url,
                                issuer=self.client_id, options={"require": ["exp", "iat", "jti"]})
            if claims.get("sub") != self.client_id:
                raise jwt.InvalidTokenError("sub is not the client id")
        except (KeyError, StopIteration, jwt.PyJWTError) as exc:
            self.assertion_errors.append(repr(exc))
            return LmsResponse(401, {"error": "invalid_client", "error_description": str(exc)})
        token = secrets.token_urlsafe(16)
        with self._lock:
            self.tokens[token] = set(form.get("scope", "").split())
        return LmsResponse(200, {"access_token": token, "token_type": "Bearer",
                                 "expires_in": self.token_lifetime,
                                 "scope": form.get("scope", "")})

    def _authorised(self, request: LmsRequest, scope: str) -> bool:
        header = request.headers.get("authorization", "")
        token = header.removeprefix("Bearer ").strip()
        return scope in self.tokens.get(token, set())

    # --- AGS --------------------------------------------------------------------------

    def line_item_add(self, *, label: str, score_maximum: float, resource_id: str) -> str:
        """Create a line item as the platform would on deep linking; returns its URL."""
        number = next(self._ids)
        url = f"{self.lineitems_url}/{number}"
        self.line_items[url] = {"id": url, "label": label, "scoreMaximum": score_maximum,
                                "resourceId": resource_id}
        def scores(request: LmsRequest) -> LmsResponse:
            return self._score(request, url)

        self.server.route("POST", f"{self.context_path}/lineitems/{number}/scores", scores)
        return url

    def _lineitems_get(self, request: LmsRequest) -> LmsResponse:
        if not self._authorised(request, LINEITEM_SCOPE):
            return LmsResponse(401, {"error": "invalid_token"})
        wanted = request.query.get("resource_id", [None])[0]
        items = [i for i in self.line_items.values()
                 if wanted is None or i.get("resourceId") == wanted]
        return LmsResponse(200, items, content_type="application/vnd.ims.lis.v2.lineitemcontainer+json")

    def _lineitems_post(self, request: LmsRequest) -> LmsResponse:
        if not self._authorised(request, LINEITEM_SCOPE):
            return LmsResponse(401, {"error": "invalid_token"})
        body = request.json()
        if not isinstance(body, dict) or "label" not in body or "scoreMaximum" not in body:
            return LmsResponse(400, {"error": "label and scoreMaximum are required"})
        url = self.line_item_add(label=body["label"], score_maximum=body["scoreMaximum"],
                                 resource_id=body.get("resourceId", ""))
        return LmsResponse(201, self.line_items[url],
                           content_type="application/vnd.ims.lis.v2.lineitem+json")

    def _score(self, request: LmsRequest, line_item: str) -> LmsResponse:
        with self._lock:
            if self.faults.unavailable > 0:
                self.faults.unavailable -= 1
                return LmsResponse(503, {"error": "maintenance"})
            hold = self.faults.timeouts > 0
            if hold:
                self.faults.timeouts -= 1
        if hold:  # held past the client's timeout, then dropped unprocessed (a gateway's 504)
            time.sleep(self.faults.hold_seconds)
            return LmsResponse(504, {"error": "gateway timeout"})
        if self.faults.delay_seconds:
            time.sleep(self.faults.delay_seconds)
        if not self._authorised(request, SCORE_SCOPE):
            return LmsResponse(401, {"error": "invalid_token"})
        if request.headers.get("content-type") != "application/vnd.ims.lis.v1.score+json":
            return LmsResponse(415, {"error": "unsupported media type"})
        body = request.json()
        user_id = body.get("userId", "")
        if user_id in self.faults.rejected:
            return LmsResponse(400, {"error": "invalid_request",
                                     "error_description": f"User {user_id} is not enrolled"})
        for name in ("scoreGiven", "scoreMaximum", "activityProgress", "gradingProgress",
                     "timestamp"):
            if name not in body:
                return LmsResponse(400, {"error": f"{name} is required"})
        stamp = datetime.fromisoformat(body["timestamp"])
        with self._lock:
            held = self.results.get((line_item, user_id))
            applied = held is None or datetime.fromisoformat(held["timestamp"]) < stamp
            if held is not None and datetime.fromisoformat(held["timestamp"]) > stamp:
                self.older_rejected += 1
            if applied:
                self.results[(line_item, user_id)] = body
            self.scores.append(ReceivedScore(line_item, user_id, body, applied))
        return LmsResponse(200, {})

    def scores_for(self, user_id: str) -> list[ReceivedScore]:
        """Every score POST received for the user, in arrival order."""
        with self._lock:
            return [s for s in self.scores if s.user_id == user_id]

    # --- NRPS -------------------------------------------------------------------------

    def _memberships(self, request: LmsRequest) -> LmsResponse:
        if not self._authorised(request, NRPS_SCOPE):
            return LmsResponse(401, {"error": "invalid_token"})
        page = int(request.query.get("page", ["1"])[0])
        size = self.members_per_page
        chunk = self.members[(page - 1) * size: page * size]
        headers = {}
        if page * size < len(self.members):
            headers["Link"] = f'<{self.memberships_url}?page={page + 1}>; rel="next"'
        return LmsResponse(200, {"id": self.memberships_url,
                                 "context": {"id": self.context_path.rsplit("/", 1)[-1]},
                                 "members": chunk},
                           content_type="application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
                           headers=headers)


def member(sub: str, name: str, email: str = "", roles: tuple[str, ...] = ("Learner",),
           status: str = "Active") -> dict[str, Any]:
    """An NRPS member entry."""
    base = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
    return {"user_id": sub, "name": name, "email": email, "status": status,
            "roles": [base + r for r in roles]}
