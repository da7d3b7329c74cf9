"""The "LTI setup" page: the URLs an administrator pastes into Canvas or Moodle."""

import pytest
from lti_tool.models import Key, LtiDeployment, LtiRegistration


@pytest.fixture
def registration(db) -> LtiRegistration:
    registration = LtiRegistration.objects.create(
        name="Canvas <b>test</b>", issuer="https://canvas.instructure.com", client_id="10000000001",
        auth_url="https://sso.canvaslms.com/api/lti/authorize_redirect",
        token_url="https://sso.canvaslms.com/login/oauth2/token",
        keyset_url="https://sso.canvaslms.com/api/lti/security/jwks")
    LtiDeployment.objects.create(registration=registration, deployment_id="1:abc", is_active=True)
    return registration


def test_setup_page_lists_the_tools_urls_and_each_platform(admin_client, registration):
    page = admin_client.get("/lti/setup/").content.decode()

    for url in ("http://testserver/lti/jwks/", "http://testserver/lti/login/",
                "http://testserver/lti/launch/", f"/lti/login/{registration.uuid}/",
                "https://purl.imsglobal.org/spec/lti-ags/scope/score",
                "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
                "1:abc", "10000000001"):
        assert url in page
    assert "Canvas &lt;b&gt;test&lt;/b&gt;" in page
    assert Key.objects.active().count() == 1  # a fresh installation gets its key


def test_setup_page_is_for_staff_only(client, django_user_model, registration):
    client.force_login(django_user_model.objects.create_user("sam"))

    assert client.get("/lti/setup/").status_code == 302  # to the admin sign-in


def test_jwks_lists_the_old_key_until_it_is_retired(client, db):
    from django.core.management import call_command

    first = client.get("/lti/jwks/").json()["keys"]
    call_command("rotate_keys", "--deactivate-after", "7")
    both = client.get("/lti/jwks/").json()["keys"]
    call_command("rotate_keys", "--deactivate-after", "0")
    later = client.get("/lti/jwks/").json()["keys"]

    assert len(first) == 1 and len(both) == 2
    assert first[0]["kid"] in {k["kid"] for k in both}
    assert first[0]["kid"] not in {k["kid"] for k in later}
