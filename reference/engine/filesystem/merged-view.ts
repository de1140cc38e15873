/**
 * The union of a stack of layers, as overlayfs shows it: for a path, the topmost layer that says
 * anything wins; a whiteout, or anything but a directory, hides what lies below; directories merge
 * with the directories below them down to an opaque one. Physical paths only: symlinks are the
 * resolver's business (path-resolution.ts). A container's view also shows the volumes mounted in it:
 * at a mount point the volume's tree replaces whatever the layers hold there.
 */
import { IMPLICIT_DIRECTORY, type DirectoryEntry, type VisibleEntry } from './layer-entry.ts';
import type { LayerView, Located } from './layer-index.ts';
import { childPath, compareBytewise, pathParts } from './layer-paths.ts';
import type { VolumeMountTable } from './volume-mounts.ts';

export class MergedView {
  /** @param layers top first */
  constructor(
    readonly layers: readonly LayerView[],
    private readonly mounts?: VolumeMountTable,
  ) {}

  root(): Located {
    let entry: DirectoryEntry = IMPLICIT_DIRECTORY;
    for (const layer of this.layers) {
      const explicit = layer.get('/');
      if (explicit?.kind === 'directory') {
        entry = explicit;
        break;
      }
    }
    return { path: '/', entry, layers: this.layers };
  }

  child(parent: Located, name: string): Located | undefined {
    if (parent.entry.kind !== 'directory') return undefined;
    const path = childPath(parent.path, name);
    const mountPoint = this.mounts?.mountPointAt(path);
    if (mountPoint !== undefined) return mountPoint;
    let found: VisibleEntry | undefined;
    let explicitDirectory = false;
    const below: LayerView[] = [];
    for (const layer of parent.layers) {
      const entry = layer.get(path);
      if (entry === undefined) {
        // a layer holding things under the path without an entry for it holds an implicit directory
        if (layer.hasChildren(path) && found === undefined) found = IMPLICIT_DIRECTORY;
        if (layer.hasChildren(path) && found?.kind === 'directory') below.push(layer);
        continue;
      }
      if (entry.kind === 'whiteout') break;
      if (entry.kind !== 'directory') {
        found ??= entry;
        break; // a non-directory hides everything below; below a directory, it is hidden itself
      }
      if (!explicitDirectory) {
        found = entry; // the topmost explicit directory entry carries the metadata
        explicitDirectory = true;
      }
      below.push(layer);
      if (entry.opaque) break;
    }
    return found === undefined ? undefined : { path, entry: found, layers: below };
  }

  /** The entry at a physical path: no symlink along it is followed. */
  lookup(path: string): Located | undefined {
    let located: Located | undefined = this.root();
    for (const name of pathParts(path)) {
      located = this.child(located, name);
      if (located === undefined) return undefined;
    }
    return located;
  }

  /** The names a merged directory shows, bytewise. */
  list(directory: Located): string[] {
    if (directory.entry.kind !== 'directory') return [];
    const names = new Set<string>();
    for (const layer of directory.layers) for (const name of layer.childNames(directory.path)) names.add(name);
    return [...names].filter((name) => this.child(directory, name) !== undefined).sort(compareBytewise);
  }
}
