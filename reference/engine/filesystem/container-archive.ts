/**
 * `HEAD`, `GET` and `PUT /containers/{id}/archive`, with moby's rules (daemon/archive.go,
 * container/archive.go, pkg/archive):
 * - The path is taken from `/` (relative paths too) and cleaned, keeping a trailing `/` or `/.`
 *   (PreserveTrailingDotOrSeparator).
 * - Stat and GET resolve the path's directory part with every symlink followed in the container's
 *   scope (FollowSymlinkInScope: absolute targets from the container's root, `..` stopping there,
 *   missing components carried along); the last element is not followed — a symlink is reported and
 *   archived as itself — unless a trailing `/` or `/.` puts it into the directory part. A trailing
 *   `/` or `/.` on a non-directory is ENOTDIR (HTTP 400); nothing there is ENOENT (404).
 * - The stat: `name` is the path's last element (Go's filepath.Base: `/` for the root, `.` for
 *   `dir/.`), `mode` Go's os.FileMode, `linkTarget` the symlink fully resolved as an absolute path.
 * - GET: a non-directory is one member named by the last element; a directory is the directory and
 *   all under it, the top renamed to the path's last element (TarResourceRebaseOpts): `/tmp/d` gives
 *   `d/`, `d/x`; `/tmp/d/.` gives `./`, `./x` (the contents); `/` gives `/`, `/bin/`, ….
 * - Under /proc, /sys and /dev nothing can be copied: those are mounts, not the container's layers.
 * - Copy (the endpoint archive replaced) follows every symlink, the last too: {@link archiveResource}.
 * - PUT: the path, every symlink followed (also the last), must be an existing directory (ENOENT,
 *   ENOTDIR); a read-only rootfs refuses (EROFS, HTTP 403); then the tar is unpacked as pkg/archive's
 *   Unpack does inside a chroot at that directory — see {@link extractToContainerDirectory}.
 */
import { posix } from 'node:path';
import { FilesystemError } from './container-filesystem.ts';
import { ArchiveBreakoutError, ArchiveUnpackError, OverwriteRefusedError, UnreadableArchiveError } from './filesystem-errors.ts';
import { statSize } from './entry-stat.ts';
import { goFileMode } from './go-file-mode.ts';
import type { DirectoryEntry, FileEntry, SymlinkEntry, VisibleEntry } from './layer-entry.ts';
import { childPath, parentPath } from './layer-paths.ts';
import type { Located } from './layer-index.ts';
import type { MergedView } from './merged-view.ts';
import { walkMerged } from './merged-walk.ts';
import { isUnderMountPoint } from './mount-points.ts';
import { resolvePath } from './path-resolution.ts';
import { memberOf, readTar, writeTar, type TarMember } from './tar-io.ts';

/** The `X-…-Container-Path-Stat` object (spec/1 §2.4). */
export interface PathStat {
  name: string;
  size: number;
  mode: number;
  mtime: Date;
  linkTarget: string;
}

export interface PathArchive {
  stat: PathStat;
  tar: Buffer;
}

export interface ExtractOptions {
  /** refuse to replace a directory by a non-directory or the reverse (OverwriteRefusedError) */
  noOverwriteDirNonDir?: boolean;
}

/** moby's `PreserveTrailingDotOrSeparator(filepath.Join("/", path), path)`. */
export function containerAbsolutePath(path: string): string {
  let cleaned = goClean(`/${path}`);
  if (goBase(cleaned) !== '.' && goBase(path) === '.') cleaned += cleaned.endsWith('/') ? '.' : '/.';
  if (!cleaned.endsWith('/') && path.endsWith('/')) cleaned += '/';
  return cleaned;
}

/** Go's filepath.Clean: no trailing slash, `.` and `..` resolved lexically. */
function goClean(path: string): string {
  const normalised = posix.normalize(path);
  return normalised.length > 1 && normalised.endsWith('/') ? normalised.slice(0, -1) : normalised;
}

