#!/usr/bin/env bash
# Build the service's image (the top-level Dockerfile) with whichever container engine works
# here: docker (with a daemon), podman or buildah, installing podman from the distribution's
# packages when none is present. Then check the image: the entrypoint's `manage check` runs
# in it as its non-root user.
#
#   deploy/build-image.sh [TAG]          (default grader:dev)
#
# CI runs it (.ci/run). Where no registry serves the base image, podman or buildah build on a
# stand-in made from Debian's packages (the same distribution). It exits 0 without building,
# after printing why, only when no engine can be had or neither base can be; a build or a
# check that fails is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG="${1:-grader:dev}"
# PYTHON_IMAGE: another base (e.g. a mirror's copy of the same image, or one built locally).
BASE="${PYTHON_IMAGE:-$(sed -n 's/^ARG PYTHON_IMAGE=//p' Dockerfile)}"

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
  local name="$BASE"
  case "$name" in */*) ;; *) [ "$engine" = docker ] || name="docker.io/library/$name" ;; esac
  timeout 120 "$engine" pull -q "$name"
}
present() { "$engine" image inspect "$BASE" >/dev/null 2>&1; }

STANDIN=localhost/grader-base:trixie
standin() {
  # Where no registry serves the base image: a stand-in of the same distribution (Debian
  # trixie, whose python3 the python:*-slim-trixie images' system is) from Debian's own
  # packages, trusting what this host trusts (a TLS-inspecting proxy's CA, where there is one).
  [ "$engine" != docker ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
  command -v debootstrap >/dev/null 2>&1 || apt-get install -y -q debootstrap >/dev/null || return 1
  local root
  root="$(mktemp -d)"
  # The mirror this host's apt already uses (its first Debian source), so nothing new is named.
  local mirror
  mirror="$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)"
  [ -n "$mirror" ] || mirror="$(sed -n 's/^deb[[:space:]]\+\([^[:space:]]*\/debian\)[[:space:]].*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n 1)"
  [ -n "$mirror" ] || return 1
  debootstrap --variant=minbase --include=python3,python3-venv,python-is-python3,ca-certificates \
    trixie "$root" "$mirror" >/tmp/grader-debootstrap.log 2>&1 || { rm -rf "$root"; return 1; }
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  tar -C "$root" -c . | "$engine" import - "$STANDIN" >/dev/null
  rm -rf "$root"
}
if ! present && ! pull >/tmp/grader-image-pull.log 2>&1; then
  tail -n 3 /tmp/grader-image-pull.log
  echo "· the base image $BASE cannot be pulled (no container registry reachable from here)"
  if [ -z "${PYTHON_IMAGE:-}" ] && { "$engine" image inspect "$STANDIN" >/dev/null 2>&1 || standin; }; then
    BASE="$STANDIN"
    echo "· building on $BASE instead: Debian trixie's own python3 from its packages"
  else
    skip "the base image $BASE cannot be pulled and no stand-in could be made from Debian's packages"
  fi
fi

revision="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
args=(--build-arg "REVISION=$revision" --build-arg "PYTHON_IMAGE=$BASE")
case "$engine" in
  docker) docker build "${args[@]}" -t "$TAG" . ;;
  # chroot isolation: RUN steps need no cgroups (a CI runner inside a container has none of its
  # own); the docker format keeps the HEALTHCHECK (OCI images have none).
  podman) podman build --format docker --isolation chroot "${args[@]}" -t "$TAG" . ;;
  buildah) buildah bud --isolation chroot "${args[@]}" -t "$TAG" . ;;
esac
echo "· built $TAG; checking it"
[ "$engine" = buildah ] && skip "built $TAG with buildah, which cannot run it: not checked"
user="$("$engine" image inspect --format '{{.Config.User}}' "$TAG")"
case "$user" in ""|0|0:*|root|root:*) echo "the image runs as root" >&2; exit 1 ;; esac
check=(manage check)
if "$engine" run --rm -e SECRET_KEY=image-check-not-a-secret "$TAG" "${check[@]}"; then
  :
elif [ "$engine" = podman ] && [ "$(id -u)" = 0 ] && root="$(podman image mount "$TAG")"; then
  # A runner inside a container may not run containers (no cgroups or rlimits of its own):
  # the image's own files, as its user, in a chroot instead.
  echo "· podman cannot run containers here: checking the image's files in a chroot"
  env -i PATH=/opt/venv/bin:/usr/local/bin:/usr/bin:/bin HOME=/app \
    DJANGO_SETTINGS_MODULE=config.settings.production SECRET_KEY=image-check-not-a-secret \
    "$(command -v chroot)" --userspec="$user" "$root" /app/deploy/entrypoint.sh "${check[@]}"
  podman image unmount "$TAG" >/dev/null
else
  echo "the image's check failed" >&2
  exit 1
fi
echo "· $TAG: manage check passed; runs as $user"
