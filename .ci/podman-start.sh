#!/usr/bin/env bash
# Start Podman's Docker-compatible API service for the live job. Prints the socket URL
# (unix://DIR/podman.sock) on stdout, and nothing else there; everything else goes to stderr.
#
#   bash .ci/podman-start.sh [DIR]        DIR defaults to /tmp/podman
#
# Environment:
#   PODMAN_START_TIMEOUT  seconds to wait for GET /_ping (default 60)
#
# The service uses root's default Podman storage: Podman has no daemon of its own to isolate, and its
# networks live in /etc/containers/networks whatever the storage. To run containers on this host
# Podman needs `default_ulimits` under [containers] in /etc/containers/containers.conf (issue 7);
# the script adds it once, idempotently, keeping whatever else the file holds.
# If DIR already holds a service that answers, its URL is printed again and the script exits 0.
set -uo pipefail

TIMEOUT=${PODMAN_START_TIMEOUT:-60}
CONF=/etc/containers/containers.conf
ULIMITS='default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]'

# shellcheck source=start-helpers.sh
. "$(dirname "$0")/start-helpers.sh"
start_prelude podman-start "${1:-/tmp/podman}" podman.sock "podman curl" podman curl

# containers.conf: the ulimits under [containers], added once (a file, a section or a key missing).
configure() {
  mkdir -p "$(dirname "$CONF")"
  [ -f "$CONF" ] || : >"$CONF"
  if grep -qE '^[[:space:]]*default_ulimits[[:space:]]*=' "$CONF"; then
    return 0
  fi
  if grep -qE '^[[:space:]]*\[containers\][[:space:]]*$' "$CONF"; then
    sed -i -E "0,/^[[:space:]]*\[containers\][[:space:]]*$/s//[containers]\n$ULIMITS/" "$CONF"
  else
    printf '\n[containers]\n%s\n' "$ULIMITS" >>"$CONF"
  fi
  say "set $ULIMITS under [containers] in $CONF"
}

if [ -s "$DIR/pid" ]; then
  old=$(cat "$DIR/pid")
  if alive "$old" && ping; then
    say "podman service already running in $DIR (pid $old)"
    echo "$URL"
    exit 0
  fi
  if alive "$old"; then
    die "pid file $DIR/pid names live process $old, but $SOCK does not answer; stop it first (bash .ci/podman-stop.sh $DIR)"
  fi
  say "removing stale pid file (pid $old is gone)"
  rm -f "$DIR/pid"
fi
rm -f "$SOCK"
configure

say "starting podman system service in $DIR"
# setsid: own session, so the caller's job control and terminal signals don't reach it; output to
# the log only, so a caller capturing our stdout with $(...) does not wait for the service.
# --time=0: the service never exits for being idle.
setsid podman system service --time=0 "$URL" </dev/null >"$DIR/log" 2>&1 &
PID=$!
echo "$PID" >"$DIR/pid"
deadline=$((SECONDS + TIMEOUT))
while [ $SECONDS -lt $deadline ]; do
  if ping; then
    say "podman service is up (pid $PID)"
    echo "$URL"
    exit 0
  fi
  if ! alive "$PID"; then
    rm -f "$DIR/pid"
    say "podman system service exited during start-up; last lines of $DIR/log:"
    tail -n 30 "$DIR/log" >&2
    exit 1
  fi
  sleep 0.5
done
say "podman service did not answer $SOCK within ${TIMEOUT}s (pid $PID left running; bash .ci/podman-stop.sh $DIR)"
tail -n 30 "$DIR/log" >&2
exit 1
