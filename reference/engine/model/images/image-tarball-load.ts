/**
 * POST /images/load (spec/2 §2.2): the images of a tarball into the store, as dockerd 20.10's load
 * takes them — from `manifest.json` (each config document kept byte for byte, so ids survive a round
 * trip) or, without one, from the legacy layout (each v1 layer becomes an image, chained by `parent`,
 * named by `repositories`). A layer the store already holds (same chain id) is not read again.
 *
 * Unlike dockerd, which keeps the images it loaded before meeting a bad one, the reference reads and
 * checks the whole tarball before it changes the store: a malformed tarball changes nothing. So the
 * confirmations come after the progress of every layer, where dockerd interleaves them per image.
 */
import { createHash } from 'node:crypto';
import { layerFromTar } from '../../filesystem/layer-tar.ts';
import type { Layer } from '../../filesystem/layer.ts';
import { decompress } from '../../filesystem/archive-decompression.ts';
import { InvalidParameterError } from '../common/errors.ts';
import type { Image } from './image.ts';
import { chainIds } from './image-layer-digests.ts';
import { familiarString, parseImageReference } from './image-reference.ts';
import type { ImageStore } from './image-store.ts';
import { readManifest, readRepositories, parseGoJson, TarballFiles, type ManifestItem } from './image-tarball-reader.ts';
import { configFromV1Json, diffIdsOf, historyOf, type JsonObject } from './image-tarball-v1.ts';
import { LAYER_JSON_FILE, LAYER_TAR_FILE } from './image-tarball-writer.ts';

/** What a load reports as it goes: a layer's progress, or a line of text (`Loaded image: …`). */
export type LoadReport = { kind: 'progress'; id: string; current: number; total: number } | { kind: 'stream'; text: string };

export interface LoadOptions {
  /** no progress, only the confirmations */
  quiet: boolean;
  report: (report: LoadReport) => void;
}

/** An image read and checked, not yet in the store. */
interface StagedImage {
  document: Buffer;
  id: string;
  diffIds: string[];
  history: JsonObject[];
  layers: Layer[];
  /** familiar `repository:tag` names */
  tags: string[];
  parent: string;
}

/** The size of dockerd's reads of a layer file: its first progress report comes after one. */
const READ_SIZE = 32 * 1024;
/** The reference reports a layer's progress at each tenth (dockerd: at most every 100 ms). */
const PROGRESS_STEPS = 10;

export async function loadImages(store: ImageStore, archive: Buffer, options: LoadOptions): Promise<void> {
  const files = await TarballFiles.extract(archive);
  const manifest = readManifest(files);
  const loader = new Loader(store, files, options);
  if (manifest === undefined) {
    await loader.commit(await loader.stageLegacy(), { announce: false });
  } else {
    await loader.commit(await loader.stageManifest(manifest), { announce: true });
  }
}

class Loader {
  /** the layers the store and the images staged so far hold, by chain id */
  private readonly layers = new Map<string, Layer>();

  constructor(
    private readonly store: ImageStore,
    private readonly files: TarballFiles,
    private readonly options: LoadOptions,
  ) {
    for (const image of store.list()) {
      chainIds(image.diffIds).forEach((chainId, index) => {
        const layer = image.layers.layers[index];
        if (layer !== undefined) this.layers.set(chainId, layer);
      });
    }
  }

  async stageManifest(manifest: ManifestItem[]): Promise<StagedImage[]> {
    const staged: StagedImage[] = [];
    for (const item of manifest) {
      const document = this.files.read(item.config);
      const config = imageConfig(parseGoJson(document));
      const diffIds = diffIdsOf(config);
      if (item.layers.length !== diffIds.length) {
        throw new InvalidParameterError(`invalid manifest, layers length mismatch: expected ${item.layers.length}, got ${diffIds.length}`);
      }
      const chain = chainIds(diffIds);
      const layers: Layer[] = [];
      for (const [index, diffId] of diffIds.entries()) {
        const chainId = chain[index] ?? '';
        const layer = this.layers.get(chainId) ?? (await this.readLayer(item.layers[index] ?? '', truncatedId(diffId), diffId, index));
        this.layers.set(chainId, layer);
        layers.push(layer);
      }
      staged.push({ document, id: digestOf(document), diffIds, history: historyOf(config), layers, tags: item.repoTags.map(taggedName), parent: item.parent });
    }
    for (const image of staged) image.parent = validParent(image, staged);
    return staged;
  }

