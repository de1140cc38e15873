/**
 * POST /images/{name}/push (spec/2 §4.1): an image's layers, config and schema 2 manifest to its
 * registry, as dockerd 20.10 pushes them: each layer gzipped and named by its diff id in the
 * progress, blobs the repository holds already skipped, the manifest put under the tag, then the
 * digest line and the `aux` record. Without a tag, every tag of the repository goes. The image keeps
 * the digest the registry gave it among its RepoDigests.
 */
import { gzipSync } from 'node:zlib';
import { GZIP_LAYER, IMAGE_CONFIG, MANIFEST_V2 } from '../../../registry/media-types.ts';
import { layerToTar } from '../../filesystem/layer-tar.ts';
import { NotFoundError } from '../common/errors.ts';
import type { Image } from './image.ts';
import { familiarString, type ImageReference } from './image-reference.ts';
import { sha256Digest, shortId } from './image-pull.ts';
import { registryHost, remoteName, type Registries, type RegistryCredentials, type RegistryProgress, type RegistryRepository } from './image-registry.ts';
import type { ImageStore } from './image-store.ts';

export interface PreparedPush {
  run(report: (line: RegistryProgress) => void): Promise<void>;
}

/**
 * Finds the images to push: an image the engine lacks fails here, before the answer begins (spec/2
 * §4.1's 404; dockerd says so in the stream instead).
 */
export function preparePush(registries: Registries, store: ImageStore, reference: ImageReference, credentials: RegistryCredentials): PreparedPush {
  const tagged = taggedImages(store, reference);
  return {
    run: async (report) => {
      const repository = await registries.open(registryHost(reference.repository), remoteName(reference.repository), ['pull', 'push'], credentials);
      for (const { tag, image } of tagged) {
        const digest = await pushTag(repository, tag, image, report);
        store.tag(image, `${reference.repository}@${digest}`);
        store.events.publish(image, 'push', `${reference.repository}:${tag}`);
      }
    },
  };
}

/** The image of the tag, or of every tag of the repository when none is given. */
function taggedImages(store: ImageStore, reference: ImageReference): Array<{ tag: string; image: Image }> {
  const prefix = `${reference.repository}:`;
  const found = store.list().flatMap((image) =>
    image.repoTags
      .filter((name) => (reference.tag === undefined ? name.startsWith(prefix) : name === familiarString(reference)))
      .map((name) => ({ tag: name.slice(prefix.length), image })),
  );
  if (found.length === 0) throw new NotFoundError(`An image does not exist locally with the tag: ${reference.repository}`);
  return found.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

async function pushTag(repository: RegistryRepository, tag: string, image: Image, report: (line: RegistryProgress) => void): Promise<string> {
  const ids = image.diffIds.map(shortId);
  for (const id of [...ids].reverse()) report({ kind: 'update', status: 'Preparing', id });
  const layers = [];
  for (const [index, layer] of image.layers.layers.entries()) {
    layers.push(await pushLayer(repository, gzipSync(await layerToTar(layer)), ids[index] ?? '', report));
  }
  return putManifest(repository, tag, { mediaType: IMAGE_CONFIG, document: image.configDocument }, layers, report);
}

/** One gzipped layer to the repository, unless it holds the blob already; reported under `id`. */
export async function pushLayer(repository: RegistryRepository, blob: Buffer, id: string, report: (line: RegistryProgress) => void): Promise<{ mediaType: string; size: number; digest: string }> {
  const digest = sha256Digest(blob);
  if (await repository.hasBlob(digest)) {
    report({ kind: 'update', status: 'Layer already exists', id });
  } else {
    report({ kind: 'progress', status: 'Pushing', id, current: blob.length, total: blob.length });
    await repository.putBlob(digest, blob);
    report({ kind: 'update', status: 'Pushed', id });
  }
  return { mediaType: GZIP_LAYER, size: blob.length, digest };
}

/** The config blob and a schema 2 manifest of it and `layers` under `tag`, then dockerd's digest line and `aux` record; returns the digest. */
export async function putManifest(
  repository: RegistryRepository,
  tag: string,
  config: { mediaType: string; document: Buffer },
  layers: Array<{ mediaType: string; size: number; digest: string }>,
  report: (line: RegistryProgress) => void,
): Promise<string> {
  const configDigest = sha256Digest(config.document);
  if (!(await repository.hasBlob(configDigest))) await repository.putBlob(configDigest, config.document);
  const manifest = {
    schemaVersion: 2,
    mediaType: MANIFEST_V2,
    config: { mediaType: config.mediaType, size: config.document.length, digest: configDigest },
    layers,
  };
  // dockerd's manifest is json.MarshalIndent with three spaces
  const body = Buffer.from(JSON.stringify(manifest, null, 3));
  const digest = await repository.putManifest(tag, MANIFEST_V2, body);
  report({ kind: 'message', text: `${tag}: digest: ${digest} size: ${body.length}` });
  report({ kind: 'aux', tag, digest, size: body.length });
  return digest;
}
