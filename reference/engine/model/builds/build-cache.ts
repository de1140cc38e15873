/**
 * The classic builder's layer cache (daemon/images/cache.go, image/cache/compare.go): a step may
 * reuse an image whose parent is the current image and whose container config matches the step's —
 * same command (the instruction, or its `#(nop)` comment, which for COPY and ADD carries the hash of
 * what they copy), environment, labels, ports, entrypoint, volumes and user — the newest one if
 * several do. FROM scratch looks among the images without a parent. After the first miss nothing
 * more is probed in the stage: every later step builds anew, as on dockerd. With `cachefrom`
 * (image/cache/cache.go), only those images and their ancestors may be reused; the reference does
 * not restore a cache image from the history of one without its parent chain (a pulled image).
 */
import { NotFoundError } from '../common/errors.ts';
import type { ImageStore } from '../images/image-store.ts';
import type { Image, ImageConfig } from '../images/image.ts';

export class BuildCache {
  private busted = false;

  /**
   * @param enabled false for `nocache`: every probe misses
   * @param sources the images `cachefrom` named (those the engine has): only they and their ancestors are reused; undefined: any image
   */
  constructor(
    private readonly images: ImageStore,
    private readonly enabled: boolean,
    private readonly sources?: readonly Image[],
  ) {}

  /** A new stage probes again. */
  reset(): void {
    this.busted = false;
  }

  /** The image to reuse for a step on `parentId` ('' for scratch) with `config`, if any. */
  probe(parentId: string, config: ImageConfig): Image | undefined {
    if (!this.enabled || this.busted) return undefined;
    const parent = parentId === '' ? undefined : this.images.byId(parentId);
    const siblings = parent === undefined ? this.images.list({ all: true }).filter((image) => image.parent === '') : this.images.children(parent);
    let match: Image | undefined;
    for (const image of siblings) {
      if (!this.fromSources(image)) continue;
      if (sameStep(image.containerConfig, config) && (match === undefined || match.created.getTime() < image.created.getTime())) match = image;
    }
    if (match === undefined) this.busted = true;
    return match;
  }

  /** Without `cachefrom` every image; with it, one of its images or an ancestor of one. */
  private fromSources(image: Image): boolean {
    if (this.sources === undefined) return true;
    return this.sources.some((source) => {
      for (let current: Image | undefined = source; current !== undefined; current = current.parent === '' ? undefined : this.images.byId(current.parent)) {
        if (current.id === image.id) return true;
      }
      return false;
    });
  }
}

/** The images `cachefrom` names that the engine has; dockerd skips the others with a warning in its log. */
export function cacheSources(images: ImageStore, references: readonly string[]): Image[] {
  return references.flatMap((reference) => {
    try {
      return [images.find(reference)];
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  });
}

/** dockerd's compare(): Hostname, Image and WorkingDir do not count; OpenStdin never matches. */
function sameStep(a: ImageConfig, b: ImageConfig): boolean {
  if (a.OpenStdin || b.OpenStdin) return false;
  if (a.AttachStdout !== b.AttachStdout || a.AttachStderr !== b.AttachStderr || a.User !== b.User || a.Tty !== b.Tty) return false;
  return (
    sameList(a.Cmd, b.Cmd) &&
    sameList(a.Env, b.Env) &&
    sameList(a.Entrypoint, b.Entrypoint) &&
    sameMap(a.Labels, b.Labels, (x, y) => x === y) &&
    sameMap(a.ExposedPorts, b.ExposedPorts, () => true) &&
    sameMap(a.Volumes, b.Volumes, () => true)
  );
}

function sameList(a: readonly string[] | null, b: readonly string[] | null): boolean {
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((item, index) => item === right[index]);
}

function sameMap<T>(a: Record<string, T> | null, b: Record<string, T> | null, sameValue: (x: T, y: T) => boolean): boolean {
  const left = Object.entries(a ?? {});
  const right = b ?? {};
  return left.length === Object.keys(right).length && left.every(([key, value]) => key in right && sameValue(value, right[key] as T));
}
