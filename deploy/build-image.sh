#!/usr/bin/env bash
# Build the service's image (the top-level Dockerfile) with whichever container engine works
# here: docker (with a daemon), podman or buildah, installing podman from the distribution's
# packages when none is present. Then check the image: the entrypoint's `manage check` runs
# in it as its non-root user.
#
#   deploy/build-image.sh [TAG]          (default grader:dev)
#
# CI runs it (.ci/run). It exits 0 without building, after printing why, only when no engine
# can be had or the base image cannot be pulled (no registry reachable); a build or a check
# that fails is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG="${1:-grader:dev}"
BASE="$(sed -n 's/^ARG PYTHON_IMAGE=//p' Dockerfile)"

skip() { echo "image build skipped: $*"; exit 0; }

engine=""
if command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; then
  engine=docker
elif command -v podman >/dev/null 2>&1; then
  engine=podman
elif command -v buildah >/dev/null 2>&1; then
  engine=buildah
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "· no container engine: installing podman from the distribution's packages"
  if (apt-get update -q && apt-get install -y -q podman) >/tmp/grader-podman-install.log 2>&1; then
    engine=podman
  else
    tail -n 5 /tmp/grader-podman-install.log
    skip "no container engine here (docker has no daemon, podman could not be installed)"
  fi
else
  skip "no container engine here (docker has no daemon; podman and buildah are missing and cannot be installed without root and apt-get)"
fi
echo "· container engine: $engine"

pull() {
  case "$engine" in
    docker) timeout 120 docker pull -q "$BASE" ;;
    podman) timeout 120 podman pull -q "docker.io/library/$BASE" ;;
    buildah) timeout 120 buildah pull -q "docker.io/library/$BASE" ;;
  esac
}
if ! pull >/tmp/grader-image-pull.log 2>&1; then
  tail -n 3 /tmp/grader-image-pull.log
  skip "the base image $BASE cannot be pulled (no container registry reachable from here)"
fi

revision="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
case "$engine" in
  docker) docker build --build-arg "REVISION=$revision" -t "$TAG" . ;;
  # chroot isolation: RUN steps need no cgroups (a CI runner inside a container has none of its own).
  podman) podman build --isolation chroot --build-arg "REVISION=$revision" -t "$TAG" . ;;
  buildah) buildah bud --isolation chroot --build-arg "REVISION=$revision" -t "$TAG" . ;;
esac
echo "· built $TAG; checking it"
run=("$engine" run --rm)
[ "$engine" = buildah ] && skip "built $TAG with buildah, which cannot run it: not checked"
"${run[@]}" -e SECRET_KEY=image-check-not-a-secret "$TAG" manage check
user="$("${run[@]}" --entrypoint id "$TAG" -u)"
[ "$user" != 0 ] || { echo "the image runs as root" >&2; exit 1; }
echo "· $TAG: manage check passed, runs as uid $user"
