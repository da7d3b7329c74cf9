# Shared by bin/run and bin/test: create .venv and install the locked dependencies.
# Usage: . bin/_env.sh LOCKFILE
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOCK="$1"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "· creating .venv with $($PY --version)"
  "$PY" -m venv .venv
fi
VENV_PY="$ROOT/.venv/bin/python"
stamp=".venv/.installed-$(basename "$LOCK")-$(sha256sum "$LOCK" | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "· installing $LOCK"
  # uv installs ~15x faster than pip here; pip is the fallback when uv cannot be had.
  if "$VENV_PY" -m pip install -q --disable-pip-version-check uv >/dev/null 2>&1 \
     && "$VENV_PY" -m uv pip install -q --python "$VENV_PY" -r "$LOCK"; then
    :
  else
    "$VENV_PY" -m pip install -q --disable-pip-version-check -r "$LOCK"
  fi
  rm -f .venv/.installed-*
  touch "$stamp"
fi
export PATH="$ROOT/.venv/bin:$PATH"
# numpy in workers: single-threaded BLAS was 2-5x faster under load on these 2-core machines.
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}" OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
mkdir -p var
