/**
 * A container's filesystem: its image's read-only layers (shared, never copied) under one writable
 * layer of its own, with overlayfs's rules. A change copies the entry up (its parent directories
 * come along with their metadata); deleting something the image holds leaves a whiteout; a directory
 * made where one was deleted is opaque. With `readOnly` (HostConfig.ReadonlyRootfs) every change
 * fails with EROFS, but under the mount points (/proc, /sys, /dev), which are not the rootfs. The
 * volumes mounted in it (volume-mounts.ts) hold their own files: a change under one goes to its tree,
 * refused only when that mount is read-only.
 *
 * The docker views of the same filesystem (changes, export, archive, commit) live in their own
 * files; the methods at the end of the class only hand over to them.
 */
import { FilesystemError, type ContainerFilesystem, type EntryStat } from './container-filesystem.ts';
import { archiveContainerPath, archiveResource, extractToContainerDirectory, statContainerPath, type ExtractOptions, type PathArchive, type PathStat } from './container-archive.ts';
import { exportFilesystem } from './filesystem-export.ts';
import { diffAgainstImage, type FilesystemChange } from './filesystem-changes.ts';
import { MountPointBusyError, ReadOnlyVolumeError } from './filesystem-errors.ts';
import { describeEntry } from './entry-stat.ts';
import type { ImageLayerStack } from './image-layer-stack.ts';
import { entrySize, type DirectoryEntry, type FileEntry, type SymlinkEntry } from './layer-entry.ts';
import { LayerIndex, type Located } from './layer-index.ts';
import { baseName, childPath, parentPath, pathParts } from './layer-paths.ts';
import { Layer } from './layer.ts';
import { MergedView } from './merged-view.ts';
import { walkMerged } from './merged-walk.ts';
import { CONTAINER_INIT_FILES, isMountPoint, isUnderMountPoint, MOUNT_POINTS } from './mount-points.ts';
import { resolvePath, type Resolution } from './path-resolution.ts';
import { treePath, VolumeMountTable, type VolumeMount } from './volume-mounts.ts';

export interface LayeredFilesystemOptions {
  /** HostConfig.ReadonlyRootfs */
  readOnly?: boolean;
  /** the mtime of what changes (default: the wall clock) */
  clock?: () => Date;
  /** the volumes mounted in it */
  volumes?: readonly VolumeMount[];
  /** whether it has the files docker's init layer gives a container (mount-points.ts), as every container the engine makes does */
  containerInitFiles?: boolean;
}

export interface FilesystemSize {
  /** bytes in the writable layer: file contents and symlink targets (dockerd's SizeRw) */
  rw: number;
  /** the image's size plus `rw` (dockerd's SizeRootFs) */
  rootFs: number;
}

const WHITEOUT = { kind: 'whiteout' } as const;

export class LayeredFilesystem implements ContainerFilesystem {
  readonly readOnly: boolean;
  /** the writable layer */
  private readonly upper = new LayerIndex();
  /** the container's filesystem as its processes see it, volumes included */
  readonly merged: MergedView;
  /** its layers alone, as dockerd's changes, export and sizes see them */
  private readonly rootfs: MergedView;
  /** what its changes are measured against: the layers under the writable one */
  private readonly baseline: MergedView;
  private readonly volumes: VolumeMountTable;
  /** the mtime of what changes */
  readonly clock: () => Date;

  constructor(
    readonly image: ImageLayerStack,
    options: LayeredFilesystemOptions = {},
  ) {
    this.readOnly = options.readOnly ?? false;
    this.clock = options.clock ?? (() => new Date());
    this.volumes = new VolumeMountTable(options.volumes);
    const below = options.containerInitFiles ? [...image.topFirst, CONTAINER_INIT_FILES] : image.topFirst;
    // changes are the writable layer's against what lies under it, the init files included (as dockerd's init layer)
    this.baseline = options.containerInitFiles ? new MergedView(below) : image.view;
    this.rootfs = new MergedView([this.upper, ...below]);
    this.merged = new MergedView([this.upper, ...below], this.volumes);
  }

  // --- ContainerFilesystem -------------------------------------------------------------------

  stat(path: string): EntryStat | undefined {
    return this.describe(this.tryResolve(path, true));
  }

  lstat(path: string): EntryStat | undefined {
    return this.describe(this.tryResolve(path, false));
  }