/** Go's filepath.Base: the last element, trailing slashes ignored; `.` for '' and `/` for the root. */
function goBase(path: string): string {
  if (path === '') return '.';
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

interface Resource {
  /** the path as given, made absolute (containerAbsolutePath) */
  absPath: string;
  located: Located;
}

/** moby's ResolvePath and the Lstat of StatPath. */
function locateResource(view: MergedView, path: string): Resource {
  const absPath = containerAbsolutePath(path);
  const split = absPath.lastIndexOf('/');
  const base = absPath.slice(split + 1);
  const directory = resolvePath(view, absPath.slice(0, split + 1), { followLast: true, lenient: true });
  const parent = directory.located;
  if (parent === undefined) throw new FilesystemError('ENOENT', path);
  if (parent.entry.kind !== 'directory') throw new FilesystemError('ENOTDIR', path);
  const located = base === '' || base === '.' ? parent : view.child(parent, base);
  if (located === undefined || isUnderMountPoint(located.path)) throw new FilesystemError('ENOENT', path);
  return { absPath, located };
}

export function statContainerPath(view: MergedView, path: string): PathStat {
  return statOf(view, locateResource(view, path));
}

function statOf(view: MergedView, { absPath, located }: Resource): PathStat {
  const { entry } = located;
  return {
    name: goBase(absPath),
    size: statSize(entry),
    mode: goFileMode(entry.kind, entry.mode),
    mtime: entry.mtime,
    linkTarget: entry.kind === 'symlink' ? resolvePath(view, absPath, { followLast: true, lenient: true }).path : '',
  };
}

export async function archiveContainerPath(view: MergedView, path: string): Promise<PathArchive> {
  const resource = locateResource(view, path);
  const stat = statOf(view, resource);
  const top = goBase(resource.absPath);
  const members: TarMember[] = [];
  if (resource.located.entry.kind !== 'directory') members.push(memberOf(top, resource.located.entry));
  else {
    // the root's contents are rebased onto '' (dockerd's special case), so their names start with '/'
    const prefix = top === '/' ? '' : top;
    walkMerged(view, resource.located, (located, relative) => {
      members.push(memberOf(relative === '' ? prefix : `${prefix}/${relative}`, located.entry));
    });
  }
  return { stat, tar: await writeTar(members) };
}

/**
 * `POST /containers/{id}/copy` (moby's containerCopy): the resource with every symlink followed, the
 * last one too, archived under the base name of what it resolves to — a file alone, a directory with
 * all under it (`/bin/sh` gives `busybox`; `/etc` gives `etc/`, `etc/passwd`, …).
 */
export async function archiveResource(view: MergedView, resource: string): Promise<Buffer> {
  const { path: physical } = resolvePath(view, goClean(`/${resource}`), { followLast: true, lenient: true });
  return (await archiveContainerPath(view, physical)).tar;
}

/**
 * Unpacks `archive` into the directory at `path`, as pkg/archive's Unpack does in a chroot there:
 * member names are cleaned and may not climb out (ArchiveBreakoutError); symlinks on the way resolve
 * inside the directory; missing parents are made (0755); what is in a member's way is removed first
 * unless both are directories (then the directory takes the member's metadata), or refused with
 * noOverwriteDirNonDir; a `.` member is skipped; directories get their mtimes back once all is
 * unpacked. Owners and modes come from the tar. Hard links become copies; device nodes and FIFOs are
 * skipped. Members are unpacked in order: a failure leaves the earlier ones in place, as in dockerd.
 * The directory's own problems are FilesystemErrors (ENOENT, ENOTDIR, EROFS); a tar that cannot be
 * read is an UnreadableArchiveError, a member that cannot be made an ArchiveUnpackError.
 */
/** What unpacking needs of a writable layered filesystem (declared here so the two modules do not import each other). */
export interface ExtractionTarget {
  readonly merged: MergedView;
  readonly clock: () => Date;
  putEntry(path: string, entry: FileEntry | SymlinkEntry | Omit<DirectoryEntry, 'opaque'>, now: Date): void;
  removeEntry(path: string, now: Date): void;
  /** EROFS when the directory is in a read-only volume, or not in a volume on a read-only rootfs */
  assertExtractable(physical: string, path: string): void;
}

export async function extractToContainerDirectory(fs: ExtractionTarget, path: string, archive: Buffer, options: ExtractOptions): Promise<void> {
  extractionDirectory(fs, path);
  const members = await readTar(archive).catch((error: unknown) => {
    throw new UnreadableArchiveError(error);
  });
  // the container may have changed while the tar was read
  const destination = extractionDirectory(fs, path);
  const now = fs.clock();
  const directoryTimes: Array<[string, Date]> = [];
  for (const member of members) {
    const made = unpackMember(() => extractMember(fs, { destination, named: path, now }, member, options));
    if (made?.kind === 'directory') directoryTimes.push([made.path, made.mtime]);
  }
  for (const [directory, mtime] of directoryTimes) {
    const located = fs.merged.lookup(directory);
    if (located?.entry.kind === 'directory') fs.putEntry(directory, { ...located.entry, mtime }, now);
  }
}

/**
 * A member's own filesystem errors are unpack failures, so that they never read as a problem of the
 * extraction directory; a refused overwrite keeps its own class.
 */
function unpackMember<T>(extract: () => T): T {
  try {
    return extract();
  } catch (error) {
    if (error instanceof FilesystemError && !(error instanceof OverwriteRefusedError)) throw new ArchiveUnpackError(error);
    throw error;
  }
}

function extractionDirectory(fs: ExtractionTarget, path: string): string {
  const { path: physical, located } = resolvePath(fs.merged, containerAbsolutePath(path), { followLast: true, lenient: true });
  if (located === undefined) throw new FilesystemError('ENOENT', path);
  if (located.entry.kind !== 'directory') throw new FilesystemError('ENOTDIR', path);
  fs.assertExtractable(physical, path);
  return physical;
}

/** Where an extraction goes, and the time it happens at. */
interface Extraction {
  destination: string;
  /** the destination as the client named it, for the refusal of a member that climbs out */
  named: string;
  now: Date;
}

function extractMember(fs: ExtractionTarget, extraction: Extraction, { header, data }: TarMember, options: ExtractOptions): { kind: string; path: string; mtime: Date } | undefined {
  const { destination, named, now } = extraction;
  const relative = memberPath(header.name, named);
  const type = header.type ?? 'file';
  if (relative === '' || !['file', 'contiguous-file', 'directory', 'symlink', 'link'].includes(type)) return undefined;
  const isDirectory = type === 'directory';
  ensureDirectory(fs, extraction, parentPath(`/${relative}`));
  const target = resolvePath(fs.merged, `/${relative}`, { followLast: false, root: destination });
  const existing = target.located;
  if (existing !== undefined) {
    const existingIsDirectory = existing.entry.kind === 'directory';
    if (options.noOverwriteDirNonDir && existingIsDirectory !== isDirectory) throw new OverwriteRefusedError(target.path, existingIsDirectory ? 'directory' : 'non-directory');
    if (!(existingIsDirectory && isDirectory)) fs.removeEntry(target.path, now);
  }
  const owner = { mode: (header.mode ?? 0o644) & 0o7777, uid: header.uid ?? 0, gid: header.gid ?? 0, mtime: header.mtime ?? now };
  let entry: VisibleEntry;
  if (type === 'directory') entry = { ...owner, kind: 'directory', opaque: false };
  else if (type === 'symlink') entry = { ...owner, kind: 'symlink', target: header.linkname ?? '' };
  else if (type === 'link') entry = linkedEntry(fs, extraction, header.linkname ?? '');
  else entry = { ...owner, kind: 'file', data };
  fs.putEntry(target.path, entry, now);
  return { kind: entry.kind, path: target.path, mtime: entry.mtime };
}

/** A member's name, cleaned and relative to the extraction directory ('' for the directory itself). */
function memberPath(name: string, named: string): string {
  const cleaned = goClean(name);
  if (cleaned === '..' || cleaned.startsWith('../')) throw new ArchiveBreakoutError(name, named);
  return cleaned === '.' || cleaned === '/' ? '' : cleaned.replace(/^\/+/, '');
}

/** What a hard link member names: the same file (a copy here: the model has no inodes). */
function linkedEntry(fs: ExtractionTarget, { destination, named }: Extraction, linkname: string): VisibleEntry {
  const relative = memberPath(linkname, named);
  const { located } = resolvePath(fs.merged, `/${relative}`, { followLast: false, root: destination });
  if (located === undefined || located.entry.kind === 'directory') throw new FilesystemError('ENOENT', childPath(destination, relative));
  return located.entry;
}

/** MkdirAll inside the extraction directory: the parents a member needs, 0755 as under dockerd's umask. */
function ensureDirectory(fs: ExtractionTarget, extraction: Extraction, scopedPath: string): void {
  const { destination, now } = extraction;
  if (scopedPath === '/') return;
  let resolution;
  try {
    resolution = resolvePath(fs.merged, scopedPath, { followLast: true, root: destination });
  } catch (error) {
    if (!(error instanceof FilesystemError) || error.code !== 'ENOENT') throw error;
    ensureDirectory(fs, extraction, parentPath(scopedPath));
    resolution = resolvePath(fs.merged, scopedPath, { followLast: true, root: destination });
  }
  if (resolution.located === undefined) fs.putEntry(resolution.path, { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: now }, now);
  else if (resolution.located.entry.kind !== 'directory') throw new FilesystemError('ENOTDIR', resolution.path);
}
