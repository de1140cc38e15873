/**
 * A read-only layer: an image's layer, or a container's writable layer once committed. Immutable, so
 * any number of containers stack on the same instance without copying it.
 */
import { entrySize, type LayerEntry } from './layer-entry.ts';
import { LayerIndex, type LayerView } from './layer-index.ts';
import { layerPathOfMember } from './layer-paths.ts';

export interface LayerOptions {
  /**
   * The size the layer reports, when it stands for more bytes than it holds (the synthetic busybox
   * layer stands for the real binary). Default: its content bytes, counted as dockerd does.
   */
  size?: number;
}

export class Layer implements LayerView {
  static readonly EMPTY = new Layer([]);

  private readonly index: LayerIndex;
  /** bytes of file content and symlink targets (dockerd's `directory.Size`), or the declared size */
  readonly size: number;

  /**
   * From entries (later ones for the same path win, as in a tar), or from an index the layer takes
   * over: whoever hands one over must not change it any more.
   */
  constructor(source: Iterable<readonly [string, LayerEntry]> | LayerIndex, options: LayerOptions = {}) {
    if (source instanceof LayerIndex) this.index = source;
    else {
      this.index = new LayerIndex();
      for (const [path, entry] of source) this.index.set(layerPathOfMember(path), entry);
    }
    this.size = options.size ?? contentSize(this.index);
  }

  get(path: string): LayerEntry | undefined {
    return this.index.get(path);
  }

  childNames(directory: string): readonly string[] {
    return this.index.childNames(directory);
  }

  hasChildren(directory: string): boolean {
    return this.index.hasChildren(directory);
  }

  /** Every explicit entry, parents first, siblings bytewise. */
  entries(): Array<[string, LayerEntry]> {
    return this.index.paths().map((path) => [path, this.index.get(path) as LayerEntry]);
  }
}

function contentSize(index: LayerIndex): number {
  let size = 0;
  for (const entry of index.values()) size += entrySize(entry);
  return size;
}