  readFile(path: string): Buffer {
    const { located } = this.resolve(path, true);
    if (located === undefined) throw new FilesystemError('ENOENT', path);
    if (located.entry.kind === 'directory') throw new FilesystemError('EISDIR', path);
    return located.entry.kind === 'file' ? Buffer.from(located.entry.data) : Buffer.alloc(0);
  }

  writeFile(path: string, data: Buffer | string, options: { append?: boolean; mode?: number } = {}): void {
    // a symlink is written through, and a dangling one creates its target, as open(O_CREAT) does
    const { path: physical, located } = this.resolve(path, true);
    if (located?.entry.kind === 'directory') throw new FilesystemError('EISDIR', path);
    this.assertWritable(physical, path);
    const existing = located?.entry as FileEntry | undefined;
    const bytes = Buffer.from(data);
    const now = this.clock();
    const content = options.append && existing ? Buffer.concat([existing.data, bytes]) : bytes;
    this.putEntry(physical, { kind: 'file', mode: existing?.mode ?? options.mode ?? 0o644, uid: existing?.uid ?? 0, gid: existing?.gid ?? 0, mtime: now, data: content }, now);
  }

  mkdir(path: string, options: { parents?: boolean; mode?: number } = {}): void {
    let resolution: Resolution;
    try {
      resolution = this.resolve(path, false);
    } catch (error) {
      if (!options.parents || !(error instanceof FilesystemError) || error.code !== 'ENOENT') throw error;
      this.mkdir(parentPath(path), options);
      resolution = this.resolve(path, false);
    }
    if (resolution.located !== undefined) {
      if (options.parents && this.stat(path)?.kind === 'directory') return;
      throw new FilesystemError('EEXIST', path);
    }
    this.assertWritable(resolution.path, path);
    const now = this.clock();
    this.putEntry(resolution.path, { kind: 'directory', mode: options.mode ?? 0o755, uid: 0, gid: 0, mtime: now }, now);
  }

  list(path: string): string[] {
    const { located } = this.resolve(path, true);
    if (located === undefined) throw new FilesystemError('ENOENT', path);
    if (located.entry.kind !== 'directory') throw new FilesystemError('ENOTDIR', path);
    return this.merged.list(located);
  }

  remove(path: string, options: { recursive?: boolean; force?: boolean } = {}): void {
    let resolution: Resolution;
    try {
      resolution = this.resolve(path, false);
    } catch (error) {
      if (options.force && error instanceof FilesystemError && error.code === 'ENOENT') return;
      throw error;
    }
    const { path: physical, located } = resolution;
    if (located === undefined) {
      if (options.force) return;
      throw new FilesystemError('ENOENT', path);
    }
    if (this.isBusy(physical)) throw new MountPointBusyError(path);
    if (located.entry.kind === 'directory' && !options.recursive && this.merged.list(located).length > 0) throw new FilesystemError('ENOTEMPTY', path);
    this.assertWritable(physical, path);
    this.removeEntry(physical);
  }

  symlink(target: string, path: string): void {
    const { path: physical, located } = this.resolve(path, false);
    if (located !== undefined) throw new FilesystemError('EEXIST', path);
    this.assertWritable(physical, path);
    const now = this.clock();
    this.putEntry(physical, { kind: 'symlink', mode: 0o777, uid: 0, gid: 0, mtime: now, target }, now);
  }

  // --- changes to the writable layer, by physical path (no permission checks) ----------------

  /**
   * Puts an entry at a physical path whose parent directory exists. A directory over a directory
   * only takes the new metadata (the contents merge, as when a tar is extracted over it); a new one
   * is opaque when it replaces something of the image's. A new entry moves its directory's mtime to
   * `now`, the time of the whole operation.
   */
  putEntry(path: string, entry: FileEntry | SymlinkEntry | Omit<DirectoryEntry, 'opaque'>, now = this.clock()): void {
    const existing = this.merged.lookup(path);
    const volume = this.volumes.holding(path);
    if (volume !== undefined) {
      if (volume.readOnly) throw new ReadOnlyVolumeError(path);
      // a mount point takes only what it holds: a directory, or the file of a file mount
      if (path === volume.destination && entry.kind !== (volume.tree.get('/')?.kind ?? 'directory')) throw new MountPointBusyError(path);
      volume.tree.set(treePath(volume, path), entry.kind === 'directory' ? { ...entry, opaque: false } : entry);
      if (existing === undefined) this.touchDirectory(parentPath(path), now);
      return;
    }
    this.putLayerEntry(path, entry, now);
  }

