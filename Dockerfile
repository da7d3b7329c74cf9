# syntax=docker/dockerfile:1
# One image for every process of the service: web (gunicorn), asgi (daphne), worker, beat,
# migrate, backup, any manage.py command; the process is chosen by the command
# (deploy/entrypoint.sh). Build: `deploy/build-image.sh` (or `docker build -t grader .`).
# Settings and secrets come from the environment at run time only; the image holds none.
ARG PYTHON_IMAGE=python:3.12-slim-trixie

# --- build: the locked dependencies in a virtual environment, static files, translations ---
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
COPY requirements.lock /tmp/requirements.lock
RUN /opt/venv/bin/pip install -r /tmp/requirements.lock \
 && /opt/venv/bin/python -m compileall -q /opt/venv/lib
WORKDIR /app
COPY . .
RUN mkdir -p var
# collectstatic needs the settings to load; this key exists in this build step only.
RUN DJANGO_SETTINGS_MODULE=config.settings.production SECRET_KEY=image-build-only-not-a-secret \
      /opt/venv/bin/python manage.py collectstatic --noinput -v 0 \
 && /opt/venv/bin/python -m core.message_catalogs /app \
 && /opt/venv/bin/python -m compileall -q -x '/(var|tests)/' /app

# --- runtime: the venv and the application, a non-root user ---
FROM ${PYTHON_IMAGE}
ARG PYTHON_IMAGE
ARG VERSION=dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="grader" \
      org.opencontainers.image.description="Auto-graded maths exercises and assessments: web, ASGI, Celery worker and beat, migrations and backups in one image" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.documentation="docs/operations.md" \
      org.opencontainers.image.base.name="${PYTHON_IMAGE}"
# postgresql-client: pg_dump and pg_restore for the backup and restore commands (17 on
# trixie: dumps servers up to 17); nothing else is needed at run time (psycopg is binary).
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 grader \
 && useradd --system --uid 10001 --gid grader --home-dir /app --shell /usr/sbin/nologin grader \
 && mkdir -p /backups /srv/static && chown grader:grader /backups /srv/static
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
RUN chown -R grader:grader /app/var
ENV PATH=/opt/venv/bin:$PATH \
    DJANGO_SETTINGS_MODULE=config.settings.production \
    PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
    MPLCONFIGDIR=/tmp/matplotlib \
    GUNICORN_BIND=0.0.0.0:8000 ASGI_PORT=8001 \
    BACKUP_DIR=/backups
WORKDIR /app
USER 10001:10001
EXPOSE 8000 8001
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 \
  CMD ["/app/deploy/entrypoint.sh", "healthcheck"]
ENTRYPOINT ["/app/deploy/entrypoint.sh"]
CMD ["web"]
