/**
 * GET /images/{name}/get and /images/get (spec/2 §2.2): the images the names pick, saved into one
 * tarball as dockerd's save does. A name with a tag saves that image under that tag; a repository
 * name alone saves every tagged image of it; an id (full, `sha256:…`, or a unique prefix) saves the
 * image without a name, so no `repositories` entry. Each image saved publishes `save`.
 */
import { layerToTar } from '../../filesystem/layer-tar.ts';
import { EngineError, NotFoundError } from '../common/errors.ts';
import { findByIdPrefix } from '../common/id-prefix.ts';
import { hexOfImageId, type Image } from './image.ts';
import { familiarString, parseImageReference } from './image-reference.ts';
import type { ImageStore } from './image-store.ts';
import { writeImageTarball } from './image-tarball-writer.ts';

interface Selection {
  image: Image;
  tags: string[];
}

export async function saveImages(store: ImageStore, names: readonly string[]): Promise<Buffer> {
  const selected = new Map<string, Selection>();
  for (const name of names) {
    for (const { image, tag } of pick(store, name)) {
      const selection = selected.get(image.id) ?? { image, tags: [] };
      selected.set(image.id, selection);
      if (tag !== undefined && !selection.tags.includes(tag)) selection.tags.push(tag);
    }
  }
  const saved = await Promise.all(
    [...selected.values()].map(async ({ image, tags }) => {
      // dockerd has no export of an image without layers either
      if (image.diffIds.length === 0) throw new EngineError('empty export - not implemented');
      return { id: image.id, configDocument: image.configDocument, layerTars: await Promise.all(image.layers.layers.map(layerToTar)), repoTags: tags, parent: image.parent, created: image.created };
    }),
  );
  const archive = await writeImageTarball(saved);
  for (const { image } of selected.values()) store.events.publish(image, 'save');
  return archive;
}

/** What one name picks, with the tag to save each image under (none for an id). */
function pick(store: ImageStore, name: string): Array<{ image: Image; tag?: string }> {
  const fullId = /^(?:sha256:)?([0-9a-f]{64})$/.exec(name);
  if (fullId) {
    const image = store.byId(`sha256:${fullId[1]}`);
    if (image === undefined) throw new EngineError(`failed to get digest sha256:${fullId[1]}: no such image`);
    return [{ image }];
  }
  const reference = parseImageReference(name);
  if (reference === undefined) throw new EngineError(`invalid reference format: ${name}`);
  if (reference.tag === undefined && reference.digest === undefined) {
    const tagged = store
      .list()
      .flatMap((image) => image.repoTags.filter((tag) => tag.slice(0, tag.lastIndexOf(':')) === reference.repository).map((tag) => ({ image, tag })))
      .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    if (tagged.length > 0) return tagged;
    // a name with no tags may still be an id prefix
    const image = findByIdPrefix(store.list(), (candidate) => hexOfImageId(candidate.id), name);
    if (image === undefined) throw new NotFoundError(`No such image: ${name}`);
    return [{ image }];
  }
  const familiar = familiarString(reference);
  const image = store.list().find((candidate) => candidate.repoTags.includes(familiar) || candidate.repoDigests.includes(familiar));
  if (image === undefined) throw new NotFoundError('reference does not exist');
  return reference.digest === undefined ? [{ image, tag: familiar }] : [{ image }];
}