  /** {@link putEntry} into the writable layer. */
  private putLayerEntry(path: string, entry: FileEntry | SymlinkEntry | Omit<DirectoryEntry, 'opaque'>, now: Date): void {
    const existing = this.rootfs.lookup(path);
    this.copyUpParents(path);
    if (entry.kind === 'directory') {
      const upperEntry = this.upper.get(path);
      const opaque = existing?.entry.kind === 'directory' ? upperEntry?.kind === 'directory' && upperEntry.opaque : this.visibleBelow(path);
      this.upper.set(path, { ...entry, opaque });
    } else this.upper.set(path, entry);
    if (existing === undefined) this.touchDirectory(parentPath(path), now);
  }

  /** Removes what is at a physical path, and all under it: a whiteout where the image shows something. */
  removeEntry(path: string, now = this.clock()): void {
    if (this.isBusy(path)) throw new MountPointBusyError(path);
    const volume = this.volumes.holding(path);
    if (volume !== undefined) {
      if (volume.readOnly) throw new ReadOnlyVolumeError(path);
      volume.tree.deleteTree(treePath(volume, path));
      this.touchDirectory(parentPath(path), now);
      return;
    }
    this.copyUpParents(path);
    if (this.visibleBelow(path)) this.upper.set(path, WHITEOUT);
    else this.upper.deleteTree(path);
    this.touchDirectory(parentPath(path), now);
  }

  /** The parents of `path` as explicit entries of the writable layer (overlayfs's copy-up), but `/` and the mount points. */
  private copyUpParents(path: string): void {
    let located: Located = this.rootfs.root();
    const parts = pathParts(path);
    for (const name of parts.slice(0, -1)) {
      const next = this.rootfs.child(located, name);
      const entry = next?.entry;
      if (next === undefined || entry?.kind !== 'directory') throw new FilesystemError('ENOENT', path);
      located = next;
      if (!isMountPoint(next.path) && this.upper.get(next.path) === undefined) this.upper.set(next.path, { ...entry, opaque: false });
    }
  }

  /** A directory's mtime moves when an entry is made or removed in it. */
  private touchDirectory(path: string, now: Date): void {
    const volume = this.volumes.holding(path);
    const [layer, key] = volume === undefined ? [this.upper, path] : [volume.tree, treePath(volume, path)];
    const entry = layer.get(key);
    if (entry?.kind === 'directory') layer.set(key, { ...entry, mtime: now });
  }

  /** `/`, the system mount points and the volumes' mount points cannot be removed or replaced. */
  private isBusy(path: string): boolean {
    return path === '/' || isMountPoint(path) || this.volumes.isMountPoint(path);
  }

  /** Whether the layers under the writable one show something at `path`, given what the writable layer hides above it. */
  private visibleBelow(path: string): boolean {
    const parent = this.rootfs.lookup(parentPath(path));
    if (parent === undefined) return false;
    const below = parent.layers.filter((layer) => layer !== this.upper);
    return this.rootfs.child({ ...parent, layers: below }, baseName(path)) !== undefined;
  }

  private assertWritable(physical: string, path: string): void {
    const volume = this.volumes.holding(physical);
    if (volume?.readOnly) throw new ReadOnlyVolumeError(path);
    if (volume === undefined && this.readOnly && !isUnderMountPoint(physical)) throw new FilesystemError('EROFS', path);
  }

  /**
   * Whether a tar may be unpacked into the directory at `physical`, decided as dockerd decides it,
   * by the destination alone: in a volume by that mount, elsewhere by the rootfs.
   */
  assertExtractable(physical: string, path: string): void {
    const volume = this.volumes.holding(physical);
    if (volume?.readOnly) throw new ReadOnlyVolumeError(path);
    if (volume === undefined && this.readOnly) throw new FilesystemError('EROFS', path);
  }

  // --- volumes ---------------------------------------------------------------------------------

