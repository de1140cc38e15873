/**
 * Volumes mounted into a container's filesystem. A volume's files are a tree of their own, outside
 * the container's layers: every container that mounts it reads and writes the same tree, and the
 * docker views of the layers (changes, export, commit, sizes) never see it, as dockerd's do not.
 * What processes and the archive endpoints see passes through the mounts. A mount may also hold a
 * single file (its tree's root), as dockerd bind-mounts a container's network files.
 */
import { IMPLICIT_DIRECTORY, type VisibleEntry } from './layer-entry.ts';
import type { LayerIndex, LayerView, Located } from './layer-index.ts';
import { isInside } from './layer-paths.ts';

export interface VolumeMount {
  /** absolute, normalised path in the container */
  destination: string;
  /** the volume's files, keyed by their path from its root ('/' is the root itself) */
  tree: LayerIndex;
  readOnly: boolean;
}

/** A mounted tree as the merged view's only layer under the mount point: container paths in, tree paths out. */
class MountedLayer implements LayerView {
  constructor(private readonly mount: VolumeMount) {}

  get(path: string) {
    return this.mount.tree.get(treePath(this.mount, path));
  }

  childNames(directory: string): readonly string[] {
    return this.mount.tree.childNames(treePath(this.mount, directory));
  }

  hasChildren(directory: string): boolean {
    return this.mount.tree.hasChildren(treePath(this.mount, directory));
  }
}

/** Where a container path lies in the tree of the mount it is at or in. */
export function treePath(mount: VolumeMount, path: string): string {
  return path === mount.destination ? '/' : path.slice(mount.destination.length);
}

export class VolumeMountTable {
  private readonly byDestination = new Map<string, { mount: VolumeMount; layer: MountedLayer }>();

  constructor(mounts: readonly VolumeMount[] = []) {
    for (const mount of mounts) this.byDestination.set(mount.destination, { mount, layer: new MountedLayer(mount) });
  }

  get mounts(): VolumeMount[] {
    return [...this.byDestination.values()].map(({ mount }) => mount);
  }

  /** Mounts `mount` at its destination, in place of any mount there (dockerd rewrites a container's network files at each start). */
  mount(mount: VolumeMount): void {
    this.byDestination.set(mount.destination, { mount, layer: new MountedLayer(mount) });
  }

  /** The mount point at exactly `path`, as the merged view shows it: the tree's root (a directory, or the file a file mount holds). */
  mountPointAt(path: string): Located | undefined {
    const found = this.byDestination.get(path);
    if (found === undefined) return undefined;
    const root = found.mount.tree.get('/');
    const entry: VisibleEntry = root !== undefined && root.kind !== 'whiteout' ? root : IMPLICIT_DIRECTORY;
    return { path, entry, layers: [found.layer] };
  }

  /** The innermost mount `path` is at or in. */
  holding(path: string): VolumeMount | undefined {
    let innermost: VolumeMount | undefined;
    for (const { mount } of this.byDestination.values()) {
      const within = path === mount.destination || isInside(path, mount.destination);
      if (within && (innermost === undefined || isInside(mount.destination, innermost.destination))) innermost = mount;
    }
    return innermost;
  }

  isMountPoint(path: string): boolean {
    return this.byDestination.has(path);
  }
}
