"""Settings shared by every environment; values come from the environment (django-environ)."""

from pathlib import Path
from typing import Any

import environ
from csp.constants import NONCE, NONE, SELF

from config.settings.database import connection_settings

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env("SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # First, so that `manage.py runserver` serves ASGI (pages and live mode's WebSockets).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "core",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "courses",
    "events",
    "grading",
    "labs",
    "interchange",
    "exams",
    "api",
    "student",
    "instructor",
    "demo",
    "privacy",
    "backups",
    "lti_tool",
    "lti",
    "live",
    "csp",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below); outside every
    # layer that may answer, so error pages get it too.
    "csp.middleware.CSPMiddleware",
    # LTI responses: session and CSRF cookies SameSite=None; Secure (the LMS's iframe), else Lax.
    "lti.middleware.ThirdPartyCookiesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # The request's language (courses/languages.py decides; after sessions and the user).
    "courses.language_middleware.LanguageMiddleware",
    # Pages and answers of signed-in people and API clients: private, no-store.
    "core.cache_headers.PrivateResponsesMiddleware",
    # A NUL character in the address or a form body: 400 before any view (core/request_guards.py).
    "core.request_guards.NulCharacterMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost of the two so it sees responses first: LTI pages get the platforms in CSP
    # frame-ancestors and form-action, and no X-Frame-Options.
    "lti.middleware.FrameAncestorsMiddleware",
]

# Content-Security-Policy (django-csp): scripts, styles, images, fonts and requests from this
# site only, no inline script or style (the few inline blocks carry the response's nonce),
# no plugins, no <base>, forms posted here only, framed by nobody: lti/middleware.py lets the
# registered platforms frame LTI pages and receive their forms. CSP_REPORT_URI, if set,
# receives the browsers' violation reports. See docs/operations.md, "Security settings".
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],  # data: for Swagger UI's icons
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        **({"report-uri": env("CSP_REPORT_URI")} if env("CSP_REPORT_URI", default="") else {}),
    },
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "config" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "courses.context_processors.content_language",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "live.context_processors.live_now",
            ],
        },
    },
]

# Embedded default: a SQLite file; production and CI set DATABASE_URL to PostgreSQL.
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
# Persistent connections (CONN_MAX_AGE, default 60 s) for web requests and (through
# config/celery.py) for Celery tasks: a new PostgreSQL connection per task cost more than a
# whole lab simulation. Or a psycopg pool per process (DB_POOL); see config/settings/database.py.
DATABASES["default"] = connection_settings(DATABASES["default"], env)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Argon2id at OWASP's parameters (core/password_hashers.py); the others verify passwords stored
# earlier, which are stored again with the first at their next sign-in.
PASSWORD_HASHERS = [
    "core.password_hashers.Argon2idHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
# Sign-in throttling (django-axes: SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_SECONDS) is set in
# config/settings/operations.py, with the other operations settings.
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"
# Password links (an instructor's, courses/password_links.py) and reset e-mails last this long.
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=7 * 24 * 3600)

# E-mail: EMAIL_URL says where mail goes (smtp+tls://user:password@host:587, smtp://...,
# consolemail://); DEFAULT_FROM_EMAIL is its sender. Unset, the service sends no mail and the
# sign-in page offers no password reset by e-mail (instructors send password links instead).
EMAIL_URL = env("EMAIL_URL", default="")
globals().update(env.email_url_config(EMAIL_URL) if EMAIL_URL else
                 {"EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"})
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_URL)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="grader@localhost")

# Languages of the interface (docs/adding-a-language.md): each request's language is chosen by
# courses.language_middleware (the person's choice > the LMS launch's locale > the course's
# default > the browser's Accept-Language > LANGUAGE_CODE). Catalogues: locale/<code>/, compiled
# by bin/_env.sh (python -m core.message_catalogs).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "config" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# whitenoise serves the files collectstatic names by content hash (every {% static %} URL
# when DEBUG is off) with "Cache-Control: max-age=315360000, public, immutable"; anything
# else gets WHITENOISE_MAX_AGE (whitenoise's default: 60 s, or 0 with DEBUG).

CONTENT_ROOT = BASE_DIR / "courses" / "content"

