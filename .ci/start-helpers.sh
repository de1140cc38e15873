# Sourced by dockerd-start.sh and podman-start.sh: messages, the checks before a start, and the socket.
# start_prelude NAME DIR SOCKET_FILE PACKAGES TOOL...: defines say/die (prefixed NAME), checks each
# TOOL is installed (naming PACKAGES to apt-get install) and that we are root, makes DIR absolute and
# sets SOCK and URL.
start_prelude() {
  START_NAME=$1 DIR=$2
  local socket_file=$3 packages=$4 tool
  shift 4
  for tool in "$@"; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed (apt-get install $packages)"
  done
  [ "$(id -u)" = 0 ] || die "must run as root, to manage containers (running as uid $(id -u))"
  mkdir -p "$DIR" || die "cannot create $DIR"
  DIR=$(cd "$DIR" && pwd -P)
  SOCK="$DIR/$socket_file"
  URL="unix://$SOCK"
}

say() { echo "${START_NAME:-start}: $*" >&2; }
die() { say "$*"; exit 1; }
ping() { curl -fsS --max-time 3 --unix-socket "$SOCK" http://x/_ping 2>/dev/null | grep -qx OK; }
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
