/**
 * Errors beyond the port's FilesystemError codes. Each extends FilesystemError with the nearest code
 * the port has (its code set is closed: the process interpreter maps every code to a strerror text),
 * and says precisely what happened in its own class and fields.
 */
import { FilesystemError } from './container-filesystem.ts';

/** Too many symlinks followed (ELOOP): a loop, or a chain longer than {@link MAX_SYMLINKS}. */
export class SymlinkLoopError extends FilesystemError {
  readonly errno = 'ELOOP';
  constructor(path: string) {
    super('ENOENT', path);
    this.message = `ELOOP: too many levels of symbolic links: ${path}`;
    this.name = 'SymlinkLoopError';
  }
}

/** Linux's MAXSYMLINKS: how many symlinks one path resolution may follow. */
export const MAX_SYMLINKS = 40;

/** Removing `/` or a mount point (/proc, /sys, /dev): EBUSY on Linux. */
export class MountPointBusyError extends FilesystemError {
  readonly errno = 'EBUSY';
  constructor(path: string) {
    super('EROFS', path);
    this.message = `EBUSY: device or resource busy: ${path}`;
    this.name = 'MountPointBusyError';
  }
}

/** A change under a volume mounted read-only (EROFS): dockerd's "mounted volume is marked read-only" for an archive there. */
export class ReadOnlyVolumeError extends FilesystemError {
  constructor(path: string) {
    super('EROFS', path);
    this.name = 'ReadOnlyVolumeError';
  }
}

/**
 * An archive extraction with noOverwriteDirNonDir that would replace a directory by a non-directory
 * or the reverse (dockerd: "cannot overwrite directory … with non-directory …"; HTTP 400).
 */
export class OverwriteRefusedError extends FilesystemError {
  constructor(
    path: string,
    /** what is there now */
    readonly existing: 'directory' | 'non-directory',
  ) {
    super('EEXIST', path);
    this.message = existing === 'directory' ? `cannot overwrite directory "${path}" with non-directory` : `cannot overwrite non-directory "${path}" with directory`;
    this.name = 'OverwriteRefusedError';
  }
}

/**
 * A tar that could not be unpacked: not a tar, or a member that cannot be made where it goes (dockerd:
 * "Error processing tar file(exit status 1): …"; HTTP 500). The members before it stay unpacked.
 */
export class ArchiveUnpackError extends Error {
  constructor(cause: unknown) {
    super(`Error processing tar file(exit status 1): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ArchiveUnpackError';
  }
}

/**
 * An archive member that would land outside the extraction directory, in dockerd's words (its
 * breakoutError inside the unpacking child: `"../x" is outside of "/tmp"`, HTTP 500; the reference answers 400).
 */
export class ArchiveBreakoutError extends ArchiveUnpackError {
  constructor(
    readonly member: string,
    /** the extraction directory as the client named it */
    destination: string,
  ) {
    super(new Error(`${JSON.stringify(member)} is outside of ${JSON.stringify(destination)}`));
    this.name = 'ArchiveBreakoutError';
  }
}

/** A body that is no tar at all (the client's mistake, unlike a member that cannot be made): nothing is unpacked. */
export class UnreadableArchiveError extends ArchiveUnpackError {
  constructor(cause: unknown) {
    super(cause);
    this.name = 'UnreadableArchiveError';
  }
}
