/**
 * The entries of one layer by path, plus which names each directory holds, so that a directory's
 * listing and a subtree's removal never scan the whole layer. Mutable: the writable layer and the tar
 * reader build on it; a {@link Layer} wraps a finished one and never changes it again.
 */
import type { LayerEntry, VisibleEntry } from './layer-entry.ts';
import { childPath, compareBytewise, parentPath } from './layer-paths.ts';

/** What the merged view asks of a layer, whether frozen or writable. */
export interface LayerView {
  get(path: string): LayerEntry | undefined;
  /** names directly under `directory` this layer says anything about (entries, whiteouts, implicit directories), sorted bytewise */
  childNames(directory: string): readonly string[];
  /** whether the layer holds anything under `directory`; a directory it holds only so is implicit */
  hasChildren(directory: string): boolean;
}

export class LayerIndex implements LayerView {
  private readonly entries = new Map<string, LayerEntry>();
  private readonly children = new Map<string, Set<string>>();

  get(path: string): LayerEntry | undefined {
    return this.entries.get(path);
  }

  childNames(directory: string): readonly string[] {
    const names = this.children.get(directory);
    return names === undefined ? [] : [...names].sort(compareBytewise);
  }

  hasChildren(directory: string): boolean {
    return (this.children.get(directory)?.size ?? 0) > 0;
  }

  /** every explicit entry, in no particular order */
  values(): IterableIterator<LayerEntry> {
    return this.entries.values();
  }

  /** Puts `entry` at `path`. Anything but a directory cannot have contents, so what the layer held under `path` goes. */
  set(path: string, entry: LayerEntry): void {
    if (entry.kind !== 'directory') this.removeBelow(path);
    this.entries.set(path, entry);
    this.register(path);
  }

  /** Forgets `path` and everything under it; parents held only implicitly go too once empty. */
  deleteTree(path: string): void {
    this.removeBelow(path);
    this.entries.delete(path);
    this.unregister(path);
  }

  removeBelow(path: string): void {
    const names = this.children.get(path);
    if (names === undefined) return;
    this.children.delete(path);
    for (const name of names) {
      const child = childPath(path, name);
      this.removeBelow(child);
      this.entries.delete(child);
    }
  }

  /** Every path with an explicit entry, parents before children, siblings bytewise: the order of a layer tar. */
  paths(): string[] {
    const out: string[] = [];
    const visit = (directory: string) => {
      for (const name of this.childNames(directory)) {
        const path = childPath(directory, name);
        if (this.entries.has(path)) out.push(path);
        visit(path);
      }
    };
    if (this.entries.has('/')) out.push('/');
    visit('/');
    return out;
  }

  clone(): LayerIndex {
    const copy = new LayerIndex();
    for (const [path, entry] of this.entries) copy.entries.set(path, entry);
    for (const [directory, names] of this.children) copy.children.set(directory, new Set(names));
    return copy;
  }

  private register(path: string): void {
    for (let child = path; child !== '/'; ) {
      const parent = parentPath(child);
      const name = child.slice(parent === '/' ? 1 : parent.length + 1);
      let names = this.children.get(parent);
      if (names === undefined) this.children.set(parent, (names = new Set()));
      else if (names.has(name)) return;
      names.add(name);
      child = parent;
    }
  }

  private unregister(path: string): void {
    for (let child = path; child !== '/'; ) {
      if (this.entries.has(child) || this.hasChildren(child)) return;
      const parent = parentPath(child);
      const names = this.children.get(parent);
      if (names === undefined) return;
      names.delete(child.slice(parent === '/' ? 1 : parent.length + 1));
      if (names.size === 0) this.children.delete(parent);
      child = parent;
    }
  }
}

/** A path of a merged view and what shows there. */
export interface Located {
  readonly path: string;
  readonly entry: VisibleEntry;
  /** for a directory, the layers (top first) whose contents under it show */
  readonly layers: readonly LayerView[];
}