# Course content repositories (an instructor's "Sync" on the course's Content page; see
# docs/operations.md). Only these URL schemes and host names are fetched; a host that resolves
# to a private, loopback or link-local address is refused unless ..._ALLOW_PRIVATE is on.
# "file" in the schemes allows local paths (tests only). Limits bound one fetch or archive.
CONTENT_REPOSITORY_ALLOWED_SCHEMES = env.list("CONTENT_REPOSITORY_ALLOWED_SCHEMES", default=["https"])
CONTENT_REPOSITORY_ALLOWED_HOSTS = env.list(
    "CONTENT_REPOSITORY_ALLOWED_HOSTS", default=["github.com", "gitlab.com", "codeberg.org"]
)
CONTENT_REPOSITORY_ALLOW_PRIVATE = env.bool("CONTENT_REPOSITORY_ALLOW_PRIVATE", default=False)
CONTENT_REPOSITORY_TIMEOUT_SECONDS = env.int("CONTENT_REPOSITORY_TIMEOUT_SECONDS", default=30)
CONTENT_REPOSITORY_MAX_BYTES = env.int("CONTENT_REPOSITORY_MAX_BYTES", default=20_000_000)
CONTENT_REPOSITORY_MAX_FILES = env.int("CONTENT_REPOSITORY_MAX_FILES", default=2000)
CONTENT_ARCHIVE_MAX_BYTES = env.int("CONTENT_ARCHIVE_MAX_BYTES", default=10_000_000)
CONTENT_ARCHIVE_MAX_RATIO = env.int("CONTENT_ARCHIVE_MAX_RATIO", default=100)

# Backups (manage.py backup_database / restore_database): the folder holding pg_dump and
# pg_restore when the ones on PATH are not of the server's major version (e.g.
# /usr/lib/postgresql/16/bin). The service keeps no uploaded files today; when MEDIA_ROOT
# (the default file storage's folder) is set, the files under it are backed up too.
BACKUP_PG_BIN_DIR = env("BACKUP_PG_BIN_DIR", default="")
MEDIA_ROOT = env("MEDIA_ROOT", default="")

# Celery: the embedded default is kombu's filesystem transport, which needs no server;
# production and CI point CELERY_BROKER_URL at Redis.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_DIR = Path(env("CELERY_BROKER_DIR", default=str(VAR_DIR / "broker")))


def filesystem_broker_options(folder: Path) -> dict[str, object]:
    """Transport options for kombu's filesystem broker kept under `folder` (created here)."""
    for name in ("queue", "processed", "control"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    return {
        "control_folder": str(folder / "control"),
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "store_processed": False,
        # kombu looks at the folder once a second by default, and a worker with prefetch 1
        # takes one message per look: ~1 task/s, which beat's sweeps alone could fill.
        "polling_interval": 0.1,
    }


if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(CELERY_BROKER_DIR)
else:
    # A broker that does not answer costs a request at most ~2 s (connect timeout, one
    # retry); the message is then dropped and a sweep re-sends it (core/queueing.py).
    # socket_timeout bounds every read (above kombu's 1 s BRPOP wait): a Redis that went
    # silent (a partition, a hung host) is a connection error after 10 s, not a worker blocked
    # for ever; keepalive finds half-open connections.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600, "socket_connect_timeout": 2,
                                       "socket_timeout": 10, "socket_keepalive": True}
