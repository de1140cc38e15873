/** A daemon's snapshot as sorted id lists per kind: what the live-daemon tests compare before and after a run. */
import type { DaemonSnapshot } from '../../harness/run/daemon-snapshot.ts';

export function sortedSnapshot(snapshot: DaemonSnapshot): Record<string, string[]> {
  return Object.fromEntries(Object.entries(snapshot).map(([kind, ids]) => [kind, [...(ids as Set<string>)].sort()]));
}
