"""Join codes: short, read aloud or typed on a phone, without look-alike characters."""

import secrets

#: No 0/O, 1/I/L: a code read off a projector at the back of the hall is typed right.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 6


def new_code() -> str:
    """A random join code (31^6, about 900 million: collisions are retried by the caller)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise_code(typed: str) -> str:
    """A code as typed ("abc 123", "abc-123") in its stored form ("ABC123")."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())[:LENGTH * 2]
