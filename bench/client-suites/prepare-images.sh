#!/usr/bin/env bash
# The images the client suites expect, on the daemon at the Unix socket SOCK: one image made from the
# busybox fixture with every busybox applet linked in /bin (as the real alpine and busybox images
# have) and /bin/bash a sh wrapper (dockerode's tests run bash), tagged busybox:latest, alpine:3.10,
# alpine:latest and ubuntu:latest. The fixture is imported first where busybox:latest is missing.
#   bash prepare-images.sh SOCK
set -euo pipefail
SOCK=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
api() { curl -sS --unix-socket "$SOCK" "$@"; }
if ! api -f -o /dev/null http://x/v1.25/images/busybox:latest/json 2>/dev/null; then
  (cd "$HERE/../.." && node --import tsx bench/client-suites/fixture-rootfs.ts "$WORK/rootfs.tar")
  api -X POST -H 'Content-Type: application/x-tar' --data-binary @"$WORK/rootfs.tar" 'http://x/v1.25/images/create?fromSrc=-&repo=busybox&tag=latest' >/dev/null
fi
mkdir -p "$WORK/ctx/bin"
for applet in $(busybox --list); do [ "$applet" = busybox ] || ln -s busybox "$WORK/ctx/bin/$applet"; done
printf '#!/bin/sh\n/bin/sh "$@"\n' > "$WORK/ctx/bin/bash"
chmod 755 "$WORK/ctx/bin/bash"
printf 'FROM busybox:latest\nCOPY bin/ /bin/\n' > "$WORK/ctx/Dockerfile"
tar -C "$WORK/ctx" -cf "$WORK/ctx.tar" Dockerfile bin
api -X POST -H 'Content-Type: application/x-tar' --data-binary @"$WORK/ctx.tar" 'http://x/v1.25/build?t=clientbase:latest&rm=1' | tail -n 1
for tag in alpine:3.10 alpine:latest ubuntu:latest busybox:latest; do
  api -X POST "http://x/v1.25/images/clientbase:latest/tag?repo=${tag%%:*}&tag=${tag##*:}" -o /dev/null
done
