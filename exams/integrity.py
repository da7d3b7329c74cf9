"""The integrity checks an assessment's content file may ask for, on every request of an
attempt (start, the open paper, save, submit):

- `networks`: the address ranges (CIDR) a student may take it from. The client's address is
  the project's one rule for it (django-axes' reading, as the sign-in limits use): the
  connection's REMOTE_ADDR, or, behind a reverse proxy and only when SIGN_IN_PROXY_COUNT says
  how many proxies append to X-Forwarded-For, the address those proxies saw. The header is
  never trusted otherwise: a student cannot type their way into the exam room's range.
- `seb_config_keys`: Safe Exam Browser's Config Keys of the exam's SEB settings. SEB sends
  `X-SafeExamBrowser-ConfigKeyHash` = SHA-256 (hex) of the request's absolute URL (without
  its fragment) followed by the Config Key, on every request; a request whose hash matches
  none of the keys, or has none, is refused. The usual set-up is an LTI launch: SEB's start
  URL is the LMS's link to the assessment, and the launch itself is checked with
  `seb_allowed` (lti/views/launch.py).
"""

import hashlib
import hmac
import ipaddress
from dataclasses import dataclass

from axes.helpers import get_client_ip_address
from django.http import HttpRequest

from exams.models import Assessment

SEB_HEADER = "X-SafeExamBrowser-ConfigKeyHash"


@dataclass(frozen=True)
class ClientSeen:
    """What the integrity checks read of one request."""

    address: str  # the client's address by the project's rule ("" when unknown)
    url: str  # the request's absolute URL, without a fragment
    seb_hash: str  # the SEB Config Key hash header, lower case ("" when absent)


def client_seen(request: HttpRequest) -> ClientSeen:
    """The request's client address, absolute URL and SEB hash, for `integrity_refusal`."""
    address = str(get_client_ip_address(request) or request.META.get("REMOTE_ADDR") or "")
    return ClientSeen(address=address, url=request.build_absolute_uri().split("#", 1)[0],
                      seb_hash=request.headers.get(SEB_HEADER, "").strip().lower()[:128])


def address_allowed(address: str, networks: list[str]) -> bool:
    """Whether `address` (IPv4 or IPv6) is inside one of the CIDR `networks`; an address that
    cannot be read is outside all of them."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    for network in networks:
        try:
            if ip in ipaddress.ip_network(network, strict=False):
                return True
        except ValueError:
            continue
    return False


def seb_config_key_hash(url: str, config_key: str) -> str:
    """The hash SEB sends for `url` with its settings' Config Key: SHA-256 hex of url + key."""
    return hashlib.sha256((url + config_key.strip().lower()).encode()).hexdigest()


def seb_allowed(seen: ClientSeen, config_keys: list[str]) -> bool:
    """Whether the request's SEB hash matches one of the Config Keys for its URL."""
    if not seen.seb_hash:
        return False
    return any(hmac.compare_digest(seb_config_key_hash(seen.url, key).encode(),
                                   seen.seb_hash.encode()) for key in config_keys)


def integrity_refusal(assessment: Assessment, seen: ClientSeen) -> str | None:
    """Why the request may not start or work on an attempt of `assessment` (a message for the
    student), or None when the assessment asks for no check or every check passes."""
    if assessment.networks and not address_allowed(seen.address, assessment.networks):
        return ("This assessment can only be taken from the network of the exam room; your "
                f"connection comes from {seen.address or 'an unknown address'}. Ask your "
                "proctor.")
    if assessment.seb_config_keys and not seb_allowed(seen, assessment.seb_config_keys):
        return ("This assessment must be taken in Safe Exam Browser with the exam's settings: "
                "open it from your course's LMS in Safe Exam Browser, or ask your proctor.")
    return None
