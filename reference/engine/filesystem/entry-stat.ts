/** The port's EntryStat of a merged entry, with sizes as dockerd's Lstat reports them. */
import type { EntryStat } from './container-filesystem.ts';
import { goFileMode } from './go-file-mode.ts';
import { entrySize, type VisibleEntry } from './layer-entry.ts';

/** What a directory reports as its size, as ext4 and overlayfs do for a small one. */
export const DIRECTORY_SIZE = 4096;

/** st_size: content bytes of a file, the target's length for a symlink. */
export function statSize(entry: VisibleEntry): number {
  return entry.kind === 'directory' ? DIRECTORY_SIZE : entrySize(entry);
}

export function describeEntry(name: string, entry: VisibleEntry): EntryStat {
  return {
    name,
    kind: entry.kind,
    mode: goFileMode(entry.kind, entry.mode),
    size: statSize(entry),
    mtime: entry.mtime,
    linkTarget: entry.kind === 'symlink' ? entry.target : '',
  };
}
