"""Operations settings: health checks, Prometheus metrics, structured logs, sign-in throttling.

Star-imported at the end of base.py (which then adds OPERATIONS_APPS and wraps its MIDDLEWARE
with `operations_middleware`); every value comes from the environment like the rest. What
each setting means for an operator is in docs/operations.md.
"""

import logging

import environ

from ops.logs import logging_config, structlog_configure

_env = environ.Env()

OPERATIONS_APPS = ["axes", "django_structlog", "ops"]


def operations_middleware(middleware: list[str]) -> list[str]:
    """`middleware` with the operations layers in place: Prometheus's first layer outermost,
    the request-log layers right after the session and user are known, then at the end
    Prometheus's per-view layer and django-axes innermost (last), which turns a paused
    sign-in into the login page that says so (so the per-view status counted is the 429),
    and the database-outage layer (ops/database_outage.py: a retry or a 503, never a bare 500)."""
    wrapped = ["django_prometheus.middleware.PrometheusBeforeMiddleware", *middleware]
    auth = "django.contrib.auth.middleware.AuthenticationMiddleware"
    at = wrapped.index(auth) + 1 if auth in wrapped else len(wrapped)
    wrapped[at:at] = ["django_structlog.middlewares.RequestMiddleware",
                      "ops.middleware.RequestIdResponseMiddleware"]
    session = "django.contrib.sessions.middleware.SessionMiddleware"
    at = wrapped.index(session) if session in wrapped else 1
    wrapped[at:at] = ["ops.database_outage.DatabaseOutageMiddleware"]
    return [*wrapped, "django_prometheus.middleware.PrometheusAfterMiddleware",
            "ops.sign_in_spray.AddressSignInLimitMiddleware", "axes.middleware.AxesMiddleware"]


# --- Sign-in throttling (django-axes; ops/sign_in.py) ----------------------------------------
# After SIGN_IN_MAX_FAILURES failed sign-ins for one username from one address, signing in
# is paused for that pair (even with the right password) until SIGN_IN_WINDOW_SECONDS have
# passed since the last counted failure; attempts refused while paused do not extend it. A
# successful sign-in forgets the failures. Every sign-in form (the site's and the admin's)
# goes through the authentication backend, so all are covered.
SIGN_IN_MAX_FAILURES = _env.int("SIGN_IN_MAX_FAILURES", default=5)
SIGN_IN_WINDOW_SECONDS = _env.int("SIGN_IN_WINDOW_SECONDS", default=300)
# Password spraying: after SIGN_IN_ADDRESS_MAX_FAILURES failed sign-ins from one address
# (any usernames) within SIGN_IN_ADDRESS_WINDOW_SECONDS, counted in the cache, every sign-in
# from that address answers 429 until the window ends (ops/sign_in_spray.py).
SIGN_IN_ADDRESS_MAX_FAILURES = _env.int("SIGN_IN_ADDRESS_MAX_FAILURES", default=50)
SIGN_IN_ADDRESS_WINDOW_SECONDS = _env.int("SIGN_IN_ADDRESS_WINDOW_SECONDS", default=900)
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend, reading the user of each request from the cache (core/user_cache.py).
    "core.user_cache.CachedUserBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = "ops.sign_in.failure_limit"
AXES_COOLOFF_TIME = "ops.sign_in.cool_off"
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "ops.sign_in.sign_in_paused_response"
AXES_HTTP_RESPONSE_CODE = 429
# Successful sign-ins are in the request log already; only failures are kept in the database.
AXES_DISABLE_ACCESS_LOG = True
AXES_SENSITIVE_PARAMETERS = ["password", "csrfmiddlewaretoken"]
# Log lines name an attempt by a digest of the username, never the username itself.
AXES_CLIENT_STR_CALLABLE = "ops.sign_in.client_str"
# The address is REMOTE_ADDR, as before: behind a reverse proxy, set SIGN_IN_PROXY_COUNT
# (the number of proxies that append to X-Forwarded-For) so that the client's address counts.
AXES_IPWARE_PROXY_COUNT = _env.int("SIGN_IN_PROXY_COUNT", default=None)
if AXES_IPWARE_PROXY_COUNT:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")

# --- Health checks (ops/health.py, ops/views.py) ---------------------------------------------
# A worker counts as seen when its heartbeat (written every WORKER_HEARTBEAT_SECONDS by each
# worker's main process) is at most HEALTH_WORKER_MAX_AGE_SECONDS old.
WORKER_HEARTBEAT_SECONDS = _env.float("WORKER_HEARTBEAT_SECONDS", default=15.0)
HEALTH_WORKER_MAX_AGE_SECONDS = _env.float("HEALTH_WORKER_MAX_AGE_SECONDS", default=60.0)
# Readiness fails when a folder of the embedded defaults (SQLite database, filesystem broker)
# has less free space than this.
HEALTH_DISK_MIN_FREE_MB = _env.int("HEALTH_DISK_MIN_FREE_MB", default=200)
# The health endpoints need no sign-in; each address may call them this often.
HEALTH_THROTTLE_RATE = _env("HEALTH_THROTTLE_RATE", default="120/min")

# --- Celery beat (ops/beat_lock.py) ------------------------------------------------------------
# Every beat runs this scheduler: only the one holding the lease in the database sends the
# schedule, so a second beat started by mistake stands by (and takes over within
# BEAT_LEASE_SECONDS of the first stopping).
CELERY_BEAT_SCHEDULER = "ops.beat_lock:LeasedScheduler"
BEAT_LEASE_SECONDS = _env.float("BEAT_LEASE_SECONDS", default=30.0)

# --- Metrics (core/metrics.py, ops/metrics_export.py) -----------------------------------------
# /metrics answers only requests that send "Authorization: Bearer <METRICS_TOKEN>"; without
# a token it is off (404). Counters from several processes are summed through
# prometheus_client's multiprocess mode when PROMETHEUS_MULTIPROC_DIR is set.
METRICS_TOKEN = _env("METRICS_TOKEN", default="")

# --- Logs (ops/logs.py) ----------------------------------------------------------------------
# LOG_FORMAT "json" (one JSON object a line; the default) or "console" (readable; local.py).
LOG_FORMAT = _env("LOG_FORMAT", default="json")
LOG_LEVEL = _env("LOG_LEVEL", default="INFO")
# One line per request ("request_finished") and per task ("task_succeeded", "task_failed",
# ...): the start lines are logged at DEBUG.
DJANGO_STRUCTLOG_CELERY_ENABLED = True
DJANGO_STRUCTLOG_STATUS_START_LOG_LEVEL = logging.DEBUG
DJANGO_STRUCTLOG_CELERY_TASK_START_LOG_LEVEL = logging.DEBUG
# An X-Request-ID header from the client is used as the request id only when a trusted
# reverse proxy sets it (LOG_TRUST_REQUEST_ID); otherwise each request gets a new one.
DJANGO_STRUCTLOG_TRUST_UPSTREAM_REQUEST_ID = _env.bool("LOG_TRUST_REQUEST_ID", default=False)
LOGGING = logging_config(fmt=LOG_FORMAT, level=LOG_LEVEL)
structlog_configure()