# A worker outlives broker outages of any length: it reconnects for ever (Celery's default
# gives up after 100 tries, then the worker exits), at start as after a loss. Runs it held
# keep running (the database fences them); their messages come back or are re-queued by the
# sweeper. A supervisor restarts a worker that dies anyway (bin/run, docs/operations.md).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                                    "interval_max": 0.2}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# How many tasks a worker process reserves beyond the one it runs (1: none waits behind a
# long lab run while another process is idle); concurrency: processes per worker (default:
# the host's cores; `celery worker -c N` overrides both).
CELERY_WORKER_PREFETCH_MULTIPLIER = env.int("CELERY_WORKER_PREFETCH_MULTIPLIER", default=1)
CELERY_WORKER_CONCURRENCY = env.int("CELERY_WORKER_CONCURRENCY", default=None)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
CELERY_TIMEZONE = TIME_ZONE
# Celery's Django fixup closes every database connection around every task unless this is
# set; config/celery.py applies Django's CONN_MAX_AGE and health checks around tasks instead.
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_BEAT_SCHEDULE = {
    "sweep-lost-lab-runs": {"task": "labs.tasks.lab_run_sweep_task", "schedule": 60.0},
    "sweep-webhook-outbox": {"task": "events.tasks.webhook_outbox_sweep_task", "schedule": 60.0},
    "prune-idempotency-keys": {"task": "api.tasks.idempotency_records_prune_task",
                               "schedule": 3600.0},
    "prune-lti-nonces": {"task": "lti.tasks.used_nonces_prune_task", "schedule": 3600.0},
    "recover-abandoned-predictions": {"task": "labs.tasks.predictions_recover_task",
                                      "schedule": 60.0},
    "apply-retention": {"task": "privacy.tasks.retention_apply_task", "schedule": 24 * 3600.0},
    "recover-abandoned-submissions": {"task": "grading.tasks.submissions_recover_task",
                                      "schedule": 60.0},
    "close-expired-exam-attempts": {"task": "exams.tasks.expired_attempts_close_task",
                                    "schedule": env.float("EXAM_SWEEP_SECONDS", default=30.0)},
    "sweep-lti-scores": {"task": "lti.ags.tasks.score_deliveries_sweep_task", "schedule": 60.0},
    "sync-lti-rosters": {"task": "lti.nrps.tasks.rosters_sync_task",
                         "schedule": env.float("LTI_ROSTER_SYNC_SECONDS", default=6 * 3600.0)},
}
# A submission still pending this long was abandoned by a crash and is graded by the sweep.
SUBMISSION_RECOVERY_SECONDS = env.int("SUBMISSION_RECOVERY_SECONDS", default=120)
# A running lab run with no heartbeat for this long is presumed lost and re-queued.
LAB_RUN_STALE_SECONDS = env.int("LAB_RUN_STALE_SECONDS", default=30)

# Live mode's server push (Django Channels): CHANNEL_LAYER_URL (redis://..., the existing
# Redis) in production, where gunicorn, the ASGI process and the Celery workers must reach
# one another; in memory on the embedded defaults (one process: pages poll for what a worker
# changed). See docs/operations.md, "Live mode".
CHANNEL_LAYER_URL = env("CHANNEL_LAYER_URL", default="")


def redis_channel_layer(url: str, prefix: str) -> dict[str, Any]:
    """The Channels layer on the Redis at `url`. redis-py 8 reads with a 5 s socket timeout
    by default and channels_redis waits 5 s (BZPOPMIN) for each message, so a quiet
    WebSocket's read timed out and daphne closed it (the projector lost its pushes): the
    read timeout is set well above that wait."""
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": url, "socket_timeout": 30, "socket_connect_timeout": 5}],
                   "capacity": 2000, "expiry": 30, "prefix": prefix},
    }


if CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(
        CHANNEL_LAYER_URL, env("CHANNEL_LAYER_PREFIX", default="grader-live"))}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Sessions in the database, read through the cache (Django's cached_db store): a signed-in
# request reads its session from the cache, and the database only when the cache lost it.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Caches: per-process memory by default; CACHE_URL (e.g. redis://...) in production so that
# rate limits and throttles are shared by every web process.
# A Redis cache degrades to per-process memory while Redis is away (ops/cache.py): nothing in
# the cache is worth a failed request.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "ops.cache.FallbackRedisCache"

CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ApiKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "EXCEPTION_HANDLER": "api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttles.ApiKeyRateThrottle",
        "api.throttles.UserRateThrottle",
        "api.throttles.AnonRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "api_key": env("API_THROTTLE_KEY", default="1200/min"),
        "user": env("API_THROTTLE_USER", default="600/min"),
        "anon": env("API_THROTTLE_ANON", default="60/min"),
    },
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # The API speaks JSON only: a form or multipart body is 415, never read as empty data.
    # Bounded: nesting depth and NUL characters are refused with a 400 (api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.BoundedJSONParser"],
    # And answers in JSON (CSV where a view offers it), never DRF's browsable HTML pages: the
    # page for people is the Swagger UI page (api-docs), checked with axe like every page.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Grader API",
    "DESCRIPTION": "Courses, exercises, submissions, lab runs, gradebook, roster and webhooks "
                   "for Module 5, for learning-management systems.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep links: swagger-ui puts the operation's link inside the button that opens it (a
    # link nested in a button, WCAG 4.1.2), and its tag links are 19 px high (2.5.8). No
    # syntax colours: its theme's colours are below 4.5:1 (1.4.3). The rest of the fixes are
    # config/static/swagger-a11y.css.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": False},
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.add_error_responses",
    ],
}

