"""OIDC login initiation (django-lti's view with our wording) and the launch itself."""

from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from lti_tool.constants import SESSION_KEY
from lti_tool.utils import DjangoToolConfig
from lti_tool.views import OIDCLoginInitView
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoOIDCLogin
from pylti1p3.exception import LtiException

from core.user_cache import USER_BACKEND
from courses.access import is_staff_role
from courses.languages import launch_locale_keep
from courses.models import Enrollment
from exams.integrity import client_seen, seb_allowed
from lti.message_launch import launch_validate
from lti.rejections import rejection_for
from lti.selectors import target_assessment, target_path
from lti.services.launch import LaunchOutcome, ModuleNotInstalled, launch_accept
from lti.state_nonces import state_nonce_record
from lti.views.responses import rejected

DEEP_LINK_LAUNCH_KEY = "lti-deep-link-launch"


class _Login(DjangoOIDCLogin):
    """pylti1p3's OIDC login whose cookie check page is ours: the same check, with its script
    in a file (lti/static/lti/cookie_check.js) so that the Content-Security-Policy need not
    allow inline scripts or styles; and the nonce it sends recorded with its state
    (lti/state_nonces.py), so that the launch must come back with both together."""

    def _prepare_redirect_url(self, launch_url: str) -> str:
        url: str = super()._prepare_redirect_url(launch_url)
        sent = parse_qs(urlsplit(url).query)
        state_nonce_record(state=sent["state"][0], nonce=sent["nonce"][0])
        return url

    def get_cookies_allowed_js_check(self) -> str:
        params = {"lti1p3_new_window": "1"}
        for name in ("iss", "login_hint", "target_link_uri", "lti_message_hint",
                     "lti_deployment_id", "client_id"):
            value = self._get_request_param(name)
            if value:
                params[name] = value
        return render_to_string("lti/cookie_check.html", {
            "params": params, "secure": self._request.is_secure(),
            "main_text": self._cookies_unavailable_msg_main_text,
            "click_text": self._cookies_unavailable_msg_click_text,
            "loading_text": self._cookies_check_loading_text})


class LoginView(OIDCLoginInitView):
    """Step 1 of a launch: the platform sends the browser here; we send it back to the
    platform's authorisation URL with a state (cookie) and a nonce. When the browser blocks
    cookies in the LMS's iframe, the check page offers to open the tool in a new window,
    where cookies work."""

    main_msg = ("Your browser blocks cookies for this tool inside the course page, so it "
                "cannot sign you in here. ")
    click_msg = "Open the tool in a new window."
    loading_msg = "Opening Module 5..."

    def get_oidc_response(self, request: HttpRequest, registration_uuid: Any,
                          params: Any) -> HttpResponse:
        """django-lti's login initiation with our cookie check page."""
        target_link_uri = params.get("target_link_uri")
        if target_link_uri is None:
            return HttpResponseBadRequest("Missing target_link_uri parameter.")
        login = _Login(request, DjangoToolConfig(registration_uuid),
                       launch_data_storage=DjangoCacheDataStorage())
        response: HttpResponse = login.enable_check_cookies(
            self.main_msg, self.click_msg, self.loading_msg).redirect(
                self.get_redirect_url(target_link_uri))
        return response


def _seb_refused(request: HttpRequest, outcome: LaunchOutcome) -> bool:
    """Whether a resource link launch of an assessment that asks for Safe Exam Browser
    (`seb_config_keys`) lacks SEB's Config Key hash of this launch URL for one of its keys.
    Deep-linking launches (no target) and the course's staff (who run the exam, not take it) are not
    checked; the exam pages check every request of an attempt again (exams/integrity.py)."""
    if outcome.course is None or outcome.inactive or is_staff_role(outcome.role):
        return False
    assessment = target_assessment(course=outcome.course, target=outcome.target)
    if assessment is None or not assessment.seb_config_keys:
        return False
    return not seb_allowed(client_seen(request), assessment.seb_config_keys)


def _claimed_issuer(id_token: str) -> str:
    """The issuer a token claims (unverified: for the log line of a refused launch)."""
    try:
        claims: dict[str, Any] = jwt.decode(id_token, options={"verify_signature": False})
    except jwt.PyJWTError:
        return ""
    return str(claims.get("iss", ""))[:200]


@csrf_exempt  # a cross-site POST from the platform, authenticated by its signed id_token
@require_POST
def launch(request: HttpRequest) -> HttpResponse:
    """Step 2: the platform POSTs the signed id_token. Refused launches get a plain page and
    a log line; an accepted one signs the person in (account by issuer + sub) and opens what
    the resource link points to, or the deep-linking picker."""
    try:
        lti_launch = launch_validate(request)
    except LtiException as error:
        issuer = _claimed_issuer(request.POST.get("id_token", ""))
        return rejected(request, rejection_for(error, issuer=issuer), issuer=issuer)
    try:
        outcome = launch_accept(launch=lti_launch)
    except ModuleNotInstalled as missing:
        return render(request, "lti/not_allowed.html", {
            "status": 503, "title": "Not available yet",
            "reason": f"This service has no module '{missing}' to make the course from yet. "
                      "Ask its administrator to load the course content, then launch again."},
            status=503)
    if _seb_refused(request, outcome):
        return render(request, "lti/not_allowed.html", {
            "title": "Open this in Safe Exam Browser",
            "reason": "This assessment must be taken in Safe Exam Browser with the exam's "
                      "settings, and this launch did not come from it (or came with other "
                      "settings). Open the activity from your course's LMS in Safe Exam "
                      "Browser, with the settings file your course gave you, or ask your "
                      "proctor."}, status=403)
    login(request, outcome.user, backend=USER_BACKEND)
    request.session[SESSION_KEY] = lti_launch.get_launch_id()
    launch_locale_keep(session=request.session, locale=_launch_locale(lti_launch))
    if outcome.inactive:
        return render(request, "lti/not_allowed.html", {
            "title": "Not enrolled now",
            "reason": "Your place in this course is not active: the course's roster no longer "
                      "lists you, or its staff removed you. If you have just joined the course "
                      "again, open the activity again in a few minutes; otherwise ask the "
                      "course's staff."}, status=403)
    if lti_launch.is_deep_link_launch:
        if outcome.role != Enrollment.Role.INSTRUCTOR or outcome.course is None:
            return render(request, "lti/not_allowed.html", {
                "reason": "Only the course's instructors can add activities from this tool."},
                status=403)
        request.session[DEEP_LINK_LAUNCH_KEY] = lti_launch.get_launch_id()
        return redirect(reverse("lti:deep-link"))
    if outcome.course is None:
        return render(request, "lti/not_set_up.html", {"context": outcome.context})
    return redirect(target_path(course=outcome.course, target=outcome.target))


LAUNCH_PRESENTATION = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"


def _launch_locale(lti_launch: Any) -> str | None:
    """The launch's `launch_presentation.locale` claim (the LMS's language for the person), or
    None when it has none."""
    presentation = lti_launch.get_launch_data().get(LAUNCH_PRESENTATION)
    if not isinstance(presentation, dict):
        return None
    locale = presentation.get("locale")
    return locale if isinstance(locale, str) else None
