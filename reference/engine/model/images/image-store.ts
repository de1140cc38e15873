/**
 * The images the engine holds, found the ways the engine finds them (`sha256:` id, name with optional
 * tag, or a unique prefix of the id), created from a parent and a layer, adopted from a loaded config
 * document, tagged and removed.
 */
import type { Layer } from '../../filesystem/layer.ts';
import { busyboxImage } from './busybox-image.ts';
import { ENGINE_VERSION } from '../common/daemon-build.ts';
import { ConflictError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import { hostFacts } from '../common/host-facts.ts';
import { findByIdPrefix } from '../common/id-prefix.ts';
import { assembleImage } from './image-assembly.ts';
import { imageIdOf, readImageDocument, writeImageDocument, type ImageDocumentFields } from './image-document.ts';
import { ImageEvents } from './image-events.ts';
import { chainIds, diffIdOf } from './image-layer-digests.ts';
import { checkedImageReference, familiarAsGiven, familiarString, parseImageReference, qualifiedName } from './image-reference.ts';
import { removeImage, type ImageRemovalOptions, type ImageRemovalRecord, type ImageUsers, type RemovableImages } from './image-removal.ts';
import { hexOfImageId, type Image, type NewImage } from './image.ts';
import { matchesLabels } from '../common/label-match.ts';

export interface ImageStoreOptions {
  clock: () => Date;
  events: EventBus;
}

export interface ImageListOptions {
  /** intermediate images too: untagged ones that are the parent of another (default: hidden) */
  all?: boolean;
  /** true: only images without a tag; false: only tagged ones; absent: both */
  dangling?: boolean;
  /** label filter entries, `key` or `key=value`, all of which must hold */
  label?: string[];
  /** name patterns (`*` and `?` globs) one of which a tag or its repository must match */
  reference?: string[];
  /** only images created before this one */
  before?: Image;
  /** only images created after this one */
  since?: Image;
}

export class ImageStore implements RemovableImages {
  private readonly images = new Map<string, Image>();
  readonly events: ImageEvents;

  constructor(private readonly options: ImageStoreOptions) {
    this.events = new ImageEvents(options.events, options.clock);
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

  /** The image with exactly this id, if the store holds it. */
  byId(id: string): Image | undefined {
    return this.images.get(id);
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
    const { before, since } = options;
    return [...this.images.values()]
      .filter((image) => options.all || image.repoTags.length > 0 || image.repoDigests.length > 0 || this.children(image).length === 0)
      .filter((image) => options.dangling === undefined || (image.repoTags.length === 0) === options.dangling)
      .filter((image) => options.label === undefined || matchesLabels(image.config.Labels, options.label))
      .filter((image) => patterns === undefined || image.repoTags.some((tag) => patterns.some((pattern) => matchesName(pattern, tag))))
      .filter((image) => before === undefined || image.created < before.created)
      .filter((image) => since === undefined || image.created > since.created)
      .sort((a, b) => b.created.getTime() - a.created.getTime());
  }

  /**
   * The names a list shows for `image`: with a reference filter, only those that match it, as dockerd
   * lists them (the docker CLI prints a row per name, so `docker images busybox` shows no other tags).
   */
  listedNames(image: Image, reference: string[] | undefined): Pick<Image, 'repoTags' | 'repoDigests'> {
    if (reference === undefined) return image;
    const patterns = reference.map(globPattern);
    const matching = (names: string[]) => names.filter((name) => patterns.some((pattern) => matchesName(pattern, name)));
    return { repoTags: matching(image.repoTags), repoDigests: matching(image.repoDigests) };
  }

  /** The images whose parent is `image`. */
  children(image: Image): Image[] {
    return [...this.images.values()].filter((candidate) => candidate.parent === image.id);
  }

  /**
   * A new image on top of spec.parent: its layers plus spec.layer, its history plus one step. The
   * caller decides whether a step adds a layer: dockerd's commit and build leave an empty diff out
   * (an `empty_layer` step), its import keeps even an empty one. The same document twice is the
   * same image: the second create only adds its tags.
   */
  async create(spec: NewImage): Promise<Image> {
    const parent = spec.parent;
    const created = spec.created ?? this.options.clock();
    const diffIds = [...(parent?.diffIds ?? []), ...(spec.layer ? [await diffIdOf(spec.layer)] : [])];
    const fields: ImageDocumentFields = {
      architecture: parent?.architecture ?? hostFacts().goArch,
      os: parent?.os ?? 'linux',
      created,
      config: spec.config,
      containerConfig: spec.containerConfig ?? spec.config,
      container: spec.container ?? '',
      comment: spec.comment ?? '',
      author: spec.author ?? '',
      dockerVersion: ENGINE_VERSION,
      history: [
        ...(parent?.history ?? []),
        { created, createdBy: spec.createdBy, comment: spec.comment ?? '', ...(spec.author && { author: spec.author }), emptyLayer: spec.layer === undefined },
      ],
      diffIds,
    };
    const layers = [...(parent?.layers.layers ?? []), ...(spec.layer ? [spec.layer] : [])];
    return this.register(assembleImage(writeImageDocument(fields), fields, layers, parent?.id ?? ''), spec.tags ?? []);
  }

  /**
   * An image from a config document kept byte for byte (a load), so its id survives a save and a
   * load. Its diff ids are the document's.
   * @param layers the image's layers, bottom first, one per diff id
   */
  async adopt(document: Buffer, layers: Layer[], repoTags: string[], parent = ''): Promise<Image> {
    const fields = readImageDocument(document);
    if (fields.diffIds.length !== layers.length) {
      throw new InvalidParameterError(`image ${imageIdOf(document)} lists ${fields.diffIds.length} layers, ${layers.length} given`);
    }
    return this.register(assembleImage(document, fields, layers, parent), repoTags);
  }

  private register(image: Image, tags: string[]): Image {
    const kept = this.images.get(image.id) ?? image;
    this.images.set(kept.id, kept);
    for (const tag of tags) this.tag(kept, tag);
    return kept;
  }

  /**
   * Names the image `name` (`repo:tag`, `repo` for `repo:latest`, or `repo@digest`), taking the name
   * off whichever image had it — unless `force` is false, which makes that a ConflictError (the rule
   * up to API 1.23). Publishes `tag`, named as given.
   */
  tag(image: Image, name: string, options: { force: boolean } = { force: true }): void {
    const reference = checkedImageReference(name);
    const familiar = familiarString(reference);
    const holder = this.byName(familiar);
    if (!options.force && holder !== undefined && holder !== image) {
      throw new ConflictError(`Conflict: Tag ${familiar} is already set to image ${holder.id}, if you want to replace it, please use -f option`);
    }
    if (holder !== undefined && holder !== image) removeName(holder, familiar);
    const names = reference.digest === undefined ? image.repoTags : image.repoDigests;
    if (!names.includes(familiar)) {
      names.push(familiar);
      names.sort((a, b) => compareStrings(qualifiedName(a), qualifiedName(b)));
    }
    image.lastTagTime = this.options.clock();
    this.events.publish(image, 'tag', familiarAsGiven(reference));
  }

  /** Takes one name off the image, without an event: removal decides which events a removal publishes. */
  untag(image: Image, name: string): void {
    removeName(image, name);
  }

  /**
   * Forgets the image; answers the chain ids of the layers it freed, top first: none while a container
   * still stands on them, else those no other image holds.
   */
  forget(image: Image, layersStillUsed: boolean): string[] {
    this.images.delete(image.id);
    if (layersStillUsed) return [];
    const held = new Set([...this.images.values()].flatMap((other) => chainIds(other.diffIds)));
    return chainIds(image.diffIds)
      .filter((chainId) => !held.has(chainId))
      .reverse();
  }

  /** DELETE /images/{name}: untags and deletes as dockerd does; the records are the response, in its order. */
  remove(reference: string, options: ImageRemovalOptions, usedBy: ImageUsers): ImageRemovalRecord[] {
    return removeImage(this, reference, options, usedBy);
  }
}

function removeName(image: Image, name: string): void {
  for (const names of [image.repoTags, image.repoDigests]) {
    const index = names.indexOf(name);
    if (index >= 0) names.splice(index, 1);
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A name matches a pattern as a whole (`busybox:*`) or by its repository alone (`busy*`), as Go's reference.FamiliarMatch. */
function matchesName(pattern: RegExp, name: string): boolean {
  const digestAt = name.indexOf('@');
  return pattern.test(name) || pattern.test(digestAt >= 0 ? name.slice(0, digestAt) : name.slice(0, name.lastIndexOf(':')));
}

/** Go's path.Match globs as the engine uses them for names: `*` and `?` never cross a `/`. */
function globPattern(glob: string): RegExp {
  const body = [...glob].map((char) => (char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`);
}
