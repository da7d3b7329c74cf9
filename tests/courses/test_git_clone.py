"""The clone process checks the addresses it connects to itself (issue 26 item 8, DNS
rebinding): a host that passed `url_check` and then resolves to the server's own network is
refused before any connection is made."""

import http.server
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from courses.network_addresses import PrivateAddressRefused, public_only_resolver

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server():
    """A real HTTP server on the loopback that records each request path."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_error(404)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], seen
    httpd.shutdown()


def _clone(url: str, dest: Path, allow_private: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "courses.git_clone", url, "main", str(dest), "1000000",
         allow_private],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)


def test_the_clone_refuses_a_name_that_resolves_to_the_loopback_when_it_connects(server,
                                                                                 tmp_path):
    port, seen = server
    done = _clone(f"http://localhost:{port}/course.git", tmp_path / "clone", "0")
    assert done.returncode == 1
    assert "private or local network" in done.stderr
    assert seen == []  # refused before connecting, not after


def test_with_private_addresses_allowed_the_clone_does_connect(server, tmp_path):
    port, seen = server
    done = _clone(f"http://localhost:{port}/course.git", tmp_path / "clone", "1")
    assert done.returncode == 1  # the server has no repository
    assert any(path.startswith("/course.git/info/refs") for path in seen)


def test_the_resolver_passes_public_addresses_and_refuses_any_private_one():
    public = [(2, 1, 6, "", ("93.184.216.34", 443))]
    mixed = [*public, (2, 1, 6, "", ("10.0.0.7", 443))]
    assert public_only_resolver(lambda *a, **k: public)("example.org", 443) == public
    with pytest.raises(PrivateAddressRefused, match=r"10\.0\.0\.7"):
        public_only_resolver(lambda *a, **k: mixed)("example.org", 443)
