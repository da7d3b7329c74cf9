"""Posting a webhook to the address that was checked: resolve once, check, connect to it.

Resolving a host name to check it and then letting the HTTP client resolve it again would
let a hostile DNS server answer a public address to the check and a private one to the
connection (DNS rebinding). Here the connection goes to the checked address, while the Host
header, TLS server name and certificate check keep the URL's host name. Redirects are not
followed (a 3xx is an answer like any other non-2xx).
"""

import http.client
import ipaddress
import socket
import ssl
from urllib.parse import urlsplit

__all__ = ["UnsafeAddress", "post_to_checked_address", "resolve_checked"]


class UnsafeAddress(ValueError):
    """The URL cannot be posted to: bad scheme, unresolvable, or a refused address."""


def resolve_checked(url: str, *, allow_private: bool) -> str:
    """The IP address a POST to `url` will connect to; raises UnsafeAddress with a reason.

    Every address the host name resolves to must be global (public) unless `allow_private`;
    the first one is used.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeAddress("Use an http:// or https:// URL with a host name.")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        raise UnsafeAddress("The host name does not resolve.") from exc
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise UnsafeAddress("The host name does not resolve.")
    if not allow_private and not all(ipaddress.ip_address(a).is_global for a in addresses):
        raise UnsafeAddress("The URL points to a private or local address.")
    return addresses[0]


class _CheckedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _CheckedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float,
                 context: ssl.SSLContext) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address
        self._tls = context

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._tls.wrap_socket(raw, server_hostname=self.host)


def post_to_checked_address(url: str, body: bytes, headers: dict[str, str], *, timeout: float,
                            allow_private: bool,
                            tls: ssl.SSLContext | None = None) -> tuple[int | None, str]:
    """POST `body` to `url` once, connecting only to an address `resolve_checked` accepts.

    Returns (HTTP status, "" or "HTTP <status>" when not 2xx) for any answer, or (None,
    reason) when there was none: a refused address, a connection or TLS error, or a timeout
    after `timeout` seconds. HTTPS verifies the certificate against the URL's host name with
    `tls` (default: the system's trusted authorities).
    """
    try:
        address = resolve_checked(url, allow_private=allow_private)
    except UnsafeAddress as exc:
        return None, str(exc)
    parts = urlsplit(url)
    host = parts.hostname or ""
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = _CheckedHTTPSConnection(host, parts.port or 443, address=address,
                                             timeout=timeout,
                                             context=tls or ssl.create_default_context())
    else:
        connection = _CheckedHTTPConnection(host, parts.port or 80, address=address,
                                            timeout=timeout)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)  # a little of the body, so the connection closes cleanly
        return int(response.status), "" if 200 <= response.status < 300 else (
            f"HTTP {response.status}")
    except (OSError, http.client.HTTPException) as exc:
        return None, str(exc)[:500] or exc.__class__.__name__
    finally:
        connection.close()
