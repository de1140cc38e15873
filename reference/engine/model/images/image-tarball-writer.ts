/**
 * Writes an image tarball (spec/2 §2.2) the way dockerd 20.10's save does: per layer a directory named
 * by its v1 id with `VERSION` (`1.0`), `json` and `layer.tar` (a layer already written under another
 * directory is a symlink to it), per image its config document as `<id hex>.json`, `manifest.json`,
 * and `repositories` when a name with a tag was saved. Members come in the order of dockerd's
 * directory walk, owned by root; the layer files carry the image's creation time, the two index
 * files time 0.
 */
import { posix } from 'node:path';
import { writeTar, type TarMember } from '../../filesystem/tar-io.ts';
import { goJson } from './image-document.ts';
import { v1LayersOf } from './image-tarball-v1.ts';

export interface SavedImage {
  /** `sha256:` and 64 hex digits */
  id: string;
  /** the document the id is the digest of, written as it is */
  configDocument: Buffer;
  /** the image's layer tars, bottom first: one per diff id of the document */
  layerTars: Buffer[];
  /** its names to save, familiar `repository:tag`; none when it was asked for by id */
  repoTags: string[];
  /** id of its parent image, '' when none */
  parent: string;
  created: Date;
}

export const VERSION_FILE = 'VERSION';
export const LAYER_JSON_FILE = 'json';
export const LAYER_TAR_FILE = 'layer.tar';
export const MANIFEST_FILE = 'manifest.json';
export const REPOSITORIES_FILE = 'repositories';
/** the format version of a layer directory */
const LAYER_FORMAT_VERSION = '1.0';

const EPOCH = new Date(0);
const ROOT = { uid: 0, gid: 0, uname: 'root', gname: 'root' };

/** Go's manifestItem of image/tarexport */
interface ManifestItem {
  Config: string;
  RepoTags: string[] | null;
  Layers: string[];
  Parent?: string;
}

export async function writeImageTarball(images: SavedImage[]): Promise<Buffer> {
  const members: TarMember[] = [];
  const savedLayers = new Set<string>();
  /** the path each layer tar was first written at, by diff id */
  const tarPaths = new Map<string, string>();
  const manifest: ManifestItem[] = [];
  const repositories = new Map<string, Map<string, string>>();
  const savedIds = new Set(images.map((image) => image.id));

  for (const image of images) {
    const v1Layers = v1LayersOf(image.configDocument);
    v1Layers.forEach(({ id, diffId, json }, index) => {
      if (savedLayers.has(id)) return;
      savedLayers.add(id);
      const tar = image.layerTars[index] ?? Buffer.alloc(0);
      const tarPath = `${id}/${LAYER_TAR_FILE}`;
      const earlier = tarPaths.get(diffId);
      members.push(
        directory(id, image.created),
        file(`${id}/${VERSION_FILE}`, Buffer.from(LAYER_FORMAT_VERSION), image.created),
        file(`${id}/${LAYER_JSON_FILE}`, json, image.created),
        earlier === undefined ? file(tarPath, tar, image.created) : symlink(tarPath, posix.relative(id, earlier), image.created),
      );
      if (earlier === undefined) tarPaths.set(diffId, tarPath);
    });
    const hex = image.id.replace(/^sha256:/, '');
    members.push(file(`${hex}.json`, image.configDocument, image.created));

    const top = v1Layers[v1Layers.length - 1]?.id ?? '';
    for (const name of image.repoTags) {
      const [repository, tag] = splitTag(name);
      const tags = repositories.get(repository) ?? new Map<string, string>();
      repositories.set(repository, tags.set(tag, top));
    }
    manifest.push({
      Config: `${hex}.json`,
      RepoTags: image.repoTags.length > 0 ? image.repoTags : null,
      Layers: v1Layers.map(({ id }) => `${id}/${LAYER_TAR_FILE}`),
      ...(savedIds.has(image.parent) && image.parent !== image.id && { Parent: image.parent }),
    });
  }

  if (repositories.size > 0) members.push(file(REPOSITORIES_FILE, Buffer.from(`${goJson(sortedObject(repositories, (tags) => sortedObject(tags, (id) => id)))}\n`), EPOCH));
  // Go encodes an empty manifest slice as null
  members.push(file(MANIFEST_FILE, Buffer.from(`${goJson(manifest.length > 0 ? manifest : null)}\n`), EPOCH));
  return writeTar(members.sort((a, b) => compareWalkOrder(a.header.name, b.header.name)));
}

/** `repository:tag` split at the tag's colon (a registry's port comes before a slash). */
function splitTag(name: string): [string, string] {
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? [name.slice(0, colon), name.slice(colon + 1)] : [name, 'latest'];
}

function sortedObject<V>(map: Map<string, V>, value: (entry: V) => unknown): Record<string, unknown> {
  return Object.fromEntries([...map.keys()].sort(compareBytes).map((key) => [key, value(map.get(key) as V)]));
}

/** filepath.Walk's order: a directory's entries by name, each directory followed by its contents. */
function compareWalkOrder(a: string, b: string): number {
  const [left, right] = [a.replace(/\/$/, '').split('/'), b.replace(/\/$/, '').split('/')];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const order = compareBytes(left[index] ?? '', right[index] ?? '');
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function directory(name: string, mtime: Date): TarMember {
  return { header: { ...ROOT, name: `${name}/`, type: 'directory', mode: 0o755, size: 0, mtime }, data: Buffer.alloc(0) };
}

function file(name: string, data: Buffer, mtime: Date): TarMember {
  return { header: { ...ROOT, name, type: 'file', mode: 0o644, size: data.length, mtime }, data };
}

function symlink(name: string, target: string, mtime: Date): TarMember {
  return { header: { ...ROOT, name, type: 'symlink', mode: 0o777, size: 0, linkname: target, mtime }, data: Buffer.alloc(0) };
}
