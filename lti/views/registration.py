"""Dynamic registration: an LMS administrator starts it in the LMS (Moodle 4.1+, Canvas),
which opens this page with `openid_configuration` and `registration_token`; a staff member
of this site confirms, and the tool registers itself with the platform and the platform with
itself (django-lti-dynamic-registration's flow, with timeouts and HTTPS)."""

from typing import Any

import requests
from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.decorators import method_decorator
from django.views.decorators.clickjacking import xframe_options_exempt
from lti_dynamic_registration.views import DynamicRegistrationBaseView

from lti.selectors import tool_urls
from lti.services.keys import tool_key_ensure
from lti.services.registration import SCOPES, registration_from_dynamic, tool_registration_request


def _checked_url(url: str) -> str:
    if url.startswith("https://") or (settings.LTI_ALLOW_HTTP_KEYSET
                                      and url.startswith("http://")):
        return url
    raise PermissionDenied("The platform's registration addresses must use HTTPS.")


@method_decorator([staff_member_required, xframe_options_exempt], name="dispatch")
class DynamicRegistrationView(DynamicRegistrationBaseView):
    """GET: what will be registered, to confirm. POST: register, then tell the LMS to close
    the registration window."""

    tool_friendly_name = "Module 5"

    def get_openid_config(self) -> dict[str, Any]:
        """The platform's OpenID configuration (its issuer must prefix the URL it came from)."""
        url = _checked_url(self.request.GET.get("openid_configuration", ""))
        token = self.request.GET.get("registration_token", "")
        if not token:
            raise PermissionDenied("Start the registration from the learning platform.")
        try:
            response = requests.get(url, headers={"Authorization": f"Bearer {token}"},
                                    timeout=settings.LTI_HTTP_TIMEOUT_SECONDS)
            response.raise_for_status()
            config: dict[str, Any] = response.json()
        except (requests.RequestException, ValueError) as error:
            raise PermissionDenied("The platform's configuration could not be read; start "
                                   "the registration again from the platform.") from error
        if not url.startswith(str(config.get("issuer", "\0"))):
            raise PermissionDenied("The platform's configuration names another issuer.")
        return config

    def _platform_answer(self, openid_config: dict[str, Any], body: dict[str, Any]) -> Any:
        token = self.request.GET.get("registration_token", "")
        try:
            response = requests.post(_checked_url(openid_config["registration_endpoint"]),
                                     json=body, headers={"Authorization": f"Bearer {token}"},
                                     timeout=settings.LTI_HTTP_TIMEOUT_SECONDS)
            response.raise_for_status()
            return response.json()
        except (requests.RequestException, ValueError) as error:
            raise PermissionDenied("The platform refused the registration or could not be "
                                   "reached.") from error

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        config = self.get_openid_config()
        return render(request, "lti/register.html", {"config": config, "scopes": SCOPES})

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        tool_key_ensure()
        config = self.get_openid_config()
        urls = tool_urls(base_url=request.build_absolute_uri("/"))
        body = tool_registration_request(urls=urls, domain=request.get_host())
        answer = self._platform_answer(config, body)
        registration = registration_from_dynamic(openid_config=config, platform_answer=answer)
        return render(request, "lti/registered.html", {"registration": registration})
