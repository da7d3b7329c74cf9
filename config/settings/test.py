"""Test settings: fast hashing; the database and broker from the environment if given.

Tests that start a real Celery worker share the database with it, so the SQLite test
database is a file (not in memory), and each test session gets its own queue name and
broker folder (set in the environment, which the worker process inherits).
"""

import os
import uuid

from config.settings.base import *
from config.settings.base import DATABASES, VAR_DIR, filesystem_broker_options

os.environ.setdefault("GRADER_TEST_SESSION", uuid.uuid4().hex[:12])
TEST_SESSION = os.environ["GRADER_TEST_SESSION"]

DEBUG = False
SECRET_KEY = "test-key-not-secret"  # noqa: S105
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Tests close connections after each request/task so the test database can be dropped at the
# end; the queue benchmark gives its workers persistent connections through the environment.
if "pool" not in DATABASES["default"].get("OPTIONS", {}):  # a pool needs CONN_MAX_AGE 0
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "0"))
# Commits without waiting for the disk: the suite's databases die with it, and the flush after
# each transactional test (every table emptied, content types and permissions written again)
# spent most of its time in fsync. Consistency between processes (a worker, a live server) is
# unchanged: only durability across a machine crash is given up.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{TEST_SESSION}.sqlite3")}
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = "PRAGMA synchronous=OFF"
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"

CELERY_TASK_DEFAULT_QUEUE = f"tests-{TEST_SESSION}"
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(VAR_DIR / "test-broker" / TEST_SESSION)
LAB_RUN_STALE_SECONDS = 3
SUBMISSION_RECOVERY_SECONDS = 3
CELERY_BEAT_SCHEDULE = {
    **CELERY_BEAT_SCHEDULE,
    "sweep-lost-lab-runs": {"task": "labs.tasks.lab_run_sweep_task", "schedule": 2.0},
    "recover-abandoned-predictions": {"task": "labs.tasks.predictions_recover_task",
                                      "schedule": 2.0},
    "recover-abandoned-submissions": {"task": "grading.tasks.submissions_recover_task",
                                      "schedule": 2.0},
    "sweep-lti-scores": {"task": "lti.ags.tasks.score_deliveries_sweep_task", "schedule": 1.0},
}

# The LMS of the LTI tests serves its keyset over plain HTTP on 127.0.0.1.
LTI_ALLOW_HTTP_KEYSET = True
# LTI grade passback: quick retries and leases so the fault tests finish in seconds.
LTI_HTTP_TIMEOUT = 1.0
LTI_SCORE_RETRY_BASE_SECONDS = 0.2
LTI_SCORE_RETRY_MAX_SECONDS = 1.0
LTI_SCORE_LEASE_SECONDS = 4.0
LTI_SCORE_SWEEP_GRACE_SECONDS = 2.0
LTI_SCORE_MAX_ATTEMPTS = 60

# Every test signs in from 127.0.0.1, and the suite fails many sign-ins on purpose: the
# per-address spraying limit would refuse the whole suite from one address after a while.
# The spraying tests set their own small limit.
SIGN_IN_ADDRESS_MAX_FAILURES = 1_000_000

# The rename test (tests/test_column_rename.py) runs a subset of the suite with three hot
# fields stored in renamed columns (tests/renamed_columns): no code but the model knows a
# column's name.
RENAMED_COLUMNS = os.environ.get("GRADER_RENAMED_COLUMNS") == "1"
if RENAMED_COLUMNS:
    INSTALLED_APPS = ["tests.renamed_columns", *INSTALLED_APPS]
