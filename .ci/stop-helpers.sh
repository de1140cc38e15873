# Sourced by dockerd-stop.sh and podman-stop.sh: `[DIR] [--purge]` arguments, and waiting for pids to go.
# stop_args DEFAULT_DIR "$@": sets DIR and PURGE.
stop_args() {
  DIR=$1; shift
  PURGE=0
  local arg
  for arg in "$@"; do
    case $arg in
      --purge) PURGE=1 ;;
      *) DIR=$arg ;;
    esac
  done
}

alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

# wait_gone SECONDS PID...: 0 when all are gone in time.
wait_gone() {
  local deadline=$((SECONDS + $1)); shift
  while [ $SECONDS -lt $deadline ]; do
    local any=0 p
    for p in "$@"; do alive "$p" && any=1; done
    [ $any = 0 ] && return 0
    sleep 0.2
  done
  for p in "$@"; do alive "$p" && return 1; done
  return 0
}