  /** Each v1 layer directory an image, its parent's layers below its own (dockerd's legacyLoad). */
  async stageLegacy(): Promise<StagedImage[]> {
    const byV1Id = new Map<string, StagedImage>();
    const staged: StagedImage[] = [];
    const stage = async (v1Id: string): Promise<StagedImage> => {
      const known = byV1Id.get(v1Id);
      if (known !== undefined) return known;
      const json = imageConfig(parseGoJson(this.files.read(`${v1Id}/${LAYER_JSON_FILE}`)));
      const parent = typeof json.parent === 'string' && json.parent !== '' ? await stage(json.parent) : undefined;
      const tarPath = `${v1Id}/${LAYER_TAR_FILE}`;
      const tar = await decompress(this.read(tarPath, truncatedId(v1Id)));
      const diffIds = [...(parent?.diffIds ?? []), digestOf(tar)];
      const chainId = chainIds(diffIds).at(-1) ?? '';
      const layer = this.layers.get(chainId) ?? (await layerFromTar(tar));
      this.layers.set(chainId, layer);
      const document = configFromV1Json(json, diffIds, parent?.history ?? []);
      const image: StagedImage = {
        document,
        id: digestOf(document),
        diffIds,
        history: historyOf(imageConfig(parseGoJson(document))),
        layers: [...(parent?.layers ?? []), layer],
        tags: [],
        parent: parent?.id ?? '',
      };
      byV1Id.set(v1Id, image);
      staged.push(image);
      return image;
    };
    for (const directory of this.files.rootDirectories()) await stage(directory);
    for (const { repository, tag, v1Id } of readRepositories(this.files)) {
      const image = byV1Id.get(v1Id);
      if (image === undefined) throw new InvalidParameterError(`invalid target ID: ${v1Id}`);
      const reference = parseImageReference(repository);
      if (reference === undefined || reference.tag !== undefined || reference.digest !== undefined) throw new InvalidParameterError('invalid reference format');
      image.tags.push(taggedName(`${reference.repository}:${tag}`));
    }
    return staged;
  }

  /** Into the store: tags moved as dockerd's load moves them (saying so), `Loaded image…` lines and `load` events when `announce`. */
  async commit(staged: StagedImage[], { announce }: { announce: boolean }): Promise<void> {
    let loadedIds = '';
    for (const { document, layers, tags, parent } of staged) {
      const image = await this.store.adopt(document, layers, [], parent);
      for (const tag of tags) {
        const holder = this.holderOf(tag);
        if (holder !== undefined && holder.id !== image.id) {
          this.stream(`The image ${tag} already exists, renaming the old one with ID ${holder.id} to empty string\n`);
        }
        this.store.tag(image, tag);
        if (announce) this.stream(`Loaded image: ${tag}\n`);
      }
      if (announce) this.store.events.publish(image, 'load');
      loadedIds += `Loaded image ID: ${image.id}\n`;
    }
    // dockerd lists the ids when the last image had no name to show
    if (announce && (staged.at(-1)?.tags.length ?? 0) === 0) this.stream(loadedIds);
  }

  private holderOf(tag: string): Image | undefined {
    return this.store.list().find((image) => image.repoTags.includes(tag));
  }

  private async readLayer(path: string, progressId: string, diffId: string, index: number): Promise<Layer> {
    const tar = await decompress(this.read(path, progressId));
    const actual = digestOf(tar);
    if (actual !== diffId) throw new InvalidParameterError(`invalid diffID for layer ${index}: expected "${diffId}", got "${actual}"`);
    return layerFromTar(tar);
  }

  /** A layer file, its reading reported as dockerd's progress reader reports it. */
  private read(path: string, progressId: string): Buffer {
    const data = this.files.read(path);
    if (!this.options.quiet) {
      for (const current of progressPoints(data.length)) this.options.report({ kind: 'progress', id: progressId, current, total: data.length });
    }
    return data;
  }

  private stream(text: string): void {
    this.options.report({ kind: 'stream', text });
  }
}

/** After the first read, after the read that passes each tenth, at the end, and once more at end of file. */
function progressPoints(total: number): number[] {
  const points = new Set([Math.min(READ_SIZE, total)]);
  for (let step = 1; step < PROGRESS_STEPS; step += 1) {
    const point = Math.floor((total * step) / PROGRESS_STEPS / READ_SIZE) * READ_SIZE;
    if (point > READ_SIZE) points.add(point);
  }
  points.add(total);
  return [...points, total];
}

/** A parent is kept only when it is one of the images loaded with it and its history and layers start this one's (dockerd's validatedParentLinks, checkValidParent). */
function validParent(image: StagedImage, staged: StagedImage[]): string {
  const parent = staged.find((candidate) => candidate.id === image.parent && candidate.id !== image.id);
  if (parent === undefined) return '';
  const prefix = <T>(short: T[], long: T[]) => short.length <= long.length && short.every((entry, index) => JSON.stringify(entry) === JSON.stringify(long[index]));
  const valid = (image.history.length === 0 && parent.history.length === 0) || (parent.history.length < image.history.length && prefix(parent.history, image.history) && prefix(parent.diffIds, image.diffIds));
  if (!valid) throw new InvalidParameterError(`image ${parent.id} is not a valid parent for ${image.id}`);
  return parent.id;
}

/** A JSON image config, refused as dockerd refuses one it cannot load on Linux. */
function imageConfig(value: unknown): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidParameterError('json: cannot unmarshal non-object into Go value of type image.Image');
  const os = (value as JsonObject).os;
  if (os !== undefined && os !== '' && os !== 'linux') throw new InvalidParameterError(`cannot load ${String(os)} image on linux`);
  return value as JsonObject;
}

/** A name to load an image under: it must carry a tag; answered in familiar form. */
function taggedName(name: string): string {
  const reference = parseImageReference(name);
  if (reference === undefined) throw new InvalidParameterError('invalid reference format');
  if (reference.tag === undefined || reference.digest !== undefined) throw new InvalidParameterError(`invalid tag ${JSON.stringify(name)}`);
  return familiarString(reference);
}

/** stringid.TruncateID: the hex after any algorithm, 12 digits. */
function truncatedId(id: string): string {
  return id.replace(/^[^:]*:/, '').slice(0, 12);
}

function digestOf(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
