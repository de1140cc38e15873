/**
 * What one layer says about one path: a file, a directory, a symlink, or a whiteout (the path is
 * deleted from the layers below). Entries are immutable values: a change makes a new entry, so layers
 * can share them (and their content buffers) without copying.
 */

/** Owner and times as a tar header carries them; `mode` holds the Unix permission bits (0o7777). */
interface EntryMetadata {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly mtime: Date;
}

export interface FileEntry extends EntryMetadata {
  readonly kind: 'file';
  /** never written to in place: appending makes a new buffer */
  readonly data: Buffer;
}

export interface DirectoryEntry extends EntryMetadata {
  readonly kind: 'directory';
  /** hides everything the layers below hold under this directory (aufs `.wh..wh..opq`) */
  readonly opaque: boolean;
}

export interface SymlinkEntry extends EntryMetadata {
  readonly kind: 'symlink';
  readonly target: string;
}

export interface WhiteoutEntry {
  readonly kind: 'whiteout';
}

/** What a path shows once the layers are merged. */
export type VisibleEntry = FileEntry | DirectoryEntry | SymlinkEntry;

export type LayerEntry = VisibleEntry | WhiteoutEntry;

export const EPOCH = new Date(0);

/**
 * A directory a layer holds only implicitly (a tar with `a/b` and no `a/` entry, or a parent the
 * writable layer never had to copy up): it exists, but says nothing about its metadata, which then
 * come from the layers below, or are these defaults (what dockerd's MkdirAll gives a missing parent).
 */
export const IMPLICIT_DIRECTORY: DirectoryEntry = { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: EPOCH, opaque: false };

/** Bytes an entry adds to a layer's size, as dockerd counts them: file content and symlink targets, not directories. */
export function entrySize(entry: LayerEntry): number {
  switch (entry.kind) {
    case 'file':
      return entry.data.length;
    case 'symlink':
      return Buffer.byteLength(entry.target);
    default:
      return 0;
  }
}
