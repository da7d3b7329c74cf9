#!/usr/bin/env sh
# The container image's entrypoint: one image, every process, chosen by the first argument.
#
#   web                 gunicorn (config/gunicorn.conf.py): GUNICORN_BIND (0.0.0.0:8000), WEB_CONCURRENCY
#   asgi                daphne, live mode's WebSockets: ASGI_BIND (0.0.0.0), ASGI_PORT (8001)
#   worker [ARGS]       a Celery worker (CELERY_WORKER_CONCURRENCY, default the cores); ARGS go to celery
#   beat                Celery beat; only the holder of the beat lease sends (ops/beat_lock.py)
#   migrate             manage.py migrate, then sync_content (SYNC_CONTENT=false skips it)
#   wait-for-migrations wait until no migration is unapplied (an init container before web)
#   backup              manage.py backup_database into BACKUP_DIR/<UTC time>; prunes folders
#                       older than BACKUP_KEEP_DAYS (30; 0 keeps all)
#   export-static DIR   copy the collected static files into DIR (a volume the proxy serves)
#   manage ARGS         any manage.py command (restore_database, createsuperuser, shell, ...)
#   healthcheck         the image's HEALTHCHECK: /health/live/ of web or asgi; a worker answers a ping
#
# Settings come from the environment only (docs/operations.md); the image holds no secret.
# Outside a container it runs from the repository (tests/deploy/test_entrypoint.py).
set -eu
cd "${APP_DIR:-$(dirname "$0")/..}"
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.production}"
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}" OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
PYTHON="${PYTHON:-python}"
# Which process this container runs, for `healthcheck` (a separate exec in the same container).
STATE="${GRADER_STATE_FILE:-/tmp/grader-process}"

remember() { printf '%s\n' "$1" >"$STATE" 2>/dev/null || true; }

http_ok() {  # http_ok URL: exit 0 when it answers 200 (Host: the first of ALLOWED_HOSTS)
  "$PYTHON" - "$1" <<'PY'
import os, sys, urllib.request
host = (os.environ.get("ALLOWED_HOSTS") or "localhost").split(",")[0].strip().lstrip(".")
request = urllib.request.Request(sys.argv[1], headers={"Host": "localhost" if host in ("", "*") else host})
try:
    with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
        sys.exit(0 if response.status == 200 else 1)
except Exception as exc:
    print(f"unhealthy: {exc}", file=sys.stderr)
    sys.exit(1)
PY
}

mode="${1:-web}"
[ $# -gt 0 ] && shift

# Metrics of several processes (docs/operations.md, "Metrics"): prometheus_client writes into
# PROMETHEUS_MULTIPROC_DIR and fails at import if it is missing (a new pod's empty /tmp).
# The server processes empty it at start; the others only make sure it exists.
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  case "$mode" in
    web|worker) rm -rf "$PROMETHEUS_MULTIPROC_DIR" ;;
  esac
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
fi
case "$mode" in
  web)
    remember web
    export GUNICORN_BIND="${GUNICORN_BIND:-0.0.0.0:8000}"
    exec gunicorn -c config/gunicorn.conf.py config.wsgi "$@"
    ;;
  asgi)
    remember asgi
    exec daphne -b "${ASGI_BIND:-0.0.0.0}" -p "${ASGI_PORT:-8001}" --proxy-headers "$@" config.asgi:application
    ;;
  worker)
    remember worker
    exec celery -A config worker --loglevel="${CELERY_LOG_LEVEL:-info}" "$@"
    ;;
  beat)
    remember beat
    exec celery -A config beat --loglevel="${CELERY_LOG_LEVEL:-info}" \
      --schedule "${BEAT_SCHEDULE_FILE:-/tmp/celerybeat-schedule}" --pidfile= "$@"
    ;;
  migrate)
    "$PYTHON" manage.py migrate --noinput "$@"
    if [ "${SYNC_CONTENT:-true}" != false ]; then
      "$PYTHON" manage.py sync_content
    fi
    ;;
  wait-for-migrations)
    tries="${MIGRATIONS_WAIT_SECONDS:-600}"
    until "$PYTHON" manage.py migrate --check >/dev/null 2>&1; do
      tries=$((tries - 2))
      if [ "$tries" -le 0 ]; then echo "migrations still unapplied; giving up" >&2; exit 1; fi
      echo "waiting for the migration job" >&2
      sleep 2
    done
    ;;
  backup)
    folder="${BACKUP_DIR:-/backups}/$(date -u +%Y-%m-%dT%H%M%SZ)"
    "$PYTHON" manage.py backup_database --output "$folder" "$@"
    keep="${BACKUP_KEEP_DAYS:-30}"
    if [ "$keep" -gt 0 ]; then
      find "${BACKUP_DIR:-/backups}" -mindepth 1 -maxdepth 1 -type d -mtime +"$keep" -exec rm -rf {} +
    fi
    echo "backup written to $folder"
    ;;
  export-static)
    # Hashed names: files of the previous release stay for pages still open in browsers.
    cp -R var/static/. "${1:?usage: entrypoint.sh export-static DIR}/"
    ;;
  manage)
    exec "$PYTHON" manage.py "$@"
    ;;
  healthcheck)
    case "$(cat "$STATE" 2>/dev/null || echo none)" in
      web) bind="${GUNICORN_BIND:-0.0.0.0:8000}"; http_ok "http://127.0.0.1:${bind##*:}/health/live/" ;;
      asgi) http_ok "http://127.0.0.1:${ASGI_PORT:-8001}/health/live/" ;;
      worker) exec celery -A config inspect ping --destination "celery@$(hostname)" --timeout 10 >/dev/null ;;
      *) exit 0 ;;  # beat and one-shot commands: the container's running is the check
    esac
    ;;
  *)
    echo "usage: entrypoint.sh web|asgi|worker|beat|migrate|wait-for-migrations|backup|export-static DIR|manage ARGS|healthcheck" >&2
    exit 2
    ;;
esac
