#!/usr/bin/env bash
# Build an image whose command is Debian's dockerd, for `shipshape run --target container:IMAGE`
# (issue 7), and import it into the Docker host at DOCKER_URL as TAG. No image registry is reachable
# here, so the image is made from Debian's packages: debootstrap (minbase) plus docker.io, reusing
# the host's apt cache so that only what it lacks is downloaded (and adding those to it). Prints TAG on stdout, and nothing
# else there.
#
#   bash .ci/dockerd-image-build.sh DOCKER_URL [TAG]      TAG defaults to shipshape-dockerd:bookworm
#
# The daemon listens on tcp://0.0.0.0:2375 (the run's default --container-port; --tls=false, or dockerd
# 20.10 waits 15 s to warn about plain TCP) and keeps its data in
# an anonymous volume at /var/lib/docker: overlay on the container's own overlay root does not mount.
# An image already tagged TAG on the host is reused.
set -euo pipefail

URL=${1:?usage: dockerd-image-build.sh DOCKER_URL [TAG]}
TAG=${2:-shipshape-dockerd:bookworm}
SUITE=bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { echo "dockerd-image-build: $*" >&2; }

[ "$(id -u)" = 0 ] || { say "must run as root (debootstrap)"; exit 1; }
command -v debootstrap >/dev/null || { say "'debootstrap' is not installed (apt-get install debootstrap)"; exit 1; }
docker=(docker --host "$URL")
if "${docker[@]}" image inspect "$TAG" >/dev/null 2>&1; then
  say "$TAG is already on $URL"
  echo "$TAG"
  exit 0
fi

ROOT=$(mktemp -d /tmp/shipshape-dockerd-image.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT
mkdir -p "$ROOT/var/cache/apt/archives"
# Hard links where the cache shares the file system, copies elsewhere; debootstrap checks each one.
cp -l /var/cache/apt/archives/*.deb "$ROOT/var/cache/apt/archives/" 2>/dev/null \
  || cp /var/cache/apt/archives/*.deb "$ROOT/var/cache/apt/archives/" 2>/dev/null || true
say "debootstrap $SUITE with docker.io into $ROOT (log: $ROOT.log)"
if ! debootstrap --variant=minbase --include=docker.io,iptables,ca-certificates "$SUITE" "$ROOT" "$MIRROR" >"$ROOT.log" 2>&1; then
  say "debootstrap failed; its last lines:"
  tail -n 20 "$ROOT.log" >&2
  exit 1
fi
# What was downloaded goes to the host's cache for the next build, and out of the image.
cp -n "$ROOT/var/cache/apt/archives/"*.deb /var/cache/apt/archives/ 2>/dev/null || true
rm -rf "$ROOT/var/cache/apt/archives/"*.deb "$ROOT/var/lib/apt/lists/"*

say "importing $ROOT as $TAG into $URL"
tar -C "$ROOT" -c . | "${docker[@]}" import \
  --change 'VOLUME /var/lib/docker' \
  --change 'EXPOSE 2375' \
  --change 'ENTRYPOINT ["/usr/bin/tini", "--"]' \
  --change 'CMD ["dockerd", "--host", "tcp://0.0.0.0:2375", "--host", "unix:///var/run/docker.sock", "--tls=false"]' \
  - "$TAG" >/dev/null
rm -f "$ROOT.log"
echo "$TAG"
