"""Forgetting used launch nonces once no token carrying them can still be valid."""

from django.utils import timezone

from lti.models import UsedNonce


def used_nonces_prune() -> int:
    """Remove used nonces past their expiry (LTI_NONCE_TTL_SECONDS after use, longer than
    any id_token lives); returns how many were removed."""
    deleted, _ = UsedNonce.objects.filter(expires_at__lt=timezone.now()).delete()
    return deleted
