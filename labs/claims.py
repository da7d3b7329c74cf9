"""Claiming a lab run for a worker: one conditional UPDATE that returns what the run needs.

A run is claimable when it is queued, or running with no heartbeat for `stale_after` (its
worker is presumed dead). Claiming bumps `attempts`, and that number is the claim's fencing
token: only a write that names the current token may store a result. The claim is one
statement (UPDATE ... RETURNING, on PostgreSQL and SQLite >= 3.35) because it sits on every
run's path; the ORM's update() cannot return rows, and a SELECT before and after cost two more
round trips.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection

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


# Table names are the models' (LabRun._meta.db_table, Lab._meta.db_table); test_claims runs it.
CLAIM_SQL = (
    'UPDATE "labs_labrun" SET "status" = %s, "attempts" = "attempts" + 1, "started_at" = %s, '
    '"heartbeat_at" = %s, "progress" = 0 '
    'WHERE "id" = %s AND ("status" = %s OR ("status" = %s AND "heartbeat_at" < %s)) '
    'RETURNING "attempts", "params", "seed", "course_id", "submission_id", '
    '(SELECT "simulation" FROM "courses_lab" WHERE "courses_lab"."id" = "labs_labrun"."lab_id")'
)


def run_claim(run_id: int, *, now: datetime, stale_after: timedelta) -> RunClaim | None:
    """Mark run `run_id` running if it is claimable (see the module) and return the claim;
    None when it is missing, finished, or held by a live claim. One statement, committed at
    once unless the caller holds a transaction."""
    adapt = connection.ops.adapt_datetimefield_value
    running = LabRun.Status.RUNNING
    with connection.cursor() as cursor:
        cursor.execute(CLAIM_SQL, [
            running, adapt(now), adapt(now), run_id,
            LabRun.Status.QUEUED, running, adapt(now - stale_after),
        ])
        row = cursor.fetchone()
    if row is None:
        return None
    token, params, seed, course_id, submission_id, simulation = row
    return RunClaim(
        token=int(token), simulation=simulation,
        params=json.loads(params) if isinstance(params, str | bytes) else params,
        seed=int(seed), course_id=int(course_id), has_submission=submission_id is not None,
    )
