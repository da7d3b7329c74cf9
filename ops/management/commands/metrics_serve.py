"""manage.py metrics_serve: serve this host's multiprocess metrics on an internal address.

For Celery worker hosts that run no web process: their workers write their counters (lab
runs, webhook deliveries) to PROMETHEUS_MULTIPROC_DIR, and this command serves the sum on
`--bind` (default 127.0.0.1) and `--port` for Prometheus. It serves nothing else.
"""

import os
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.multiprocess import MultiProcessCollector


class Command(BaseCommand):
    help = "Serve the metrics that this host's processes wrote to PROMETHEUS_MULTIPROC_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default="127.0.0.1",
                            help="address to listen on (an internal one; default 127.0.0.1)")
        parser.add_argument("--port", type=int, default=9108)

    def handle(self, *args: Any, **options: Any) -> None:
        folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        if not folder or not os.path.isdir(folder):
            raise CommandError("PROMETHEUS_MULTIPROC_DIR must name the folder the workers write to")
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=folder)
        server, _ = start_http_server(options["port"], addr=options["bind"], registry=registry)
        self.stdout.write(f"serving {folder} on {options['bind']}:{server.server_port}",
                          ending="\n")
        self.stdout.flush()
        threading.Event().wait()  # until the process is stopped
