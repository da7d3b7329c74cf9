"""The tool's configuration for pylti1p3, read from django-lti's registrations, with one
change: a launch from a deployment that an admin has not registered (and activated) is
refused, instead of django-lti creating the deployment on the fly."""

from typing import Any

from lti_tool.models import LtiDeployment
from lti_tool.utils import DjangoToolConfig
from pylti1p3.deployment import Deployment


class ToolConfig(DjangoToolConfig):
    """django-lti's tool configuration that only knows registered, active deployments."""

    def _deployment(self, **lookups: Any) -> Deployment | None:
        if self.registration_uuid is not None:
            lookups["registration__uuid"] = self.registration_uuid
        self.deployment = (LtiDeployment.objects.select_related("registration")
                           .filter(is_active=True, registration__is_active=True, **lookups)
                           .first())
        if self.deployment is None:
            return None
        return Deployment().set_deployment_id(self.deployment.deployment_id)

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        """The active deployment `deployment_id` of the issuer, or None (launch refused)."""
        return self._deployment(registration__issuer=iss, deployment_id=deployment_id)

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str, *args: Any, **kwargs: Any
    ) -> Deployment | None:
        """The active deployment of (issuer, client id), or None (launch refused)."""
        return self._deployment(registration__issuer=iss, registration__client_id=client_id,
                                deployment_id=deployment_id)
