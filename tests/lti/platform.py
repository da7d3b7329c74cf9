"""The LMS of the LTI tests: lti1p3platform's platform classes (OIDC authorisation, signed
launch messages, deep-linking requests and verification of the tool's answer) served over
real HTTP by LmsServer.

Routes on the LMS server:
- GET  /course/launch?hint=<id>   the "click on the activity" link: redirects the browser to
                                  the tool's OIDC login initiation URL (third-party initiated)
- GET  /auth                      OIDC authorisation endpoint: checks the tool's preflight
                                  and answers with the auto-submitting form carrying id_token
- GET  /jwks                      the platform's public keys
- POST /deep-link-return          verifies the tool's LtiDeepLinkingResponse with the tool's
                                  JWKS (fetched over HTTP) and keeps its content items

Each launch is described by a LaunchSpec (who, with which roles, from which context and
resource link, deep linking or not) registered under a hint id; `tamper` lets a test change
the claims or the signing of one launch (the rejection tests).
"""

from __future__ import annotations

import html
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import requests
from jwcrypto.jwk import JWK
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request, TRequest

from tests.lti.lms_server import LmsRequest, LmsResponse, LmsServer

ROLE = "http://purl.imsglobal.org/vocab/lis/v2/membership#{}"
LEARNER = ROLE.format("Learner")
INSTRUCTOR = ROLE.format("Instructor")
TEACHING_ASSISTANT = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
CONTENT_DEVELOPER = ROLE.format("ContentDeveloper")
ADMINISTRATOR = ROLE.format("Administrator")
COURSE_OFFERING = "http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"


def rsa_key_pem() -> tuple[str, str]:
    """A new RSA key pair as (private PEM, public PEM)."""
    key = JWK.generate(kty="RSA", size=2048)
    return (key.export_to_pem(private_key=True, password=None).decode(),
            key.export_to_pem().decode())


@dataclass
class LaunchSpec:
    """One launch the LMS will make."""

    user_id: str
    roles: list[str]
    name: str = ""
    email: str = ""
    context_id: str = "course-101"
    context_title: str = "Deep Learning 101"
    context_label: str = "DL101"
    resource_link_id: str = "link-1"
    resource_link_title: str = "Module 5"
    custom: dict[str, str] = field(default_factory=dict)
    deep_link: bool = False


#: A change to one launch: (claims, headers) -> (claims, headers, private key PEM or None).
Tamper = Callable[[dict[str, Any], dict[str, Any]], tuple[dict[str, Any], dict[str, Any],
                                                          str | None]]


class _LmsRequest(Request):
    def build_metadata(self, request: LmsRequest) -> TRequest:
        return {"method": request.method, "form_data": request.form() if request.method != "GET"
                else {}, "get_data": {k: v[0] for k, v in request.query.items()},
                "headers": request.headers, "content_type": request.headers.get("content-type"),
                "path": request.path, "json": None}


class _PlatformConf(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, **kwargs: Any) -> None:
        self._registration = kwargs["registration"]

    def get_registration_by_params(self, **kwargs: Any) -> Registration:
        return self._registration


class _OidcLogin(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs: Any) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> LmsResponse:
        return LmsResponse(302, b"", "text/plain", {"Location": url})


class _MessageLaunch(LTIAdvantageMessageLaunchAbstract):
    """lti1p3platform's launch, signed by the platform (or as a test's tamper says)."""

    tamper: Tamper | None = None

    def generate_launch_request(self) -> Any:
        if self.tamper is None:
            return super().generate_launch_request()
        launch = super().generate_launch_request()
        registration = self._registration
        assert registration is not None
        claims = json.loads(_b64(launch["id_token"].split(".")[1]))
        headers = {"kid": registration.get_kid()}
        claims, headers, key = self.tamper(claims, headers)
        token = Registration.encode_and_sign(
            claims, key or registration.get_platform_private_key() or "", headers)
        return {"state": launch["state"], "id_token": token}

    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> LmsResponse:
        return LmsResponse(200, launch_form(launch_data["launch_url"], launch_data["id_token"],
                                            launch_data["state"]), "text/html")


def _b64(value: str) -> str:
    import base64
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()


