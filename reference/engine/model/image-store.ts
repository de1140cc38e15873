/**
 * The images the engine holds, found the ways the engine finds them: `sha256:` id, name with
 * optional tag, or a unique prefix of the id.
 */
import { busyboxImage } from './busybox-image.ts';
import { NotFoundError } from './errors.ts';
import { findByIdPrefix } from './id-prefix.ts';
import { hexOfImageId, type Image } from './image.ts';
import { familiarString, parseImageReference } from './image-reference.ts';
import { matchesLabels } from './label-match.ts';

export interface ImageListOptions {
  /** true: only images without a tag; false: only tagged ones; absent: both */
  dangling?: boolean;
  /** label filter entries, `key` or `key=value`, all of which must hold */
  label?: string[];
  /** name patterns (`*` and `?` globs) one of which a tag or its repository must match */
  reference?: string[];
}

export class ImageStore {
  private readonly images = new Map<string, Image>();

  constructor() {
    this.reset();
  }

  /** Back to the seeded state: the synthetic busybox only. */
  reset(): void {
    this.images.clear();
    const busybox = busyboxImage();
    this.images.set(busybox.id, busybox);
  }

  get count(): number {
    return this.images.size;
  }

  /** Throws NotFoundError naming the reference as the engine spells it (`busybox:latest` for `busybox`). */
  find(reference: string): Image {
    const image = this.lookup(reference);
    if (image) return image;
    const parsed = parseImageReference(reference);
    throw new NotFoundError(`No such image: ${parsed ? familiarString(parsed) : reference}`);
  }

  private lookup(text: string): Image | undefined {
    if (/^sha256:[0-9a-f]{64}$/.test(text)) return this.images.get(text);
    const reference = parseImageReference(text);
    if (reference) {
      const byName = this.byName(familiarString(reference));
      if (byName) return byName;
    }
    return findByIdPrefix(this.images.values(), (image) => hexOfImageId(image.id), hexOfImageId(text));
  }

  private byName(name: string): Image | undefined {
    for (const image of this.images.values()) {
      if (image.repoTags.includes(name) || image.repoDigests.includes(name)) return image;
    }
    return undefined;
  }

  /** Newest first, as the engine lists them. */
  list(options: ImageListOptions = {}): Image[] {
    const patterns = options.reference?.map(globPattern);
    return [...this.images.values()]
      .filter((image) => options.dangling === undefined || (image.repoTags.length === 0) === options.dangling)
      .filter((image) => options.label === undefined || matchesLabels(image.config.Labels, options.label))
      .filter((image) => patterns === undefined || image.repoTags.some((tag) => patterns.some((pattern) => matchesName(pattern, tag))))
      .sort((a, b) => b.created.getTime() - a.created.getTime());
  }
}

/** A tag matches a pattern as a whole (`busybox:*`) or by its repository alone (`busy*`). */
function matchesName(pattern: RegExp, tag: string): boolean {
  return pattern.test(tag) || pattern.test(tag.slice(0, tag.lastIndexOf(':')));
}

/** Go's path.Match globs as the engine uses them for names: `*` and `?` never cross a `/`. */
function globPattern(glob: string): RegExp {
  const body = [...glob].map((char) => (char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`);
}