# Retention (privacy/retention.py): days after a course's end that raw answers (text, how it
# was read, feedback), lab runs and finished webhook delivery logs are kept; empty keeps forever.
RETENTION_RAW_ANSWERS_DAYS = env.int("RETENTION_RAW_ANSWERS_DAYS", default=None)
RETENTION_LAB_RUNS_DAYS = env.int("RETENTION_LAB_RUNS_DAYS", default=365)
RETENTION_DELIVERY_LOGS_DAYS = env.int("RETENTION_DELIVERY_LOGS_DAYS", default=90)

# Roster sync (courses/roster.py): one sync may deactivate at most this share of the active
# LMS-managed roster unless the request confirms it (allow_mass_deactivation).
ROSTER_MAX_DEACTIVATION_SHARE = env.float("ROSTER_MAX_DEACTIVATION_SHARE", default=0.2)

# Webhooks (events/delivery.py): retries back off from BASE doubling up to MAX seconds;
# after MAX_ATTEMPTS failures a delivery is "failed" and waits for a replay.
WEBHOOK_RETRY_BASE_SECONDS = env.float("WEBHOOK_RETRY_BASE_SECONDS", default=10.0)
WEBHOOK_RETRY_MAX_SECONDS = env.float("WEBHOOK_RETRY_MAX_SECONDS", default=3600.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=10)
# Private and loopback webhook URLs are refused (SSRF) unless this is on (development, tests).
WEBHOOK_ALLOW_PRIVATE_HOSTS = env.bool("WEBHOOK_ALLOW_PRIVATE_HOSTS", default=False)

# LTI 1.3 tool (lti/): the module an LMS course becomes on an instructor's first launch; how
# long a platform's keyset is cached (an unknown key id fetches it again at once); how long a
# used nonce is remembered (longer than any id_token lives); the timeout of calls to platforms.
# Platform keysets are fetched over HTTPS only unless LTI_ALLOW_HTTP_KEYSET (tests).
LTI_MODULE_SLUG = env("LTI_MODULE_SLUG", default="module-05")
LTI_KEYSET_CACHE_SECONDS = env.int("LTI_KEYSET_CACHE_SECONDS", default=3600)
LTI_NONCE_TTL_SECONDS = env.int("LTI_NONCE_TTL_SECONDS", default=24 * 3600)
# A launch token must carry numeric iat and exp, live (exp - iat) at most this long, and be
# neither expired nor issued in the future by more than the clock skew (lti/claims.py).
LTI_MAX_TOKEN_LIFETIME_SECONDS = env.int("LTI_MAX_TOKEN_LIFETIME_SECONDS", default=3600)
LTI_CLOCK_SKEW_SECONDS = env.int("LTI_CLOCK_SKEW_SECONDS", default=60)
# A launch by someone whose enrolment is inactive asks the platform for the course's roster
# again, at most once per this many seconds per course (docs/lti.md, "Enrolments").
LTI_ROSTER_ON_LAUNCH_SECONDS = env.int("LTI_ROSTER_ON_LAUNCH_SECONDS", default=300)
LTI_HTTP_TIMEOUT_SECONDS = env.float("LTI_HTTP_TIMEOUT_SECONDS", default=5.0)
LTI_ALLOW_HTTP_KEYSET = env.bool("LTI_ALLOW_HTTP_KEYSET", default=False)

# Operations (config/settings/operations.py): health checks, Prometheus metrics, structured
# logs (LOGGING) and sign-in throttling with django-axes.
from config.settings.operations import *  # noqa: E402
from config.settings.operations import OPERATIONS_APPS, operations_middleware  # noqa: E402

INSTALLED_APPS = [*INSTALLED_APPS, *OPERATIONS_APPS]
MIDDLEWARE = operations_middleware(MIDDLEWARE)