  /** The volumes' mount points (and their missing parents) as directories of the rootfs: dockerd makes them as the container starts. */
  createMountPoints(): void {
    const now = this.clock();
    for (const { destination } of this.volumes.mounts) {
      let located: Located = this.rootfs.root();
      for (const name of pathParts(destination)) {
        const path = childPath(located.path, name);
        if (this.rootfs.child(located, name) === undefined) this.putLayerEntry(path, { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: now }, now);
        const next = this.rootfs.child(located, name);
        // something else than a directory in the way: dockerd fails the start; here the mount stays unreachable
        if (next?.entry.kind !== 'directory') break;
        located = next;
      }
    }
  }

  /**
   * Mounts a file of its own at `destination` (a file of the rootfs): processes and the archive
   * endpoints read and write it there, while the docker views of the layers keep the rootfs's file,
   * as with dockerd's bind mounts of a container's hosts, hostname and resolv.conf.
   */
  mountFile(destination: string, data: Buffer, now = this.clock()): void {
    const tree = new LayerIndex();
    tree.set('/', { kind: 'file', mode: 0o644, uid: 0, gid: 0, mtime: now, data });
    this.volumes.mount({ destination, tree, readOnly: false });
  }

  /**
   * Fills the empty volume mounted at `destination` with what the layers hold there, the directory's
   * own mode and owner included: dockerd does so as the container is created, unless the mount says
   * nocopy. A volume that holds anything keeps it as it is.
   */
  populateVolume(destination: string): void {
    const volume = this.volumes.holding(destination);
    if (volume?.destination !== destination || volume.tree.hasChildren('/')) return;
    const top = this.rootfs.lookup(destination);
    if (top?.entry.kind !== 'directory') return;
    walkMerged(this.rootfs, top, ({ entry }, relative) => {
      volume.tree.set(relative === '' ? '/' : `/${relative}`, entry.kind === 'directory' ? { ...entry, opaque: false } : entry);
    });
  }

  // --- resolution -----------------------------------------------------------------------------

  private resolve(path: string, followLast: boolean): Resolution {
    return resolvePath(this.merged, path, { followLast });
  }

  private tryResolve(path: string, followLast: boolean): Located | undefined {
    try {
      return this.resolve(path, followLast).located;
    } catch (error) {
      if (error instanceof FilesystemError) return undefined;
      throw error;
    }
  }

  private describe(located: Located | undefined): EntryStat | undefined {
    return located === undefined ? undefined : describeEntry(baseName(located.path), located.entry);
  }

  // --- the docker views -----------------------------------------------------------------------

  /** `GET /containers/{id}/changes` */
  changes(): FilesystemChange[] {
    return diffAgainstImage(this.baseline, this.rootfs, this.upper);
  }

  /** `GET /containers/{id}/export`: the merged filesystem as one tar */
  exportTar(): Promise<Buffer> {
    return exportFilesystem(this.rootfs);
  }

  /** `HEAD /containers/{id}/archive` */
  statPath(path: string): PathStat {
    return statContainerPath(this.merged, path);
  }

  /** `GET /containers/{id}/archive` */
  archivePath(path: string): Promise<PathArchive> {
    return archiveContainerPath(this.merged, path);
  }

  /** `POST /containers/{id}/copy` */
  copyResource(resource: string): Promise<Buffer> {
    return archiveResource(this.merged, resource);
  }

  /** `PUT /containers/{id}/archive` */
  extractArchive(path: string, archive: Buffer, options: ExtractOptions = {}): Promise<void> {
    return extractToContainerDirectory(this, path, archive, options);
  }

  /** The writable layer as a new image layer (`POST /commit`), without what lies under the mount points. */
  commitLayer(): Layer {
    const index = this.upper.clone();
    for (const mountPoint of MOUNT_POINTS) {
      if (index.get(mountPoint) === undefined) index.deleteTree(mountPoint);
      else index.removeBelow(mountPoint);
    }
    return new Layer(index);
  }

  size(): FilesystemSize {
    let rw = 0;
    const visit = (directory: string) => {
      for (const name of this.upper.childNames(directory)) {
        const path = directory === '/' ? `/${name}` : `${directory}/${name}`;
        if (isUnderMountPoint(path)) continue;
        const entry = this.upper.get(path);
        if (entry !== undefined) rw += entrySize(entry);
        visit(path);
      }
    };
    visit('/');
    return { rw, rootFs: this.image.size + rw };
  }
}
