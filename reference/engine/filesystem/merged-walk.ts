/**
 * A depth-first walk of the merged tree as Go's filepath.Walk does it (a directory, then its entries
 * bytewise; symlinks not followed), leaving out what lies under the mount points: what dockerd's
 * tar of a container's root filesystem holds.
 */
import type { Located } from './layer-index.ts';
import type { MergedView } from './merged-view.ts';
import { isUnderMountPoint } from './mount-points.ts';

/** `visit` gets each entry with its path relative to `top` ('' for `top` itself). */
export function walkMerged(view: MergedView, top: Located, visit: (located: Located, relative: string) => void): void {
  const walk = (located: Located, relative: string) => {
    visit(located, relative);
    if (located.entry.kind !== 'directory') return;
    for (const name of view.list(located)) {
      const child = view.child(located, name) as Located;
      if (isUnderMountPoint(child.path)) continue;
      walk(child, relative === '' ? name : `${relative}/${name}`);
    }
  };
  walk(top, '');
}
