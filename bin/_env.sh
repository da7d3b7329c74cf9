# Shared by bin/run and bin/test: make the virtual environment VENV hold exactly LOCKFILE.
# Usage: . bin/_env.sh VENV LOCKFILE
# bin/run keeps the service's environment (.venv, requirements.lock) and bin/test its own
# (.venv-test, requirements-dev.lock), so alternating between them never reinstalls and the
# service never runs beside test-only packages.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$1"
LOCK="$2"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "· creating $VENV with $($PY --version)"
  "$PY" -m venv "$VENV"
fi
VENV_PY="$ROOT/$VENV/bin/python"
stamp="$VENV/.installed-$(basename "$LOCK")-$(sha256sum "$LOCK" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "· installing $LOCK into $VENV"
  # uv installs ~15x faster than pip here; pip is the fallback when uv cannot be had.
  # Bytecode is compiled at install (as pip does): where PYTHONDONTWRITEBYTECODE is set, as
  # on these machines, nothing else ever writes it, and every process (each Celery worker,
  # manage.py and bin/run a test starts) compiled sympy, matplotlib and pint again: 6.8 s
  # against 2.4 s to import them.
  if "$VENV_PY" -m pip install -q --disable-pip-version-check uv >/dev/null 2>&1 \
     && "$VENV_PY" -m uv pip install -q --compile-bytecode --python "$VENV_PY" -r "$LOCK"; then
    :
  else
    "$VENV_PY" -m pip install -q --disable-pip-version-check -r "$LOCK"
  fi
  rm -f "$VENV"/.installed-*
  touch "$stamp"
fi
export PATH="$ROOT/$VENV/bin:$PATH"
# numpy in workers: single-threaded BLAS was 2-5x faster under load on these 2-core machines.
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}" OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
mkdir -p var
# The interface's translations: each locale/*/LC_MESSAGES/django.po compiled to its .mo when the
# .mo is missing or older (core/message_catalogs.py, pure Python: no GNU gettext needed). The .mo
# files are built, not committed (.gitignore).
if [ -d "$ROOT/locale" ]; then
  "$VENV_PY" -m core.message_catalogs "$ROOT"
fi
