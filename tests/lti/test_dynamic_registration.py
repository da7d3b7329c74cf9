"""Dynamic registration (LTI Dynamic Registration 1.0): the LMS opens the tool's registration
page with its OpenID configuration URL and a token; the tool registers itself with the
platform and keeps the platform's registration, after which launches work."""

from typing import Any

import pytest
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from tests.lti.lms_server import LmsRequest, LmsResponse, LmsServer
from tests.lti.platform import INSTRUCTOR, LaunchSpec, Platform

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "reg-token-123"


def _registration_routes(server: LmsServer, received: list[dict[str, Any]]) -> str:
    """The platform's side of dynamic registration on the LMS server; returns the URL the
    LMS sends the administrator to the tool with."""
    issuer = server.url

    def openid_configuration(request: LmsRequest) -> LmsResponse:
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return LmsResponse(401, {"error": "bad token"})
        return LmsResponse(200, {
            "issuer": issuer, "authorization_endpoint": f"{issuer}/auth",
            "token_endpoint": f"{issuer}/token", "jwks_uri": f"{issuer}/jwks",
            "registration_endpoint": f"{issuer}/register",
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "moodle", "version": "4.3"}})

    def register(request: LmsRequest) -> LmsResponse:
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return LmsResponse(401, {"error": "bad token"})
        body = request.json()
        received.append(body)
        return LmsResponse(200, {**body, "client_id": "dyn-client-1",
                                 "https://purl.imsglobal.org/spec/lti-tool-configuration": {
                                     **body["https://purl.imsglobal.org/spec/lti-tool-configuration"],
                                     "deployment_id": "dyn-deployment-1"}})

    server.route("GET", "/.well-known/openid-configuration", openid_configuration)
    server.route("POST", "/register", register)
    return f"{issuer}/.well-known/openid-configuration"


def test_dynamic_registration_then_a_launch(lms_server, live_server, module_05, admin_client):
    received: list[dict[str, Any]] = []
    config_url = _registration_routes(lms_server, received)
    page = f"/lti/register/?openid_configuration={config_url}&registration_token={TOKEN}"

    confirm = admin_client.get(page)
    done = admin_client.post(page)

    assert confirm.status_code == 200 and lms_server.url in confirm.content.decode()
    assert done.status_code == 200, done.content[:500]
    assert "lti/registered.js" in done.content.decode()
    [body] = received
    assert body["jwks_uri"] == "http://testserver/lti/jwks/"
    assert body["initiate_login_uri"] == "http://testserver/lti/login/"
    assert body["redirect_uris"] == ["http://testserver/lti/launch/"]
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in body["scope"].split()
    assert ("https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
            in body["scope"].split())
    messages = body["https://purl.imsglobal.org/spec/lti-tool-configuration"]["messages"]
    assert {m["type"] for m in messages} == {"LtiDeepLinkingRequest", "LtiResourceLinkRequest"}
    registration = LtiRegistration.objects.get(issuer=lms_server.url)
    assert (registration.client_id, registration.keyset_url) == ("dyn-client-1",
                                                                 f"{lms_server.url}/jwks")
    assert LtiDeployment.objects.get(registration=registration).deployment_id == "dyn-deployment-1"
    assert Key.objects.active().exists()

    platform = Platform(lms_server, live_server.url, client_id="dyn-client-1",
                        deployment_id="dyn-deployment-1")
    _, launch = platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))
    assert launch.status_code == 302, launch.text[:500]


def test_registration_needs_a_signed_in_staff_member(client, lms_server):
    config_url = _registration_routes(lms_server, [])
    response = client.get(f"/lti/register/?openid_configuration={config_url}"
                          f"&registration_token={TOKEN}")
    assert response.status_code == 302  # to the sign-in page
    assert not LtiRegistration.objects.exists()


def test_a_configuration_that_names_another_issuer_is_refused(admin_client, lms_server):
    def impostor(request: LmsRequest) -> LmsResponse:
        return LmsResponse(200, {"issuer": "https://lms.other.example",
                                 "registration_endpoint": f"{lms_server.url}/register"})

    lms_server.route("GET", "/impostor/openid-configuration", impostor)
    response = admin_client.get(f"/lti/register/?openid_configuration={lms_server.url}"
                                f"/impostor/openid-configuration&registration_token={TOKEN}")

    assert response.status_code == 403
    assert "names another issuer" in response.content.decode()
    assert not LtiRegistration.objects.exists()


def test_an_unreachable_platform_gets_a_plain_page(admin_client):
    response = admin_client.get("/lti/register/?openid_configuration=http://127.0.0.1:9/x"
                                f"&registration_token={TOKEN}")
    assert response.status_code == 403
    assert "could not be read" in response.content.decode()
