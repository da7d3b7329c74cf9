"""API keys: course-scoped tokens for an LMS or a script, stored as a sha256 hash, shown once."""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from api.models import ApiKey
from courses.models import Course

TOKEN_PREFIX = "grk_"  # noqa: S105 (a prefix, not a secret)
#: last_used_at is written at most this often per key, so reads do not all become writes.
LAST_USED_RESOLUTION = timedelta(seconds=60)


@dataclass(frozen=True)
class IssuedKey:
    """A newly created key and its token; the token exists nowhere else and is shown once."""

    api_key: ApiKey
    token: str


def token_hash(token: str) -> str:
    """The stored form of a token (sha256 hex); a 256-bit random token needs no slow hash."""
    return hashlib.sha256(token.encode()).hexdigest()


def api_key_create(*, course: Course, name: str, role: str, created_by: User) -> IssuedKey:
    """Issue a key for `course` with `role` (ApiKey.Role); returns it with its one-time token.

    Raises ValueError for an unknown role. The caller checks that `created_by` may manage
    the course. One INSERT, so it needs no transaction of its own (and the admin calls it
    inside one).
    """
    if role not in ApiKey.Role.values:
        raise ValueError(f"unknown role {role!r}")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    api_key = ApiKey.objects.create(
        course=course, name=name.strip()[:100] or "API key", role=role,
        prefix=token[: len(TOKEN_PREFIX) + 6], token_hash=token_hash(token), created_by=created_by,
    )
    return IssuedKey(api_key=api_key, token=token)


def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    """Revoke the key from now on (idempotent: revoking twice keeps the first time)."""
    ApiKey.objects.filter(pk=api_key.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    api_key.refresh_from_db(fields=["revoked_at"])
    return api_key


def api_key_authenticate(*, token: str) -> ApiKey | None:
    """The active key whose token this is, or None; records when the key was last used."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    api_key = (
        ApiKey.objects.select_related("course")
        .filter(token_hash=token_hash(token), revoked_at__isnull=True)
        .first()
    )
    if api_key is None:
        return None
    now = timezone.now()
    if api_key.last_used_at is None or now - api_key.last_used_at >= LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
        api_key.last_used_at = now
    return api_key
