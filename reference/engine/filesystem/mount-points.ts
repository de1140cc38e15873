/**
 * /proc, /sys and /dev: in a real container these are mounts (procfs, sysfs, a tmpfs), not part of
 * the container's layers. So here they always exist as directories (from {@link INIT_LAYER}, under
 * the image, as docker's init layer provides them), processes may use what lies under them (`>
 * /dev/null`) even on a read-only rootfs, and everything dockerd reads from the layers — changes,
 * commit, export, archive, sizes — sees them as empty directories.
 */
import { EPOCH, type LayerEntry } from './layer-entry.ts';
import { isInside } from './layer-paths.ts';
import { Layer } from './layer.ts';

export const MOUNT_POINTS = ['/dev', '/proc', '/sys'] as const;

export function isMountPoint(path: string): boolean {
  return (MOUNT_POINTS as readonly string[]).includes(path);
}

/** Strictly under a mount point: not part of the layers as dockerd sees them. */
export function isUnderMountPoint(path: string): boolean {
  return MOUNT_POINTS.some((mountPoint) => isInside(path, mountPoint));
}

/** The mount points, for images that lack them; the image's own entries win, as it lies above. */
export const INIT_LAYER = new Layer(
  MOUNT_POINTS.map((path): [string, LayerEntry] => [path, { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: EPOCH, opaque: false }]),
);

const initFile = (): LayerEntry => ({ kind: 'file', mode: 0o755, uid: 0, gid: 0, mtime: EPOCH, data: Buffer.alloc(0) });

/**
 * What else docker's init layer gives every container: `/.dockerenv`, `/etc/mtab`, and empty
 * `/etc/hostname`, `/etc/hosts` and `/etc/resolv.conf`, over which a start mounts the container's own
 * (model/containers/container-network-files.ts). Under the image, like {@link INIT_LAYER}: an image's own
 * /etc/hosts shows until the first start (dockerd's init layer lies above the image and hides it).
 */
export const CONTAINER_INIT_FILES = new Layer([
  ['/.dockerenv', initFile()],
  ['/etc', { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: EPOCH, opaque: false }],
  ['/etc/hostname', initFile()],
  ['/etc/hosts', initFile()],
  ['/etc/mtab', { kind: 'symlink', mode: 0o777, uid: 0, gid: 0, mtime: EPOCH, target: '/proc/mounts' }],
  ['/etc/resolv.conf', initFile()],
]);
