"""A TCP proxy that a test can cut and restore, to put a real service (Redis, PostgreSQL)
through an outage without touching the shared server.

`cut()` closes the listening socket and every open connection: clients see their connections
reset and new connections refused, as when the server is down. `freeze()` is the silent
kind of outage (a network partition, a host that hangs): connections stay open and new ones
are accepted, but nothing is answered. `restore()` resets what a freeze held and listens
again on the same port.
"""

import contextlib
import select
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class TcpProxy:
    """Forward 127.0.0.1:`port` (a free port, chosen at start) to `target_host`:`target_port`."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._listener: socket.socket | None = None
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._accepting: threading.Thread | None = None
        self._frozen = False
        self._held: set[socket.socket] = set()
        self.connections_made = 0

    def start(self) -> "TcpProxy":
        self._listen()
        return self

    def _listen(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._accepting = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._accepting.start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            with self._lock:
                if self._frozen:  # a silent peer: accepted, never answered
                    self._held.add(client)
                    continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._listener is not listener:  # cut while connecting
                    client.close()
                    upstream.close()
                    return
                self._connections.update((client, upstream))
                self.connections_made += 1
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, client: socket.socket, upstream: socket.socket) -> None:
        pair = {client: upstream, upstream: client}
        try:
            while True:
                readable, _, _ = select.select(list(pair), [], [], 1.0)
                with self._lock:
                    if client not in self._connections:
                        return
                    frozen = self._frozen
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    if not frozen:
                        pair[source].sendall(data)
        except (OSError, ValueError):
            return
        finally:
            self._drop(client, upstream)

    def _drop(self, *sockets: socket.socket) -> None:
        with self._lock:
            for sock in sockets:
                self._connections.discard(sock)
        for sock in sockets:
            with contextlib.suppress(OSError):
                # A reset, not a polite FIN: what clients see when the server dies.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(OSError):
                sock.close()

    def cut(self) -> None:
        """Refuse new connections and reset every open one."""
        with self._lock:
            listener, self._listener = self._listener, None
            connections = list(self._connections)
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        if self._accepting is not None:
            self._accepting.join(timeout=5)
        self._drop(*connections)

    def freeze(self) -> None:
        """Keep every connection open but forward nothing, and answer no new one."""
        with self._lock:
            self._frozen = True

    def restore(self) -> None:
        """Accept and forward connections again, on the same port; after a freeze, reset the
        connections it held (a peer that comes back has lost them)."""
        with self._lock:
            was_frozen, self._frozen = self._frozen, False
            held, self._held = list(self._held), set()
            connections = list(self._connections) if was_frozen else []
        self._drop(*held, *connections)
        if self._listener is None:
            self._listen()

    def stop(self) -> None:
        self.restore()
        self.cut()

    @property
    def is_up(self) -> bool:
        return self._listener is not None


@contextmanager
def tcp_proxy(target_host: str, target_port: int) -> Iterator[TcpProxy]:
    """A started proxy to the target, stopped at the end."""
    proxy = TcpProxy(target_host, target_port).start()
    try:
        yield proxy
    finally:
        proxy.stop()
