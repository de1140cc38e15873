/**
 * What a simulated process (reference/engine/process) may do to its container's filesystem. The
 * layered in-memory filesystem implements it; the process interpreter depends on nothing else.
 * Paths are absolute, normalised POSIX paths ("/tmp/x"); symlinks are followed except by lstat.
 */
export type EntryKind = 'file' | 'directory' | 'symlink';

export interface EntryStat {
  name: string;
  kind: EntryKind;
  /** permission bits plus the type bits of Go's os.FileMode as docker reports them in path stats */
  mode: number;
  size: number;
  mtime: Date;
  linkTarget: string;
}

export class FilesystemError extends Error {
  constructor(
    readonly code: 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'ENOTEMPTY' | 'EROFS',
    readonly path: string,
  ) {
    super(`${code}: ${path}`);
    this.name = 'FilesystemError';
  }
}

export interface ContainerFilesystem {
  stat(path: string): EntryStat | undefined;
  lstat(path: string): EntryStat | undefined;
  readFile(path: string): Buffer;
  /** creates or truncates; `append` adds to the end */
  writeFile(path: string, data: Buffer | string, options?: { append?: boolean; mode?: number }): void;
  mkdir(path: string, options?: { parents?: boolean; mode?: number }): void;
  /** names of the entries of a directory, sorted */
  list(path: string): string[];
  remove(path: string, options?: { recursive?: boolean; force?: boolean }): void;
  symlink(target: string, path: string): void;
}
