"""Which network addresses a content fetch may reach, checked again when it connects.

`url_check` resolves a repository's host before the fetch, but a host can resolve to another
address a moment later (DNS rebinding: public when checked, 127.0.0.1 when the clone
connects). `public_only_resolver` closes that gap inside the clone's own process: every name
the clone resolves is refused when any of its addresses is on the server's own networks.
"""

import ipaddress
import socket
from collections.abc import Callable
from typing import Any


def address_refused(address: str) -> bool:
    """True for an address a fetch must not reach without the operator's leave: private,
    loopback, link-local, reserved or multicast (IPv4-mapped IPv6 read as IPv4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


class PrivateAddressRefused(OSError):
    """A name resolved, at connect time, to an address of the server's own networks."""


def public_only_resolver(resolve: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    """Wrap `socket.getaddrinfo`-like `resolve` so that a name with any refused address
    raises PrivateAddressRefused instead of returning it."""

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> list[Any]:
        infos = resolve(host, *args, **kwargs)
        for info in infos:
            address = str(info[4][0])
            if info[0] in (socket.AF_INET, socket.AF_INET6) and address_refused(address):
                raise PrivateAddressRefused(
                    f"the host '{host}' resolves to {address}, an address of a private or "
                    "local network")
        return infos

    return getaddrinfo
