"""Webhook posts connect to the address that was checked, with the URL's host name kept."""

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from events.webhook_http import UnsafeAddress, post_to_checked_address, resolve_checked

HOST = "hooks.test"
REAL_GETADDRINFO = socket.getaddrinfo


@dataclass
class Receiver:
    port: int
    status: int = 200
    hosts: list[str] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(port=0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            state.hosts.append(self.headers["Host"])
            self.send_response(state.status)
            self.send_header("Location", f"http://127.0.0.1:{state.port}/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def rebinding_dns(monkeypatch) -> list[str]:
    """hooks.test answers 127.0.0.1 the first time and an unroutable address after that, as a
    hostile DNS server would; every other name resolves as usual. Returns the lookups made."""
    lookups: list[str] = []

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != HOST:
            return REAL_GETADDRINFO(host, port, *args, **kwargs)
        lookups.append(host)
        address = "127.0.0.1" if len(lookups) == 1 else "203.0.113.9"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return lookups


def test_the_post_goes_to_the_checked_address_with_the_urls_host_name(receiver, rebinding_dns):
    url = f"http://{HOST}:{receiver.port}/hook?course=5"

    status, error = post_to_checked_address(url, b"{}", {}, timeout=5, allow_private=True)

    assert (status, error) == (200, "")
    assert rebinding_dns == [HOST]  # resolved once, for the check
    assert receiver.hosts == [f"{HOST}:{receiver.port}"]


def test_a_redirect_is_an_answer_not_followed(receiver):
    receiver.status = 302
    url = f"http://127.0.0.1:{receiver.port}/hook"

    assert post_to_checked_address(url, b"{}", {}, timeout=5, allow_private=True) == (
        302, "HTTP 302")
    assert len(receiver.hosts) == 1


def test_private_addresses_are_refused_even_beside_public_ones(monkeypatch):
    answers = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 443)),
               (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", 443))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: answers)

    with pytest.raises(UnsafeAddress, match="private or local"):
        resolve_checked(f"https://{HOST}/hook", allow_private=False)
    assert resolve_checked(f"https://{HOST}/hook", allow_private=True) == "93.184.216.34"
    assert post_to_checked_address(f"https://{HOST}/hook", b"{}", {}, timeout=5,
                                   allow_private=False) == (
        None, "The URL points to a private or local address.")


def test_no_answer_gives_the_reason():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    status, error = post_to_checked_address(f"http://127.0.0.1:{closed_port}/", b"{}", {},
                                            timeout=5, allow_private=True)
    assert status is None and "refused" in error.lower()


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A throwaway authority and a certificate it signed for hooks.test."""
    program = shutil.which("openssl")
    assert program, "these tests make certificates with the openssl command"

    def openssl(*args: str) -> None:
        subprocess.run([program, *args], cwd=folder, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=test CA",
            "-keyout", "ca.key", "-out", "ca.pem")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={HOST}",
            "-keyout", "hook.key", "-out", "hook.csr")
    (folder / "san.ext").write_text(f"subjectAltName=DNS:{HOST}\n")
    openssl("x509", "-req", "-in", "hook.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "hook.pem")
    return folder / "ca.pem", folder / "hook.pem", folder / "hook.key"


def test_https_verifies_the_certificate_for_the_host_name_not_the_address(monkeypatch, tmp_path):
    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != HOST:
            return REAL_GETADDRINFO(host, port, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    authority, certificate, key = _certificates(tmp_path)
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    server_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_tls.load_cert_chain(certificate, key)
    server.socket = server_tls.wrap_socket(server.socket, server_side=True)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server.RequestHandlerClass = Handler
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    trusting = ssl.create_default_context(cafile=str(authority))
    try:
        assert post_to_checked_address(f"https://{HOST}:{port}/hook", b"{}", {}, timeout=5,
                                       allow_private=True, tls=trusting) == (204, "")
        status, error = post_to_checked_address(f"https://{HOST}:{port}/hook", b"{}", {},
                                                timeout=5, allow_private=True)
        assert status is None and "CERTIFICATE_VERIFY_FAILED" in error
    finally:
        server.shutdown()
        server.server_close()
