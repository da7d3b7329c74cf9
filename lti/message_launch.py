"""pylti1p3's Django message launch with what a tool in production needs on top: the
platform's keyset fetched over HTTPS with a timeout, cached, and fetched again when a token
names a key id the cached set does not have (the platform rotated its key); and every nonce
accepted once only (pylti1p3 checks that the nonce was issued, not that it is unused)."""

import hashlib
from datetime import timedelta
from typing import Any

import requests
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from lti_tool.models import LtiLaunch
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch
from pylti1p3.exception import LtiException

from lti.models import UsedNonce
from lti.tool_config import ToolConfig


def keyset_cache_key(url: str) -> str:
    """The cache key under which the keyset fetched from `url` is kept."""
    return "lti-keyset-" + hashlib.sha256(url.encode()).hexdigest()


class ToolMessageLaunch(DjangoMessageLaunch):
    """A launch validated in this order: state, format, registration (issuer and audience),
    signature and expiry, deployment, nonce (consumed), message."""

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

    def validate_nonce(self) -> "ToolMessageLaunch":
        """The nonce must have been issued at login (pylti1p3) and not used before (here)."""
        super().validate_nonce()
        body = self._get_jwt_body()
        expires = timezone.now() + timedelta(seconds=settings.LTI_NONCE_TTL_SECONDS)
        try:
            with transaction.atomic():
                UsedNonce.objects.create(issuer=body["iss"], nonce=body["nonce"],
                                         expires_at=expires)
        except IntegrityError as error:
            raise LtiException("Replayed nonce: this launch was already used") from error
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
