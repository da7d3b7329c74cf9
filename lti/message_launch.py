"""pylti1p3's Django message launch with what a tool in production needs on top: the
platform's keyset fetched over HTTPS with a timeout, cached, and fetched again when a token
names a key id the cached set does not have (the platform rotated its key); every nonce
accepted once only (pylti1p3 checks that the nonce was issued, not that it is unused); the
dates, audience and claim lengths checked as lti/claims.py says."""

import hashlib
import time
from datetime import timedelta
from typing import Any, cast

import jwt
import requests
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from lti_tool.models import LtiLaunch
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch
from pylti1p3.exception import LtiException

from lti.claims import ClaimRefused, authorised_client, claims_bound, token_dates_check
from lti.models import UsedNonce
from lti.state_nonces import state_nonce_matches
from lti.tool_config import ToolConfig


def keyset_cache_key(url: str) -> str:
    """The cache key under which the keyset fetched from `url` is kept."""
    return "lti-keyset-" + hashlib.sha256(url.encode()).hexdigest()


class ToolMessageLaunch(DjangoMessageLaunch):
    """A launch validated in this order: state, format, registration (issuer and audience),
    signature, dates and claim lengths, deployment, nonce (consumed), message."""

    def validate(self) -> "ToolMessageLaunch":
        if self._restored:
            raise LtiException("Can't validate restored launch")
        self._validated = True
        try:
            (self.validate_state().validate_jwt_format().validate_registration()
             .validate_jwt_signature().validate_deployment().validate_nonce()
             .validate_message().save_launch_data())
        except Exception:
            self._validated = False
            raise
        return self

    def _claims(self) -> dict[str, Any]:
        return cast(dict[str, Any], self._get_jwt_body())

    def get_client_id(self) -> str:
        """The client the token is for (its `azp` when it lists several audiences)."""
        return authorised_client(self._claims())

    def validate_jwt_signature(self) -> "ToolMessageLaunch":
        """The signature (pyjwt), then the dates and claim lengths (lti/claims.py), which
        pyjwt would check loosely (a missing `exp` passes, a string is read as a number) and
        report as signature errors."""
        public_key, key_alg = self.get_public_key()
        try:
            jwt.decode(self._get_id_token(), public_key, algorithms=[key_alg],
                       options={"verify_signature": True, "verify_aud": False,
                                "verify_exp": False, "verify_iat": False, "verify_nbf": False,
                                "verify_iss": False, "verify_sub": False, "verify_jti": False})
        except jwt.InvalidTokenError as error:
            raise LtiException(f"Can't decode id_token: {error}") from error
        body = self._claims()
        token_dates_check(body, now=time.time(),
                          max_lifetime=settings.LTI_MAX_TOKEN_LIFETIME_SECONDS,
                          leeway=settings.LTI_CLOCK_SKEW_SECONDS)
        claims_bound(body)
        return self

    def validate_nonce(self) -> "ToolMessageLaunch":
        """The nonce must have been issued at login (pylti1p3), together with the state this
        browser's cookie holds (lti/state_nonces.py: whatever the scheme), and not used
        before (here)."""
        body = self._get_jwt_body()
        if not isinstance(body.get("nonce"), str) or not body["nonce"]:
            raise ClaimRefused("invalid_message", "The token has no nonce")
        if not self._session_service.check_nonce(body["nonce"]):
            raise ClaimRefused("unknown_nonce", "The nonce was not issued by this tool's login")
        if not state_nonce_matches(state=self._get_request_param("state"), nonce=body["nonce"]):
            raise ClaimRefused("state_mismatch",
                               "The token's nonce was not issued with this browser's state")
        expires = timezone.now() + timedelta(seconds=settings.LTI_NONCE_TTL_SECONDS)
        try:
            with transaction.atomic():
                UsedNonce.objects.create(issuer=body["iss"], nonce=body["nonce"],
                                         expires_at=expires)
        except IntegrityError as error:
            raise ClaimRefused("replayed_nonce",
                               "Replayed nonce: this launch was already used") from error
        return self

    def fetch_public_key(self, key_set_url: str) -> Any:
        """The platform's keyset: from the cache, else fetched (HTTPS unless allowed
        otherwise, with a timeout) and cached for LTI_KEYSET_CACHE_SECONDS."""
        key = keyset_cache_key(key_set_url)
        keyset = cache.get(key)
        if keyset:
            self._keyset_from_cache = True
            return keyset
        self._keyset_from_cache = False
        if not key_set_url.startswith("https://") and not settings.LTI_ALLOW_HTTP_KEYSET:
            raise LtiException(f"Keyset URL must use HTTPS: {key_set_url}")
        try:
            response = requests.get(key_set_url, timeout=settings.LTI_HTTP_TIMEOUT_SECONDS)
            response.raise_for_status()
            keyset = response.json()
        except (requests.RequestException, ValueError) as error:
            raise LtiException(f"Keyset could not be fetched from {key_set_url}: {error}") from error
        cache.set(key, keyset, settings.LTI_KEYSET_CACHE_SECONDS)
        return keyset

    def get_public_key(self) -> tuple[str, str]:
        """The key that signed the token; a kid missing from a cached keyset makes one
        fresh fetch (the platform may have rotated its key)."""
        self._keyset_from_cache = False
        try:
            return super().get_public_key()
        except LtiException as error:
            if "Unable to find public key" not in str(error) or not self._keyset_from_cache:
                raise
        registration = self._registration
        if registration is None:
            raise LtiException("Registration not found.")
        cache.delete(keyset_cache_key(registration.get_key_set_url() or ""))
        registration.set_key_set(None)
        return super().get_public_key()


def launch_validate(request: Any) -> LtiLaunch:
    """The launch POSTed in `request`, validated (raises LtiException when refused)."""
    message_launch = ToolMessageLaunch(request, ToolConfig(),
                                       launch_data_storage=DjangoCacheDataStorage())
    message_launch.validate()
    return LtiLaunch(message_launch)


def launch_restore(request: Any, launch_id: str) -> LtiLaunch:
    """A launch accepted earlier in this session, from the cache (raises LtiException)."""
    message_launch = ToolMessageLaunch.from_cache(
        launch_id, request, ToolConfig(), launch_data_storage=DjangoCacheDataStorage())
    return LtiLaunch(message_launch)
