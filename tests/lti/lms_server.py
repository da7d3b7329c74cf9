"""A small real HTTP server standing in for the LMS in tests: handlers are registered per
(method, path) and served from a thread, so the tool under test talks to it over real HTTP.

The platform's behaviour (OIDC authorisation, keyset, AGS and NRPS endpoints, faults) is
added by the modules that register routes on it; this module only serves them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class LmsRequest:
    """One request as the LMS received it."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    def form(self) -> dict[str, str]:
        """The body (or, for GET, the query) as a flat form."""
        raw = self.body.decode() if self.method != "GET" else ""
        pairs = parse_qs(raw) if raw else self.query
        return {k: v[0] for k, v in pairs.items()}

    def json(self) -> Any:
        """The body decoded as JSON."""
        return json.loads(self.body or b"null")


@dataclass
class LmsResponse:
    """What a handler answers."""

    status: int = 200
    body: bytes | str | dict[str, Any] | list[Any] = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> bytes:
        if isinstance(self.body, dict | list):
            return json.dumps(self.body).encode()
        return self.body.encode() if isinstance(self.body, str) else self.body


Handler = Callable[[LmsRequest], LmsResponse]


class LmsServer:
    """A threaded HTTP server on 127.0.0.1 with a route table; every request is logged in
    `requests`."""

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Handler] = {}
        self.requests: list[LmsRequest] = []
        self._lock = threading.Lock()
        server = self

        class _Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                request = LmsRequest(self.command, parts.path, parse_qs(parts.query),
                                     {k.lower(): v for k, v in self.headers.items()},
                                     self.rfile.read(length) if length else b"")
                with server._lock:
                    server.requests.append(request)
                handler = server.routes.get((self.command, parts.path))
                response = handler(request) if handler else LmsResponse(404, {"error": "no route"})
                payload = response.encoded()
                self.send_response(response.status)
                self.send_header("Content-Type", response.content_type)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in response.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_DELETE = _serve

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def route(self, method: str, path: str, handler: Handler) -> None:
        """Serve `handler` for `method` requests to `path` (exact match)."""
        self.routes[(method, path)] = handler

    def received(self, method: str, path: str) -> list[LmsRequest]:
        """The requests received so far for (method, path)."""
        with self._lock:
            return [r for r in self.requests if r.method == method and r.path == path]

    def start(self) -> LmsServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
