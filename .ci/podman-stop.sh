#!/usr/bin/env bash
# Stop the Podman API service that .ci/podman-start.sh started in DIR.
#
#   bash .ci/podman-stop.sh [DIR] [--purge]     DIR defaults to /tmp/podman
#
# SIGTERM to the pid in DIR/pid, waits up to 20 s, then SIGKILL; then the socket and the pid file are
# removed. The log stays for inspection; --purge removes DIR entirely. Podman's containers, images,
# volumes and networks are Podman's storage, not the service's: they stay. Exits 0 when the service
# is gone (also when nothing was running).
set -uo pipefail

. "$(dirname "$0")/stop-helpers.sh"
stop_args /tmp/podman "$@"
GRACE=${PODMAN_STOP_TIMEOUT:-20}

say() { echo "podman-stop: $*" >&2; }

if [ ! -d "$DIR" ]; then
  say "$DIR does not exist: nothing to stop"
  exit 0
fi
DIR=$(cd "$DIR" && pwd -P)

pid=""
[ -s "$DIR/pid" ] && pid=$(cat "$DIR/pid")
if alive "$pid"; then
  say "stopping podman service (pid $pid)"
  kill -TERM "$pid"
  if ! wait_gone "$GRACE" "$pid"; then
    say "podman service still running after ${GRACE}s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null
    if ! wait_gone 5 "$pid"; then
      say "pid $pid survived SIGKILL"
      exit 1
    fi
  fi
else
  [ -n "$pid" ] && say "podman service (pid $pid) is not running"
fi

rm -f "$DIR/podman.sock" "$DIR/pid"
if [ $PURGE = 1 ]; then
  rm -rf "$DIR" && say "removed $DIR"
fi
say "stopped"
exit 0
