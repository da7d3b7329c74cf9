"""Labs' SQL: claiming a lab run for a worker, one conditional UPDATE that returns what the
run needs.

A run is claimable when it is queued, or running with no heartbeat for `stale_after` (its
worker is presumed dead). Claiming bumps `attempts`, and that number is the claim's fencing
token: only a write that names the current token may store a result. The claim is one
statement (UPDATE ... RETURNING, on PostgreSQL and SQLite >= 3.35) because it sits on every
run's path; the ORM's update() cannot return rows, and a SELECT before and after cost two more
round trips.
"""

import functools
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection

from core.sql import column, table
from courses.models import Lab
from labs.models import LabRun


@dataclass(frozen=True)
class RunClaim:
    """What a worker needs to execute a run it has claimed."""

    token: int
    simulation: str
    params: dict[str, Any]
    seed: int
    course_id: int
    has_submission: bool


@functools.cache
def claim_sql(vendor: str) -> str:
    """The claim statement for this database; its named parameters are those `run_claim`
    passes. Table and column names come from the models."""
    run = {name: column(LabRun, name) for name in (
        "id", "status", "attempts", "started_at", "heartbeat_at", "progress", "params",
        "seed", "course", "submission", "lab")}
    runs, labs = table(LabRun), table(Lab)
    lab_id, simulation = column(Lab, "id"), column(Lab, "simulation")
    # Only the models' own table and column names are put into the statement.
    return (
        f"UPDATE {runs} SET {run['status']} = %(running)s, "  # noqa: S608
        f"{run['attempts']} = {run['attempts']} + 1, {run['started_at']} = %(now)s, "
        f"{run['heartbeat_at']} = %(now)s, {run['progress']} = 0 "
        f"WHERE {run['id']} = %(run_id)s AND ({run['status']} = %(queued)s OR "
        f"({run['status']} = %(running)s AND {run['heartbeat_at']} < %(stale_before)s)) "
        f"RETURNING {run['attempts']}, {run['params']}, {run['seed']}, {run['course']}, "
        f"{run['submission']}, (SELECT {simulation} FROM {labs} "
        f"WHERE {labs}.{lab_id} = {runs}.{run['lab']})"
    )


def run_claim(run_id: int, *, now: datetime, stale_after: timedelta) -> RunClaim | None:
    """Mark run `run_id` running if it is claimable (see the module) and return the claim;
    None when it is missing, finished, or held by a live claim. One statement, committed at
    once unless the caller holds a transaction."""
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(claim_sql(connection.vendor), {
            "running": LabRun.Status.RUNNING, "now": adapt(now), "run_id": run_id,
            "queued": LabRun.Status.QUEUED, "stale_before": adapt(now - stale_after)})
        row = cursor.fetchone()
    if row is None:
        return None
    token, params, seed, course_id, submission_id, simulation = row
    return RunClaim(
        token=int(token), simulation=simulation,
        params=json.loads(params) if isinstance(params, str | bytes) else params,
        seed=int(seed), course_id=int(course_id), has_submission=submission_id is not None,
    )
