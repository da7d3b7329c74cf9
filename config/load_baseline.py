"""The ceiling of the stack for the load test: a bare view that inserts one row.

It goes through the same gunicorn, middleware, database and connection settings as the
service's pages, but does no work of its own beyond one INSERT in its own transaction, so
the rate the load test reaches on it is the most the stack can serve on this machine.
Reachable only under `config.settings.load` (`config/load_urls.py`).
"""

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

#: The table the baseline writes to; created by `baseline_table_create` (bin/load's setup).
BASELINE_TABLE = "load_baseline_row"


def baseline_table_create() -> None:
    """Create the baseline's table if it does not exist (outside the service's migrations:
    it exists only in load-test databases)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {BASELINE_TABLE} "
            "(id BIGSERIAL PRIMARY KEY, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), "
            "note VARCHAR(40) NOT NULL)"
        )


@csrf_exempt
@require_POST
def baseline(request: HttpRequest) -> HttpResponse:
    """Insert one row and answer 201 with its id as text."""
    with transaction.atomic(durable=True), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {BASELINE_TABLE} (note) VALUES (%s) RETURNING id",  # noqa: S608
            [request.POST.get("note", "")[:40]],
        )
        row = cursor.fetchone()
    return HttpResponse(str(row[0] if row else ""), status=201, content_type="text/plain")
