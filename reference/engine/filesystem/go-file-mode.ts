/**
 * Go's os.FileMode, which dockerd puts in the archive path stat (`mode`): the permission bits, and
 * the type and special bits at Go's own positions, not at the Unix ones (Go's io/fs ModeDir = 1<<31,
 * ModeSymlink = 1<<27, ModeSetuid = 1<<23, ModeSetgid = 1<<22, ModeSticky = 1<<20).
 */
import type { EntryKind } from './container-filesystem.ts';

export const GO_MODE_DIR = 0x80000000;
export const GO_MODE_SYMLINK = 0x08000000;
export const GO_MODE_SETUID = 0x00800000;
export const GO_MODE_SETGID = 0x00400000;
export const GO_MODE_STICKY = 0x00100000;

/** `unixMode` is st_mode's low 12 bits (0o7777). The result is unsigned, as Go's uint32 encodes in JSON. */
export function goFileMode(kind: EntryKind, unixMode: number): number {
  let mode = unixMode & 0o777;
  if (unixMode & 0o4000) mode |= GO_MODE_SETUID;
  if (unixMode & 0o2000) mode |= GO_MODE_SETGID;
  if (unixMode & 0o1000) mode |= GO_MODE_STICKY;
  if (kind === 'directory') mode |= GO_MODE_DIR;
  if (kind === 'symlink') mode |= GO_MODE_SYMLINK;
  return mode >>> 0;
}
