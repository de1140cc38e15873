/**
 * `GET /containers/{id}/changes`, computed as dockerd 1.13+ does on overlay2 (moby PR 37313: the
 * "naive" diff, pkg/archive ChangesDirs / FileInfo.addChanges): the container's merged tree against
 * the image's, entry by entry —
 * - in the container only: added (Kind 1), and so is everything under it;
 * - in the image only: deleted (Kind 2), only the top of a deleted tree;
 * - in both: modified (Kind 0) when mode, owner, or — for non-directories — mtime or size differ
 *   (statDifferent; a directory's mtime and size are no measure of change);
 * - a directory with changes under it that is not itself added or modified shows as modified, `/`
 *   excepted.
 * So a directory recreated over a deleted one (opaque) reports the old entries it lost as deleted.
 * dockerd's order follows Go map iteration (random); this list is sorted by path, bytewise, as
 * moby's changesByPath sorts. Only what the writable layer touches is walked; anything under the
 * mount points is not part of the layers and never shows.
 */
import type { LayerView, Located } from './layer-index.ts';
import { entrySize, type VisibleEntry } from './layer-entry.ts';
import { childPath, compareBytewise } from './layer-paths.ts';
import type { MergedView } from './merged-view.ts';
import { isMountPoint, isUnderMountPoint } from './mount-points.ts';

export const CHANGE_MODIFY = 0;
export const CHANGE_ADD = 1;
export const CHANGE_DELETE = 2;

export interface FilesystemChange {
  Path: string;
  Kind: typeof CHANGE_MODIFY | typeof CHANGE_ADD | typeof CHANGE_DELETE;
}

/**
 * @param image the image's tree
 * @param container the container's tree: `upper` over the image's layers
 * @param upper the container's writable layer, which bounds the walk
 */
export function diffAgainstImage(image: MergedView, container: MergedView, upper: LayerView): FilesystemChange[] {
  const changes: FilesystemChange[] = [];

  const touched = (path: string) => upper.get(path) !== undefined || upper.hasChildren(path);

  const added = (located: Located): void => {
    changes.push({ Path: located.path, Kind: CHANGE_ADD });
    if (located.entry.kind !== 'directory' || isMountPoint(located.path)) return;
    for (const name of container.list(located)) added(container.child(located, name) as Located);
  };

  /** the changes under a directory of the container's tree; `before` is the image's entry there, when a directory */
  const diffDirectory = (before: Located | undefined, after: Located): void => {
    const names = new Set(container.list(after));
    if (before !== undefined) for (const name of image.list(before)) names.add(name);
    for (const name of [...names].sort(compareBytewise)) {
      const path = childPath(after.path, name);
      if (isUnderMountPoint(path)) continue;
      const old = before === undefined ? undefined : image.child(before, name);
      const now = container.child(after, name);
      if (old !== undefined && now !== undefined && !touched(path)) continue;
      if (now === undefined) {
        if (old !== undefined) changes.push({ Path: path, Kind: CHANGE_DELETE });
      } else if (old === undefined) added(now);
      else diffEntry(old, now);
    }
  };

  const diffEntry = (before: Located, after: Located): void => {
    const modified = statDifferent(before.entry, after.entry);
    const start = changes.length;
    if (modified) changes.push({ Path: after.path, Kind: CHANGE_MODIFY });
    if (after.entry.kind !== 'directory' || isMountPoint(after.path)) return;
    // under what was no directory, everything is new
    diffDirectory(before.entry.kind === 'directory' ? before : undefined, after);
    if (!modified && changes.length > start) changes.push({ Path: after.path, Kind: CHANGE_MODIFY });
  };

  diffDirectory(image.root(), container.root());
  return changes.sort((a, b) => compareBytewise(a.Path, b.Path));
}

/** moby's statDifferent, over what the model keeps of a stat. */
function statDifferent(before: VisibleEntry, after: VisibleEntry): boolean {
  if (before.kind !== after.kind || before.mode !== after.mode || before.uid !== after.uid || before.gid !== after.gid) return true;
  if (before.kind === 'directory') return false;
  if (before.kind === 'symlink' && after.kind === 'symlink' && before.target !== after.target) return true;
  return !sameFsTime(before.mtime, after.mtime) || entrySize(before) !== entrySize(after);
}

/**
 * moby's sameFsTime: tar keeps whole seconds, so a time with no fraction matches any time in the
 * same second.
 */
function sameFsTime(a: Date, b: Date): boolean {
  const [ams, bms] = [a.getTime(), b.getTime()];
  if (ams === bms) return true;
  return Math.floor(ams / 1000) === Math.floor(bms / 1000) && (ams % 1000 === 0 || bms % 1000 === 0);
}
