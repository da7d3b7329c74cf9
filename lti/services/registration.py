"""Dynamic registration (LTI Dynamic Registration 1.0, Moodle 4.1+ and Canvas): what the tool
tells the platform about itself, and the registration it keeps of the platform."""

from typing import Any

from django.db import transaction
from lti_dynamic_registration.types import LmsLtiRegistration, LmsLtiToolConfiguration, LtiMessage
from lti_tool.models import LtiDeployment, LtiRegistration

from lti.selectors import ToolUrls

#: The scopes the tool asks for: AGS line items and scores (and results), NRPS.
SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
]
TOOL_NAME = "Module 5: from recurrent networks to attention"
PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"


class _Message(LtiMessage):
    """The add-on's LTI message with its `to_dict` fixed (0.1.2 iterates the dict's keys)."""

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v}


def tool_registration_request(*, urls: ToolUrls, domain: str) -> dict[str, Any]:
    """The client registration the tool POSTs to the platform: its JWKS, login, launch and
    deep-linking URLs, the AGS and NRPS scopes, name and e-mail claims."""
    configuration = LmsLtiToolConfiguration(
        domain=domain, target_link_uri=urls.launch,
        claims=["iss", "sub", "name", "given_name", "family_name", "email"],
        messages=[_Message(type="LtiDeepLinkingRequest", target_link_uri=urls.deep_linking,
                           label="Module 5 activity"),
                  _Message(type="LtiResourceLinkRequest", target_link_uri=urls.launch)],
        description="Auto-graded exercises, predictions and labs of Module 5.")
    registration = LmsLtiRegistration(
        client_name=TOOL_NAME, jwks_uri=urls.jwks, initiate_login_uri=urls.login,
        target_link_uri=urls.launch, scopes=SCOPES, lti_tool_configuration=configuration)
    return dict(registration.to_dict())


@transaction.atomic
def registration_from_dynamic(*, openid_config: dict[str, Any],
                              platform_answer: dict[str, Any]) -> LtiRegistration:
    """The platform's registration in the tool, from its OpenID configuration and its answer
    to our registration request (client id, deployment id), with that deployment active."""
    platform = openid_config.get(PLATFORM_CONFIGURATION, {})
    registration = LtiRegistration.objects.create(
        name=str(platform.get("product_family_code") or openid_config["issuer"])[:255],
        issuer=openid_config["issuer"], client_id=platform_answer["client_id"],
        auth_url=openid_config["authorization_endpoint"],
        token_url=openid_config["token_endpoint"], keyset_url=openid_config["jwks_uri"])
    deployment_id = platform_answer.get(TOOL_CONFIGURATION, {}).get("deployment_id")
    if deployment_id:
        LtiDeployment.objects.create(registration=registration, deployment_id=deployment_id,
                                     is_active=True)
    return registration
