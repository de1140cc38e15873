/**
 * The build context: the files a build may copy from, read from the request's tar (plain or
 * compressed). Paths inside it are resolved as dockerd resolves them, in the context's scope: a
 * leading `/` or `./` means the context's root, symlinks are followed without leaving it, and a
 * path that climbs out with `..` is refused. A build from a remote build file has no context.
 */
import { layerFromTar } from '../filesystem/layer-tar.ts';
import { joinParts, pathParts } from '../filesystem/layer-paths.ts';
import type { Located } from '../filesystem/layer-index.ts';
import { MergedView } from '../filesystem/merged-view.ts';
import { resolvePath } from '../filesystem/path-resolution.ts';
import { EngineError } from '../model/common/errors.ts';
import { decompress } from '../filesystem/archive-decompression.ts';

/** A source path that leads out of the context (dockerd's words, with its empty second part). */
export class OutsideContextError extends EngineError {
  override name = 'OutsideContextError';
  constructor(path: string) {
    super(`forbidden path outside the build context: ${path} ()`);
  }
}

export class BuildContext {
  /** paths taken out of the context (the build file and `.dockerignore`, when `.dockerignore` says so) */
  private readonly excluded = new Set<string>();

  private constructor(private readonly view: MergedView | undefined) {}

  /**
   * The context of a tar, plain or compressed with gzip, bzip2 or xz; one that cannot be read fails
   * with Go's words: a header that is no tar header, else a stream that ends too soon.
   */
  static async fromArchive(archive: Buffer): Promise<BuildContext> {
    try {
      const layer = await layerFromTar(await decompress(archive));
      return new BuildContext(new MergedView([layer]));
    } catch (error) {
      throw new EngineError(/invalid tar header/i.test((error as Error).message) ? 'archive/tar: invalid tar header' : 'unexpected EOF');
    }
  }

  /** No context at all: a build of a single remote build file. */
  static none(): BuildContext {
    return new BuildContext(undefined);
  }

  get present(): boolean {
    return this.view !== undefined;
  }

  /**
   * What a context path leads to, symlinks followed within the context; undefined when nothing is
   * there (or it was excluded). The path is relative to the context's root whatever its form.
   * @throws OutsideContextError for a path that climbs out with `..`
   */
  locate(path: string): Located | undefined {
    if (this.view === undefined) return undefined;
    if (climbsOut(path)) throw new OutsideContextError(path);
    try {
      const { located } = resolvePath(this.view, `/${path}`, { followLast: true, lenient: true });
      return located === undefined || this.excluded.has(located.path) ? undefined : located;
    } catch {
      return undefined;
    }
  }

  /** A file's bytes, or undefined when the path holds no file. */
  readFile(path: string): Buffer | undefined {
    const entry = this.locate(path)?.entry;
    return entry?.kind === 'file' ? entry.data : undefined;
  }

  /** Every entry under `top` (itself first), depth first, names bytewise, with its path relative to `top`. */
  walk(top: Located, visit: (located: Located, relative: string) => void): void {
    const view = this.view;
    if (view === undefined) return;
    const walk = (located: Located, relative: string) => {
      if (this.excluded.has(located.path)) return;
      visit(located, relative);
      for (const name of view.list(located)) {
        walk(view.child(located, name) as Located, relative === '' ? name : `${relative}/${name}`);
      }
    };
    walk(top, '');
  }

  /** The context's root directory (undefined without a context). */
  root(): Located | undefined {
    return this.view?.root();
  }

  /** Takes a path out of the context, as dockerd removes the files `.dockerignore` names from it. */
  exclude(path: string): void {
    this.excluded.add(joinParts(pathParts(path)));
  }
}

/** Whether a relative path, read lexically, leads above its root. */
function climbsOut(path: string): boolean {
  let depth = 0;
  for (const part of pathParts(path)) {
    if (part === '..') depth -= 1;
    else if (part !== '.') depth += 1;
    if (depth < 0) return true;
  }
  return false;
}
