/**
 * POST /images/create?fromImage (spec/2 §4.1): an image from a registry into the store, as dockerd
 * 20.10 pulls it. The manifest is fetched first (a list resolves to this host's platform), so a name
 * the registry lacks or refuses fails before anything is reported; then the config and each layer
 * it does not hold yet (same chain id), reported as dockerd's progress reports them, each checked
 * against its digest and its diff id. The image gets the tag (or the digest) it was pulled by.
 */
import { createHash } from 'node:crypto';
import { MANIFEST_LIST_TYPES } from '../../../registry/media-types.ts';
import { decompress } from '../../filesystem/archive-decompression.ts';
import { layerFromTar } from '../../filesystem/layer-tar.ts';
import type { Layer } from '../../filesystem/layer.ts';
import { EngineError } from '../common/errors.ts';
import { hostFacts } from '../common/host-facts.ts';
import { readImageDocument } from './image-document.ts';
import { chainIds } from './image-layer-digests.ts';
import { familiarString, qualifiedName, type ImageReference } from './image-reference.ts';
import { ManifestNotFoundError, RegistryRefusal, registryHost, remoteName, type FetchedManifest, type Registries, type RegistryCredentials, type RegistryProgress, type RegistryRepository } from './image-registry.ts';
import type { ImageStore } from './image-store.ts';


interface Descriptor {
  digest: string;
  size: number;
}


export interface PreparedPull {
  run(report: (line: RegistryProgress) => void): Promise<void>;
}

/** Opens the repository and fetches the manifest: what fails here fails before the answer begins. */
export async function preparePull(registries: Registries, store: ImageStore, reference: ImageReference, credentials: RegistryCredentials): Promise<PreparedPull> {
  const repository = await registries.open(registryHost(reference.repository), remoteName(reference.repository), ['pull'], credentials);
  const pulledBy = reference.digest ?? reference.tag ?? 'latest';
  const named = { ...reference, ...(reference.digest === undefined && { tag: pulledBy }) };
  const notFound = (why: string) => new ManifestNotFoundError(`manifest for ${qualifiedName(familiarString(named))} not found: ${why}`);
  const top = await fetchManifest(repository, pulledBy, notFound);
  const manifest = MANIFEST_LIST_TYPES.includes(top.mediaType) ? await fetchManifest(repository, platformManifest(top), notFound) : top;
  return { run: (report) => pull(store, repository, named, top.digest, manifest, report) };
}

/** The manifest by tag or digest; the registry's MANIFEST_UNKNOWN becomes the caller's not-found error (an image's or a plugin's wording). */
export async function fetchManifest(repository: RegistryRepository, reference: string, notFound: (why: string) => Error): Promise<FetchedManifest> {
  try {
    return await repository.manifest(reference);
  } catch (error) {
    if (error instanceof RegistryRefusal && error.code === 'MANIFEST_UNKNOWN') throw notFound(error.message);
    throw error;
  }
}

/** The digest of the list's manifest for this host's platform (linux and its architecture). */
function platformManifest(list: FetchedManifest): string {
  const manifests = (parseJson(list.body) as { manifests?: Array<{ digest?: string; platform?: { os?: string; architecture?: string } }> }).manifests ?? [];
  const match = manifests.find((entry) => entry.platform?.os === 'linux' && entry.platform.architecture === hostFacts().goArch);
  if (typeof match?.digest !== 'string') throw new EngineError(`no matching manifest for linux/${hostFacts().goArch} in the manifest list entries`);
  return match.digest;
}

async function pull(store: ImageStore, repository: RegistryRepository, named: ImageReference, digest: string, manifest: FetchedManifest, report: (line: RegistryProgress) => void): Promise<void> {
  const document = parseJson(manifest.body) as { config?: Descriptor; layers?: Descriptor[] };
  if (document.config === undefined || !Array.isArray(document.layers)) throw new EngineError(`unsupported manifest media type ${manifest.mediaType}`);
  report({ kind: 'message', text: `Pulling from ${remoteName(named.repository)}`, id: named.digest ?? named.tag ?? 'latest' });
  const config = await repository.blob(document.config.digest);
  checkDigest(config, document.config.digest);
  const { diffIds } = readImageDocument(config);
  if (diffIds.length !== document.layers.length) throw new EngineError(`layers from manifest don't match image configuration`);
  const held = heldLayers(store);
  const chain = chainIds(diffIds);
  const layers: Layer[] = [];
  for (const [index, descriptor] of document.layers.entries()) {
    const id = shortId(descriptor.digest);
    const existing = held.get(chain[index] ?? '');
    if (existing !== undefined) {
      report({ kind: 'update', status: 'Already exists', id });
      layers.push(existing);
      continue;
    }
    report({ kind: 'update', status: 'Pulling fs layer', id });
    const blob = await repository.blob(descriptor.digest);
    report({ kind: 'progress', status: 'Downloading', id, current: blob.length, total: descriptor.size });
    checkDigest(blob, descriptor.digest);
    report({ kind: 'update', status: 'Verifying Checksum', id });
    report({ kind: 'update', status: 'Download complete', id });
    const tar = await decompress(blob);
    const diffId = sha256Digest(tar);
    if (diffId !== diffIds[index]) throw new EngineError(`layer ${index} has diff id ${diffId}, the config says ${diffIds[index]}`);
    report({ kind: 'progress', status: 'Extracting', id, current: blob.length, total: descriptor.size });
    layers.push(await layerFromTar(tar));
    report({ kind: 'update', status: 'Pull complete', id });
  }
  const name = familiarString(named);
  const upToDate = store.list().some((image) => image.id === sha256Digest(config) && (image.repoTags.includes(name) || image.repoDigests.includes(name)));
  const image = await store.adopt(config, layers, named.digest === undefined ? [name] : []);
  store.tag(image, `${named.repository}@${digest}`);
  store.events.publish(image, 'pull', name);
  report({ kind: 'message', text: `Digest: ${digest}` });
  report({ kind: 'message', text: `Status: ${upToDate ? 'Image is up to date' : 'Downloaded newer image'} for ${name}` });
}

/** The layers the store's images hold, by chain id. */
function heldLayers(store: ImageStore): Map<string, Layer> {
  const held = new Map<string, Layer>();
  for (const image of store.list()) {
    chainIds(image.diffIds).forEach((chainId, index) => {
      const layer = image.layers.layers[index];
      if (layer !== undefined) held.set(chainId, layer);
    });
  }
  return held;
}

export function checkDigest(content: Buffer, digest: string): void {
  const actual = sha256Digest(content);
  if (actual !== digest) throw new EngineError(`filesystem layer verification failed for digest ${digest}: got ${actual}`);
}

/** stringid.TruncateID of a digest: the hex, 12 digits. */
export function shortId(digest: string): string {
  return digest.replace(/^[^:]*:/, '').slice(0, 12);
}

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new EngineError('invalid manifest: not JSON');
  }
}
