#!/usr/bin/env bash
# Start a private dockerd for the live job: its own data root, exec root (and so its own containerd),
# pid file, socket and empty config file under DIR. Prints the socket URL (unix://DIR/docker.sock) on
# stdout, and nothing else there; everything else goes to stderr.
#
#   bash .ci/dockerd-start.sh [DIR]        DIR defaults to /tmp/shipshape-dockerd
#
# Environment:
#   DOCKERD_START_TIMEOUT  seconds to wait for GET /_ping per attempt (default 60)
#   DOCKERD_EXTRA_ARGS     extra dockerd flags, word-split (e.g. "--storage-driver=vfs")
#
# Fallbacks: when dockerd exits during start-up because the host cannot give it what its default
# network needs, the start is retried with less, in this order, and the reason is written to stderr
# and to DIR/start-notes:
#   1. defaults (iptables NAT, docker0 bridge)
#   2. iptables-legacy instead of iptables-nft, when the kernel lacks nf_tables
#      (a PATH shim in DIR/bin; dockerd still manages iptables)
#   3. --iptables=false (no nat/filter rules: published ports use the userland proxy only)
#   4. --iptables=false --bridge=none (no default "bridge" network: checks that need it will fail,
#      which the run shows; better than no live job at all)
# A dockerd that hangs rather than exits is not retried: the timeout ends the script with status 1
# and the log's last lines.
# If DIR already holds a dockerd that answers, its URL is printed again and the script exits 0.
#
# Several private dockerds on one host work (checked with two), but they share the host's docker0
# bridge and iptables chains, so their containers can get the same 172.17.0.x address. Checks do not
# depend on container-to-container networking; to isolate fully, pre-create a bridge and pass
# DOCKERD_EXTRA_ARGS="--bridge=<name>". The iptables-legacy fallback leaves DOCKER chains in the
# legacy tables after stop (dockerd never removes its chains).
set -uo pipefail

TIMEOUT=${DOCKERD_START_TIMEOUT:-60}
read -r -a EXTRA <<<"${DOCKERD_EXTRA_ARGS:-}"

# shellcheck source=start-helpers.sh
. "$(dirname "$0")/start-helpers.sh"
start_prelude dockerd-start "${1:-/tmp/shipshape-dockerd}" docker.sock "docker.io curl" dockerd curl
# A Unix socket path is limited to 107 bytes; containerd's socket lives deeper than ours.
[ ${#DIR} -le 60 ] || die "DIR path is too long for Unix sockets (${#DIR} > 60 bytes): $DIR"

# Already running here?
if [ -s "$DIR/pid" ]; then
  old=$(cat "$DIR/pid")
  if alive "$old" && ping; then
    say "dockerd already running in $DIR (pid $old)"
    echo "$URL"
    exit 0
  fi
  if alive "$old"; then
    die "pid file $DIR/pid names live process $old, but $SOCK does not answer; stop it first (bash .ci/dockerd-stop.sh $DIR)"
  fi
  say "removing stale pid file (pid $old is gone)"
  rm -f "$DIR/pid"
fi
rm -f "$SOCK"

# An empty config file: a host's /etc/docker/daemon.json must not change what the suite sees.
[ -f "$DIR/daemon.json" ] || echo '{}' >"$DIR/daemon.json"
: >"$DIR/start-notes"

# start ATTEMPT_NAME [FLAGS...]: returns 0 when /_ping answers, 2 when dockerd exited, 1 on timeout.
start() {
  local name=$1; shift
  local log="$DIR/log"
  [ -s "$log" ] && mv -f "$log" "$DIR/log.previous"
  say "starting dockerd ($name) in $DIR"
  # setsid: own session, so the caller's job control and terminal signals don't reach it; no stdin;
  # output to the log only, so a caller capturing our stdout with $(...) does not wait for dockerd.
  PATH="$SHIM_PATH$PATH" setsid dockerd \
    --config-file "$DIR/daemon.json" \
    --data-root "$DIR/root" \
    --exec-root "$DIR/exec" \
    --pidfile "$DIR/pid" \
    --host "$URL" \
    "$@" "${EXTRA[@]}" </dev/null >"$log" 2>&1 &
  PID=$!
  local deadline=$((SECONDS + TIMEOUT))
  while [ $SECONDS -lt $deadline ]; do
    if ping; then return 0; fi
    if ! alive "$PID"; then wait "$PID" 2>/dev/null; return 2; fi
    sleep 0.5
  done
  ping && return 0
  return 1
}

show_log() {
  say "last lines of $DIR/log:"
  # The errors first (the tail is often gRPC chatter), then the tail itself.
  grep -E 'level=(error|fatal)|failed to start daemon' "$DIR/log" 2>/dev/null | tail -n 10 >&2
  say "---"
  tail -n 30 "$DIR/log" >&2
}

note() { say "$*"; echo "$*" >>"$DIR/start-notes"; }

SHIM_PATH=""
attempt=defaults
flags=()
while :; do
  start "$attempt" "${flags[@]}"
  rc=$?
  if [ $rc = 0 ]; then
    echo "$attempt: ${flags[*]:-(no extra flags)}" >>"$DIR/start-notes"
    say "dockerd is up (pid $PID, $attempt)"
    echo "$URL"
    exit 0
  fi
  if [ $rc = 1 ]; then
    say "dockerd did not answer $SOCK within ${TIMEOUT}s"
    show_log
    exit 1
  fi
  # dockerd exited: may a fallback help?
  reason=$(grep -E 'failed to start daemon|level=(error|fatal)' "$DIR/log" | tail -n 1)
  next=""
  if [ $attempt = defaults ] && grep -qiE 'iptables|nf_tables|nftables|ip6?tables' "$DIR/log" \
     && grep -qiE 'nf_tables|nftables|Protocol not supported|Could not fetch rule set' "$DIR/log" \
     && command -v iptables-legacy >/dev/null; then
    next=iptables-legacy
    mkdir -p "$DIR/bin"
    for t in iptables ip6tables; do
      for s in "" -save -restore; do
        if command -v "$t-legacy$s" >/dev/null; then ln -sf "$(command -v "$t-legacy$s")" "$DIR/bin/$t$s"; fi
      done
    done
    SHIM_PATH="$DIR/bin:"
    note "fallback to iptables-legacy: dockerd failed with iptables-nft ($reason)"
  elif [[ $attempt = defaults || $attempt = iptables-legacy ]] && grep -qiE 'iptables|nat chain|chain DOCKER' "$DIR/log"; then
    next=no-iptables
    SHIM_PATH=""
    flags=(--iptables=false)
    note "fallback to --iptables=false: dockerd cannot program iptables here ($reason)"
  elif [ $attempt != no-bridge ] && grep -qiE 'bridge|network controller|netlink|docker0' "$DIR/log"; then
    next=no-bridge
    SHIM_PATH=""
    flags=(--iptables=false --bridge=none)
    note "fallback to --iptables=false --bridge=none: dockerd cannot create its default bridge here ($reason)"
  fi
  if [ -z "$next" ]; then
    say "dockerd exited during start-up (no fallback applies)"
    show_log
    exit 1
  fi
  attempt=$next
  rm -f "$DIR/pid" "$SOCK"
done
