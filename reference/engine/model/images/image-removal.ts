/**
 * Removing an image as dockerd's ImageDelete does. A name given: that name goes (refused while a
 * container uses the image and it is the image's only name, unless forced); the image itself goes
 * only when no name is left. An id given: the image goes with all its names, which needs force when
 * it has names in several repositories. Deleting is refused outright (even forced) while the image
 * has children or a running container, and unless forced while a stopped container uses it. Then,
 * unless noprune, the parents that are left untagged and unused go too, quietly.
 */
import { ConflictError } from '../common/errors.ts';
import type { ImageEvents } from './image-events.ts';
import { familiarString, parseImageReference } from './image-reference.ts';
import type { Image } from './image.ts';

export interface ImageRemovalOptions {
  force: boolean;
  noprune: boolean;
}

export type ImageRemovalRecord = { Untagged: string } | { Deleted: string };

/** A container standing on an image. */
export interface ImageUser {
  id: string;
  running: boolean;
}

/** The containers created from the image with this id. */
export type ImageUsers = (imageId: string) => ImageUser[];

/** What removal needs of the store. */
export interface RemovableImages {
  readonly events: ImageEvents;
  find(reference: string): Image;
  byId(id: string): Image | undefined;
  children(image: Image): Image[];
  untag(image: Image, name: string): void;
  forget(image: Image, layersStillUsed: boolean): string[];
}

/** dockerd's conflict kinds: the first two cannot be forced. */
const DEPENDENT_CHILD = 1;
const RUNNING_CONTAINER = 2;
const ACTIVE_REFERENCE = 4;
const STOPPED_CONTAINER = 8;
const HARD = DEPENDENT_CHILD | RUNNING_CONTAINER;
const SOFT = ACTIVE_REFERENCE | STOPPED_CONTAINER;

interface Conflict {
  hard: boolean;
  /** a container uses the image */
  used: boolean;
  message: string;
}

export function removeImage(store: RemovableImages, reference: string, options: ImageRemovalOptions, usedBy: ImageUsers): ImageRemovalRecord[] {
  const image = store.find(reference);
  const records: ImageRemovalRecord[] = [];
  const untag = (name: string) => {
    store.untag(image, name);
    store.events.publish(image, 'untag');
    records.push({ Untagged: name });
  };
  if (!isIdPrefix(image.id, reference)) {
    const user = usedBy(image.id)[0];
    if (!options.force && isSingleReference(image) && user !== undefined) {
      throw new ConflictError(
        `conflict: unable to remove repository reference ${JSON.stringify(reference)} (must force) - container ${shortId(user.id)} is using its referenced image ${shortId(image.id)}`,
      );
    }
    const parsed = parseImageReference(reference);
    const name = parsed ? familiarString(parsed) : reference;
    untag(name);
    // a tag gone with no other tag of its repository left takes the repository's digests along
    if (parsed && parsed.digest === undefined && !image.repoTags.some((tag) => repositoryOf(tag) === parsed.repository)) {
      for (const digest of image.repoDigests.filter((candidate) => repositoryOf(candidate) === parsed.repository)) {
        store.untag(image, digest);
        records.push({ Untagged: digest });
      }
    }
    if (namesOf(image).length > 0) return records;
    deleteImage(store, image, { force: options.force, prune: !options.noprune, quiet: true }, usedBy, records);
    return records;
  }
  if (isSingleReference(image)) {
    const conflict = conflictOf(store, image, options.force ? HARD : HARD | (SOFT & ~ACTIVE_REFERENCE), usedBy);
    if (conflict) throw conflictError(image, conflict);
    for (const name of namesOf(image)) untag(name);
  }
  deleteImage(store, image, { force: options.force, prune: !options.noprune, quiet: false }, usedBy, records);
  return records;
}

/** dockerd's imageDeleteHelper: `quiet` skips conflicts unless the image is dangling and unused. */
function deleteImage(
  store: RemovableImages,
  image: Image,
  how: { force: boolean; prune: boolean; quiet: boolean },
  usedBy: ImageUsers,
  records: ImageRemovalRecord[],
): void {
  const conflict = conflictOf(store, image, how.force ? HARD : HARD | SOFT, usedBy);
  if (conflict) {
    const dangling = namesOf(image).length === 0 && store.children(image).length === 0;
    if (how.quiet && (!dangling || conflict.used)) return;
    throw conflictError(image, conflict);
  }
  for (const name of namesOf(image)) {
    store.untag(image, name);
    store.events.publish(image, 'untag');
    records.push({ Untagged: name });
  }
  const freedLayers = store.forget(image, usedBy(image.id).length > 0);
  store.events.publishDeleted(image);
  records.push({ Deleted: image.id }, ...freedLayers.map((chainId) => ({ Deleted: chainId })));
  const parent = how.prune && image.parent !== '' ? store.byId(image.parent) : undefined;
  if (parent) deleteImage(store, parent, { force: false, prune: true, quiet: true }, usedBy, records);
}

function conflictOf(store: RemovableImages, image: Image, mask: number, usedBy: ImageUsers): Conflict | undefined {
  if (mask & DEPENDENT_CHILD && store.children(image).length > 0) return { hard: true, used: false, message: 'image has dependent child images' };
  const users = usedBy(image.id);
  const running = users.find((user) => user.running);
  if (mask & RUNNING_CONTAINER && running) return { hard: true, used: true, message: `image is being used by running container ${shortId(running.id)}` };
  if (mask & ACTIVE_REFERENCE && namesOf(image).length > 0) return { hard: false, used: false, message: 'image is referenced in multiple repositories' };
  const stopped = users.find((user) => !user.running);
  if (mask & STOPPED_CONTAINER && stopped) return { hard: false, used: true, message: `image is being used by stopped container ${shortId(stopped.id)}` };
  return undefined;
}

function conflictError(image: Image, conflict: Conflict): ConflictError {
  return new ConflictError(`conflict: unable to delete ${shortId(image.id)} (${conflict.hard ? 'cannot be forced' : 'must be forced'}) - ${conflict.message}`);
}

/**
 * One name, or several that all belong to one repository with at most one tag among them (a tag and
 * its digests): what removing by id takes along without force.
 */
function isSingleReference(image: Image): boolean {
  if (image.repoTags.length > 1) return false;
  const repositories = new Set(namesOf(image).map(repositoryOf));
  return repositories.size === 1;
}

/** Every name of the image, tags before digests, each in the engine's order. */
function namesOf(image: Image): string[] {
  return [...image.repoTags, ...image.repoDigests];
}

function repositoryOf(name: string): string {
  const at = name.indexOf('@');
  if (at >= 0) return name.slice(0, at);
  return name.slice(0, name.lastIndexOf(':') > name.lastIndexOf('/') ? name.lastIndexOf(':') : name.length);
}

/** dockerd reads the reference as an id when the id (with or without `sha256:`) starts with it. */
function isIdPrefix(id: string, reference: string): boolean {
  return id.startsWith(reference) || id.slice(id.indexOf(':') + 1).startsWith(reference);
}

/** stringid.TruncateID: no algorithm, 12 hex digits. */
function shortId(id: string): string {
  return id.slice(id.indexOf(':') + 1, id.indexOf(':') + 13);
}
