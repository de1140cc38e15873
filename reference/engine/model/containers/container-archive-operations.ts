/**
 * A container's files as tars (spec/1 §4.1 archive, export and copy rows): the stat of a path, the
 * path as a tar, a tar unpacked into a directory, the whole filesystem, and the old copy of a
 * resource. The container's filesystem does the work (reference/engine/filesystem/container-archive.ts);
 * this states its refusals as the model's errors, worded as dockerd words them, and publishes the
 * events dockerd publishes (none for a stat).
 */
import { FilesystemError } from '../../filesystem/container-filesystem.ts';
import type { ExtractOptions, PathArchive, PathStat } from '../../filesystem/container-archive.ts';
import { ArchiveBreakoutError, OverwriteRefusedError, ReadOnlyVolumeError, SymlinkLoopError, UnreadableArchiveError } from '../../filesystem/filesystem-errors.ts';
import type { Container } from './container.ts';
import type { ContainerEvents } from './container-events.ts';
import { ForbiddenError, InvalidParameterError, NotFoundError } from '../common/errors.ts';

export class ContainerArchiveOperations {
  constructor(private readonly events: ContainerEvents) {}

  /** `path` is taken from the container's root; a trailing `/` or `/.` asserts a directory. */
  statPath(container: Container, path: string): Promise<PathStat> {
    return refusing(container, path, () => container.filesystem.statPath(path));
  }

  async archivePath(container: Container, path: string): Promise<PathArchive> {
    const archive = await refusing(container, path, () => container.filesystem.archivePath(path));
    this.events.publish(container, 'archive-path');
    return archive;
  }

  /** Unpacks `archive` (a tar, plain or gzipped) into the existing directory `path`. */
  async extractArchive(container: Container, path: string, archive: Buffer, options: ExtractOptions): Promise<void> {
    await refusing(container, path, () => container.filesystem.extractArchive(path, archive, options), 'extraction point is not a directory');
    this.events.publish(container, 'extract-to-dir');
  }

  async export(container: Container): Promise<Buffer> {
    const archive = await container.filesystem.exportTar();
    this.events.publish(container, 'export');
    return archive;
  }

  /** The old copy: `resource` with every symlink followed, as a tar. */
  async copy(container: Container, resource: string): Promise<Buffer> {
    const archive = await refusing(container, resource, () => container.filesystem.copyResource(resource));
    this.events.publish(container, 'copy');
    return archive;
  }
}

/**
 * Runs a filesystem operation on `path`, its refusals as the model's errors: nothing there is not
 * found, a non-directory where a directory is needed a bad parameter, a read-only rootfs or volume forbidden,
 * a refused overwrite, a body that is no tar or a member climbing out a bad parameter. Anything else (a symlink loop, a
 * member that cannot be unpacked) stays what it is: a server error.
 */
async function refusing<T>(container: Container, path: string, operation: () => T | Promise<T>, notDirectory = `lstat ${path}: not a directory`): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw engineError(error, container, path, notDirectory);
  }
}

function engineError(error: unknown, container: Container, path: string, notDirectory: string): unknown {
  if (error instanceof OverwriteRefusedError) return new InvalidParameterError(error.message);
  // a body that is no tar: the client's mistake, 400 (spec/1 §4.1 lists it for the upload; dockerd answers 500)
  if (error instanceof UnreadableArchiveError) return new InvalidParameterError(error.message);
  // a member that climbs out of the destination: the client's too (dockerd's breakoutError is a 500)
  if (error instanceof ArchiveBreakoutError) return new InvalidParameterError(error.message);
  if (error instanceof ReadOnlyVolumeError) return new ForbiddenError('mounted volume is marked read-only');
  if (!(error instanceof FilesystemError) || error instanceof SymlinkLoopError) return error;
  switch (error.code) {
    case 'ENOENT':
      return new NotFoundError(`Could not find the file ${path} in container ${container.name.replace(/^\//, '')}`);
    case 'ENOTDIR':
      return new InvalidParameterError(notDirectory);
    case 'EROFS':
      return new ForbiddenError('container rootfs is marked read-only');
    default:
      return error;
  }
}
