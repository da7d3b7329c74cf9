"""The nonce each OIDC login issued with its state, so that a launch binds the two.

pylti1p3 sets a state cookie in the browser that started the sign-in and remembers the nonce
it sent to the platform, but it never ties one to the other; over plain HTTP it keeps the
nonces outside any browser's session, so a browser holding the cookie of its own sign-in
could post another person's signed launch with its own state. Recording, at login, which
nonce went out with which state, and requiring the token's nonce to be that one, refuses it
whatever the scheme: the state must match the browser's cookie (pylti1p3) and the token
must be the one the platform issued for that state (here).
"""

import hashlib

from django.core.cache import cache

# pylti1p3's state cookie lives 5 minutes; the record outlives it a little so that it is
# never the one to refuse a launch the cookie still allows.
STATE_SECONDS = 10 * 60


def _key(state: str) -> str:
    return "lti-state-nonce-" + hashlib.sha256(state.encode()).hexdigest()


def state_nonce_record(*, state: str, nonce: str) -> None:
    """Remember that the login which set the `state` cookie sent `nonce` to the platform."""
    cache.set(_key(state), nonce, STATE_SECONDS)


def state_nonce_matches(*, state: str, nonce: str) -> bool:
    """True when `nonce` is the one the login that issued `state` sent to the platform."""
    issued = cache.get(_key(state))
    return isinstance(issued, str) and bool(nonce) and issued == nonce
