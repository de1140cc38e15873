#!/usr/bin/env bash
# Stop the private dockerd that .ci/dockerd-start.sh started in DIR.
#
#   bash .ci/dockerd-stop.sh [DIR] [--purge]     DIR defaults to /tmp/shipshape-dockerd
#
# SIGTERM to the pid in DIR/pid (dockerd then stops its containers and its containerd), waits up to
# 20 s, then SIGKILL. After that, anything still running from this DIR's exec root (its containerd,
# container shims) is killed by pid, the mounts under DIR are unmounted, and the sockets and the pid
# file are removed. The log and the data root stay for inspection; --purge removes DIR entirely.
# Only processes whose command line names this DIR are touched. Exits 0 when nothing of DIR is left
# running (also when nothing was running).
set -uo pipefail

. "$(dirname "$0")/stop-helpers.sh"
stop_args /tmp/shipshape-dockerd "$@"
GRACE=${DOCKERD_STOP_TIMEOUT:-20}

say() { echo "dockerd-stop: $*" >&2; }

if [ ! -d "$DIR" ]; then
  say "$DIR does not exist: nothing to stop"
  exit 0
fi
DIR=$(cd "$DIR" && pwd -P)

# Leftovers of this instance: its containerd and the containerd shims of its containers. They are
# found by their argv naming this DIR's containerd (--config/-address DIR/exec/containerd/...), never
# by program name alone, so other daemons on the host and clients talking to this one are not touched.
pids_of_dir() {
  local p cmd
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = $$ ] && continue
    cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) || continue
    case $cmd in
      containerd*" $DIR/exec/containerd/"* | */containerd*" $DIR/exec/containerd/"*) echo "$p" ;;
    esac
  done
}

pid=""
[ -s "$DIR/pid" ] && pid=$(cat "$DIR/pid")
if alive "$pid"; then
  say "stopping dockerd (pid $pid)"
  kill -TERM "$pid"
  if ! wait_gone "$GRACE" "$pid"; then
    say "dockerd still running after ${GRACE}s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null
    wait_gone 5 "$pid" || say "pid $pid survived SIGKILL"
  fi
else
  [ -n "$pid" ] && say "dockerd (pid $pid) is not running"
fi

# The cgroups of this instance's containers (ids are the names under DIR/root/containers): cgroup v1
# (<controller>/docker/<id>), v2 (docker/<id>), systemd driver (docker-<id>.scope).
container_cgroups() {
  local c id
  [ -d /sys/fs/cgroup ] || return 0
  for c in "$DIR"/root/containers/*/; do
    id=$(basename "$c")
    [[ $id =~ ^[0-9a-f]{64}$ ]] || continue
    find /sys/fs/cgroup -maxdepth 5 -type d \( -name "$id" -o -name "docker-$id.scope" \) 2>/dev/null
  done
}

# Processes of containers still running when dockerd was killed: dockerd already had its chance to
# stop them gracefully, so SIGKILL.
mapfile -t cgroups < <(container_cgroups)
if [ ${#cgroups[@]} -gt 0 ]; then
  mapfile -t procs < <(for g in "${cgroups[@]}"; do cat "$g/cgroup.procs" 2>/dev/null; done | sort -un)
  if [ ${#procs[@]} -gt 0 ]; then
    say "killing leftover container processes: ${procs[*]}"
    kill -KILL "${procs[@]}" 2>/dev/null
    wait_gone 5 "${procs[@]}" || say "container processes survived SIGKILL: ${procs[*]}"
  fi
fi

# Leftovers of this instance: containerd (normally stopped by dockerd) and shims of containers
# that were still running when dockerd was killed.
mapfile -t rest < <(pids_of_dir)
if [ ${#rest[@]} -gt 0 ]; then
  say "terminating leftover processes of $DIR: ${rest[*]}"
  kill -TERM "${rest[@]}" 2>/dev/null
  if ! wait_gone 5 "${rest[@]}"; then
    kill -KILL "${rest[@]}" 2>/dev/null
    wait_gone 5 "${rest[@]}"
  fi
fi

# Empty cgroups of this instance's containers, deepest first (rmdir never removes a busy one).
if [ ${#cgroups[@]} -gt 0 ]; then
  printf '%s\n' "${cgroups[@]}" | sort -r | while read -r g; do rmdir "$g" 2>/dev/null; done
fi

# Mounts under DIR (overlay layers, shm, netns files), deepest first.
if [ -r /proc/self/mountinfo ]; then
  awk -v d="$DIR/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || say "could not unmount $m"
  done
fi

rm -f "$DIR/docker.sock" "$DIR/pid"
find "$DIR/exec" -type s -delete 2>/dev/null
rm -rf "$DIR/exec" 2>/dev/null

mapfile -t still < <(pids_of_dir)
if [ ${#still[@]} -gt 0 ]; then
  say "still running from $DIR: ${still[*]}"
  exit 1
fi
if [ $PURGE = 1 ]; then
  rm -rf "$DIR" && say "removed $DIR"
fi
say "stopped"
exit 0
