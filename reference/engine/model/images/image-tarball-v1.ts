/**
 * The v1 documents of an image tarball (spec/2 §2.2), as dockerd 20.10 writes and reads them. Each
 * layer's directory is named by a v1 id and holds a v1 `json`: the top layer's carries the image's
 * config, the ones below only a creation time of 0. A tarball without `manifest.json` (the legacy
 * layout) is read back by turning each v1 json into an image config document.
 *
 * Documents are handled as parsed JSON whose key order is kept, so that what dockerd wrote in Go's
 * field order is written back in the same order and hashes to the same ids.
 */
import { createHash } from 'node:crypto';
import { goConfig, goJson } from './image-document.ts';
import { chainIds } from './image-layer-digests.ts';
import { emptyImageConfig } from './image.ts';

export type JsonObject = Record<string, unknown>;

/** What dockerd writes as the creation time of every layer below the top one. */
const V1_LOWER_CREATED = '1970-01-01T00:00:00Z';
/** Go's zero time.Time, which a document without `created` decodes to. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** Go's zero container.Config, as V1Image's `container_config` (never omitted) marshals it. */
const ZERO_CONTAINER_CONFIG = goConfig(emptyImageConfig());

/** The string fields of Go's image.V1Image that are left out when empty, in its field order around the others. */
const V1_HEAD = ['id', 'parent', 'comment'] as const;
const V1_MIDDLE = ['docker_version', 'author'] as const;
const V1_TAIL = ['architecture', 'variant', 'os'] as const;

export interface V1Layer {
  /** 64 hex digits: the name of the layer's directory */
  id: string;
  /** the diff id of the layer's tar, from the image's document */
  diffId: string;
  /** the layer's `json` file */
  json: Buffer;
}

/**
 * The v1 id and json of each layer of an image, bottom first, as dockerd's save computes them
 * (v1.CreateID over the layer's v1 image, its chain id and the v1 id below it).
 */
export function v1LayersOf(configDocument: Buffer): V1Layer[] {
  const document = parseJsonObject(configDocument);
  const diffIds = diffIdsOf(document);
  const chain = chainIds(diffIds);
  const os = typeof document.os === 'string' ? document.os : '';
  const layers: V1Layer[] = [];
  let parent = '';
  chain.forEach((chainId, index) => {
    const image = index === diffIds.length - 1 ? v1ImageOf(document) : v1Ordered({ created: V1_LOWER_CREATED });
    const idSource = { ...image, layer_id: chainId, ...(parent !== '' && { parent: `sha256:${parent}` }) };
    const id = sha256Hex(goJson(sortedKeys(idSource)));
    layers.push({ id, diffId: diffIds[index] ?? '', json: Buffer.from(goJson(v1Ordered({ ...image, id, ...(parent !== '' && { parent }), os }))) });
    parent = id;
  });
  return layers;
}

/** The diff ids a config document lists; throws when it has none to list. */
export function diffIdsOf(document: JsonObject): string[] {
  const rootfs = document.rootfs;
  const diffIds = typeof rootfs === 'object' && rootfs !== null ? (rootfs as JsonObject).diff_ids : undefined;
  if (!Array.isArray(diffIds)) throw new Error('invalid image JSON, no RootFS key');
  return diffIds.map(String);
}

/**
 * The V1Image embedded in an image config. Its `parent` is not the document's: Go decodes that key
 * into the image's own Parent field, which shadows the embedded one.
 */
function v1ImageOf(document: JsonObject): JsonObject {
  const fields = { ...document };
  delete fields.id;
  delete fields.parent;
  return v1Ordered(fields);
}

/** Go's image.V1Image as encoding/json writes it: its fields in order, empty strings and a null config left out, anything else dropped. */
function v1Ordered(image: JsonObject): JsonObject {
  const strings = (names: readonly string[]) => Object.fromEntries(names.filter((name) => typeof image[name] === 'string' && image[name] !== '').map((name) => [name, image[name]]));
  return {
    ...strings(V1_HEAD),
    created: image.created ?? GO_ZERO_TIME,
    ...strings(['container']),
    container_config: image.container_config ?? ZERO_CONTAINER_CONFIG,
    ...strings(V1_MIDDLE),
    ...(image.config !== undefined && image.config !== null && { config: image.config }),
    ...strings(V1_TAIL),
  };
}

/**
 * The image config dockerd's legacy load makes of a v1 json (v1.MakeConfigFromV1Config): the json's
 * own keys but the v1 bookkeeping ones, plus the stack's rootfs and history, keys sorted. Jsons
 * written before docker 1.8.3 are first reduced to the V1Image fields.
 * @param history the history entries of the layers below (as parsed), this layer's is added
 */
export function configFromV1Json(json: JsonObject, diffIds: string[], history: JsonObject[]): Buffer {
  const dockerVersion = typeof json.docker_version === 'string' ? json.docker_version : '';
  const source: JsonObject = versionBefore(dockerVersion, '1.8.3') ? v1Ordered(json) : { ...json };
  for (const key of ['id', 'parent', 'Size', 'parent_id', 'layer_id', 'throwaway']) delete source[key];
  source.rootfs = { type: 'layers', diff_ids: diffIds };
  source.history = [...history, historyOfV1Json(json)];
  return Buffer.from(goJson(sortedKeys(source)));
}

/** A v1 json's history entry (v1.HistoryFromConfig): the command is container_config's Cmd joined with spaces. */
function historyOfV1Json(json: JsonObject): JsonObject {
  const containerConfig = (typeof json.container_config === 'object' && json.container_config !== null ? json.container_config : {}) as JsonObject;
  const command = Array.isArray(containerConfig.Cmd) ? containerConfig.Cmd.join(' ') : '';
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    created: json.created ?? GO_ZERO_TIME,
    ...(text(json.author) !== '' && { author: json.author }),
    ...(command !== '' && { created_by: command }),
    ...(text(json.comment) !== '' && { comment: json.comment }),
  };
}

/** The history entries of a config document, as parsed. */
export function historyOf(document: JsonObject): JsonObject[] {
  return Array.isArray(document.history) ? (document.history as JsonObject[]) : [];
}

/** docker's versions.LessThan: dotted numbers compared field by field, a field that is not a number counting as 0. */
function versionBefore(version: string, other: string): boolean {
  const fields = (text: string) => text.split('.').map((field) => (/^\d+$/.test(field) ? Number(field) : 0));
  const [a, b] = [fields(version), fields(other)];
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const [x = 0, y = 0] = [a[index], b[index]];
    if (x !== y) return x < y;
  }
  return false;
}

/** Parses a JSON object; throws the parser's error for text that is not JSON, and says so for JSON that is not an object. */
export function parseJsonObject(bytes: Buffer): JsonObject {
  const value: unknown = JSON.parse(bytes.toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('json: cannot unmarshal non-object into Go value of type map[string]*json.RawMessage');
  return value as JsonObject;
}

/** A map as Go's encoding/json writes one: keys sorted bytewise. */
function sortedKeys(object: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