def launch_form(action: str, id_token: str, state: str) -> str:
    """The platform's auto-submitting form that POSTs the launch to the tool."""
    return (f'<!doctype html><html><body><form id="launch" method="post" '
            f'action="{html.escape(action)}">'
            f'<input type="hidden" name="id_token" value="{html.escape(id_token)}">'
            f'<input type="hidden" name="state" value="{html.escape(state)}">'
            f'<button type="submit">Launch</button></form>'
            f"<script>document.getElementById('launch').submit()</script></body></html>")


_FORM_FIELD = re.compile(r'name="(id_token|state)" value="([^"]*)"')
_FORM_ACTION = re.compile(r'action="([^"]*)"')


def parse_launch_form(page: str) -> tuple[str, dict[str, str]]:
    """(action, {id_token, state}) of a launch form page."""
    action = _FORM_ACTION.search(page)
    assert action is not None, page[:500]
    return html.unescape(action.group(1)), {k: html.unescape(v)
                                            for k, v in _FORM_FIELD.findall(page)}


class Platform:
    """An LTI 1.3 platform registered with the tool at `tool_url`."""

    def __init__(self, server: LmsServer, tool_url: str, *, client_id: str = "grader-tool",
                 deployment_id: str = "deployment-1") -> None:
        self.server = server
        self.tool_url = tool_url.rstrip("/")
        self.issuer = server.url
        self.client_id = client_id
        self.deployment_id = deployment_id
        self.private_key, self.public_key = rsa_key_pem()
        self.registration = (
            Registration().set_iss(self.issuer).set_client_id(client_id)
            .set_deployment_id(deployment_id)
            .set_oidc_login_url(f"{self.tool_url}/lti/login/")
            .set_launch_url(f"{self.tool_url}/lti/launch/")
            .set_deeplink_launch_url(f"{self.tool_url}/lti/launch/")
            .set_platform_public_key(self.public_key)
            .set_platform_private_key(self.private_key)
            .set_tool_key_set_url(f"{self.tool_url}/lti/jwks/"))
        self.specs: dict[str, LaunchSpec] = {}
        self.tampers: dict[str, Tamper] = {}
        self.deep_link_items: list[list[dict[str, Any]]] = []
        self.deep_link_errors: list[str] = []
        self._ids = itertools.count(1)
        self.registration_in_tool: Any = None
        server.route("GET", "/course/launch", self._start)
        server.route("GET", "/auth", self._authorize)
        server.route("GET", "/jwks", self._jwks)
        server.route("POST", "/deep-link-return", self._deep_link_return)

    # -- URLs the tool's admin registers ------------------------------------------------------
    @property
    def auth_url(self) -> str:
        return f"{self.issuer}/auth"

    @property
    def keyset_url(self) -> str:
        return f"{self.issuer}/jwks"

    @property
    def token_url(self) -> str:
        return f"{self.issuer}/token"

    def register_in_tool(self, *, deployment_active: bool = True) -> Any:
        """The LtiRegistration (and active deployment) an admin enters for this platform."""
        from lti_tool.models import LtiDeployment, LtiRegistration
        registration = LtiRegistration.objects.create(
            name="Test LMS", issuer=self.issuer, client_id=self.client_id,
            auth_url=self.auth_url, token_url=self.token_url, keyset_url=self.keyset_url)
        LtiDeployment.objects.create(registration=registration, deployment_id=self.deployment_id,
                                     is_active=deployment_active)
        return registration

    def rotate_key(self) -> None:
        """A new platform key pair (the keyset now lists only the new key)."""
        self.private_key, self.public_key = rsa_key_pem()
        self.registration.set_platform_public_key(self.public_key)
        self.registration.set_platform_private_key(self.private_key)

    # -- launches -----------------------------------------------------------------------------
    def launch_url(self, spec: LaunchSpec, tamper: Tamper | None = None) -> str:
        """The LMS link that starts `spec`'s launch in a browser."""
        hint = f"h{next(self._ids)}"
        self.specs[hint] = spec
        if tamper is not None:
            self.tampers[hint] = tamper
        return f"{self.issuer}/course/launch?{urlencode({'hint': hint})}"

    def _start(self, request: LmsRequest) -> LmsResponse:
        hint = request.query["hint"][0]
        spec = self.specs[hint]
        conf = _PlatformConf(registration=self.registration)
        login = _OidcLogin(request, conf)
        login.set_lti_message_hint(hint=hint)
        if spec.deep_link:
            login.set_deeplinking_launch_url()
        response: LmsResponse = login.initiate_login(spec.user_id)
        return response

    def _authorize(self, request: LmsRequest) -> LmsResponse:
        params = {k: v[0] for k, v in request.query.items()}
        hint = params.get("lti_message_hint", "")
        spec = self.specs.get(hint)
        if spec is None or params.get("login_hint") != spec.user_id:
            return LmsResponse(400, {"error": "unknown login"})
        if params.get("redirect_uri") != f"{self.tool_url}/lti/launch/":
            return LmsResponse(400, {"error": "redirect_uri not registered"})
        conf = _PlatformConf(registration=self.registration)
        launch = _MessageLaunch(_LmsRequest(request), conf)
        launch.tamper = self.tampers.get(hint)
        launch.set_user_data(spec.user_id, spec.roles, full_name=spec.name or None,
                             email_address=spec.email or None)
        launch.set_launch_context_claim(spec.context_id, [COURSE_OFFERING], spec.context_title,
                                        spec.context_label)
        launch.set_extra_claims({"given_name": spec.name.partition(" ")[0],
                                 "family_name": spec.name.partition(" ")[2]} if spec.name else {})
        if spec.custom:
            launch.set_custom_parameters_claim(spec.custom)
        if spec.deep_link:
            launch.set_dl(f"{self.issuer}/deep-link-return", title="Add an activity",
                          accept_types={"ltiResourceLink"})
        else:
            launch.set_resource_link_claim(spec.resource_link_id, title=spec.resource_link_title)
        launch.set_ags(f"{self.issuer}/contexts/{spec.context_id}/lineitems")
        launch.set_nrps(f"{self.issuer}/contexts/{spec.context_id}/memberships")
        launch.set_launch_presentation_claim("iframe", f"{self.issuer}/course/return")
        response: LmsResponse = launch.lti_launch()
        return response

    def _jwks(self, request: LmsRequest) -> LmsResponse:
        return LmsResponse(200, {"keys": self.registration.get_jwks()})

    def _deep_link_return(self, request: LmsRequest) -> LmsResponse:
        conf = _PlatformConf(registration=self.registration)
        try:
            items = conf.validate_deeplinking_resp(request.form())
        except Exception as error:
            self.deep_link_errors.append(repr(error))
            return LmsResponse(400, f"refused: {error}", "text/plain")
        self.deep_link_items.append(items)
        return LmsResponse(200, "<!doctype html><p>Activities added.</p>", "text/html")

    # -- a browserless user agent -------------------------------------------------------------
    def launch_over_http(self, spec: LaunchSpec, *, tamper: Tamper | None = None,
                         session: requests.Session | None = None,
                         before_post: Callable[[dict[str, str]], dict[str, str]] | None = None,
                         post_headers: Callable[[str], dict[str, str]] | None = None,
                         ) -> tuple[requests.Session, requests.Response]:
        """Run the launch like a browser that passed the cookie check: LMS link -> tool login
        -> platform authorisation -> POST of the signed launch to the tool (not followed).
        `before_post` may change the form fields; `post_headers` gives extra headers of the
        POST from its URL (Safe Exam Browser's hash). Returns the session and the launch's
        response."""
        http = session or requests.Session()
        start = http.get(self.launch_url(spec, tamper), allow_redirects=False, timeout=10)
        login_url = start.headers["Location"] + "&lti1p3_new_window=1"
        login = http.get(login_url, allow_redirects=False, timeout=10)
        assert login.status_code == 302, login.text[:500]
        auth = http.get(login.headers["Location"], allow_redirects=False, timeout=10)
        assert auth.status_code == 200, auth.text[:500]
        action, fields = parse_launch_form(auth.text)
        if before_post is not None:
            fields = before_post(fields)
        headers = post_headers(action) if post_headers is not None else {}
        response = http.post(action, data=fields, headers=headers, allow_redirects=False,
                             timeout=10)
        return http, response


def expired(claims: dict[str, Any], headers: dict[str, Any]) -> tuple[dict[str, Any],
                                                                       dict[str, Any], None]:
    """Tamper: a token that expired a minute ago."""
    now = int(time.time())
    return {**claims, "iat": now - 600, "exp": now - 60}, headers, None
