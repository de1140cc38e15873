/**
 * Plugins to and from registries, as dockerd 20.10 distributes them: a schema 2 manifest whose config
 * is the plugin's config.json (media type `application/vnd.docker.plugin.v1+json`, with the rootfs's
 * diff ids) and whose one layer is the rootfs, gzipped. Names on Docker Hub come from the catalogue
 * the reference simulates (plugin-catalogue.ts); a name on any other registry is fetched from it.
 */
import { gzipSync } from 'node:zlib';
import { MANIFEST_V2, PLUGIN_CONFIG } from '../../../registry/media-types.ts';
import { decompress } from '../../filesystem/archive-decompression.ts';
import { readTar, writeTar } from '../../filesystem/tar-io.ts';
import { EngineError, NotFoundError } from '../common/errors.ts';
import { checkDigest, fetchManifest, sha256Digest, shortId } from '../images/image-pull.ts';
import { pushLayer, putManifest } from '../images/image-push.ts';
import { checkedImageReference, familiarString, type ImageReference } from '../images/image-reference.ts';
import { registryHost, remoteName, type Registries, type RegistryCredentials, type RegistryProgress, type RegistryRepository } from '../images/image-registry.ts';
import { readPluginConfig, pluginConfigDocument } from './plugin-config.ts';
import { pluginPrivileges, type PluginPrivilege } from './plugin-privileges.ts';
import type { PluginSource, PluginStore, PulledPlugin } from './plugin-store.ts';

const DOCKER_HUB = 'registry-1.docker.io';

interface Descriptor {
  mediaType?: string;
  digest: string;
  size: number;
}

/** What pulling `remote` would ask the user to grant. */
export async function remotePluginPrivileges(store: PluginStore, registries: Registries, remote: string, credentials: RegistryCredentials): Promise<PluginPrivilege[]> {
  const reference = checkedImageReference(remote);
  if (registryHost(reference.repository) === DOCKER_HUB) return store.privileges(remote);
  const { manifest } = await fetchPlugin(registries, reference, credentials);
  return pluginPrivileges(manifest);
}

/** POST /plugins/pull: `remote` installed, disabled, as `localName` (the remote's name when absent). */
export async function pullPlugin(store: PluginStore, registries: Registries, remote: string, localName: string | undefined, credentials: RegistryCredentials): Promise<PulledPlugin> {
  const reference = checkedImageReference(remote);
  if (registryHost(reference.repository) === DOCKER_HUB) return store.pull(remote, localName);
  return store.installPulled(await fetchPlugin(registries, reference, credentials), localName);
}

/** POST /plugins/{name}/push: the plugin under its own name, to the registry that name is on; reports as dockerd's image push does. */
export async function pushPlugin(store: PluginStore, registries: Registries, nameOrId: string, credentials: RegistryCredentials, report: (line: RegistryProgress) => void): Promise<void> {
  const plugin = store.find(nameOrId);
  const repository = await registries.open(registryHost(plugin.repository), remoteName(plugin.repository), ['pull', 'push'], credentials);
  const diffId = sha256Digest(plugin.rootfs);
  report({ kind: 'update', status: 'Preparing', id: shortId(diffId) });
  const layer = await pushLayer(repository, gzipSync(plugin.rootfs), shortId(diffId), report);
  const config = pluginConfigDocument(plugin.manifest, [diffId]);
  await putManifest(repository, plugin.tag, { mediaType: PLUGIN_CONFIG, document: config }, [layer], report);
  store.pushed(plugin);
}

/** The plugin a registry holds under `reference`: its manifest, config and layers, each checked against its digest and diff id. */
async function fetchPlugin(registries: Registries, reference: ImageReference, credentials: RegistryCredentials): Promise<PluginSource> {
  const named = familiarString(reference);
  const repository = await registries.open(registryHost(reference.repository), remoteName(reference.repository), ['pull'], credentials);
  const document = await pluginManifest(repository, reference, named);
  const configBlob = await repository.blob(document.config.digest);
  checkDigest(configBlob, document.config.digest);
  const { manifest, diffIds } = readPluginConfig(configBlob);
  if (diffIds.length !== document.layers.length) throw new EngineError(`layers from manifest don't match plugin configuration`);
  const layers: Buffer[] = [];
  for (const [index, descriptor] of document.layers.entries()) {
    const blob = await repository.blob(descriptor.digest);
    checkDigest(blob, descriptor.digest);
    const tar = await decompress(blob);
    const diffId = sha256Digest(tar);
    if (diffId !== diffIds[index]) throw new EngineError(`layer ${index} has diff id ${diffId}, the plugin config says ${diffIds[index]}`);
    layers.push(tar);
  }
  // several layers make one rootfs of their members in order: a later layer's file replaces an earlier one's
  const rootfs = layers.length === 1 && layers[0] !== undefined ? layers[0] : await writeTar((await Promise.all(layers.map(readTar))).flat());
  return { remote: named, manifest, rootfs };
}

/** The schema 2 manifest of a plugin: one whose config is a plugin config. */
async function pluginManifest(repository: RegistryRepository, reference: ImageReference, named: string): Promise<{ config: Descriptor; layers: Descriptor[] }> {
  const fetched = await fetchManifest(repository, reference.digest ?? reference.tag ?? 'latest', (why) => new NotFoundError(`plugin ${JSON.stringify(named)} not found in the registry: ${why}`));
  let document: { config?: Descriptor; layers?: Descriptor[] };
  try {
    document = JSON.parse(fetched.body.toString('utf8')) as typeof document;
  } catch {
    throw new EngineError('invalid manifest: not JSON');
  }
  if (fetched.mediaType !== MANIFEST_V2 || document.config?.mediaType !== PLUGIN_CONFIG || !Array.isArray(document.layers)) {
    throw new EngineError(`${named} is not a plugin: its manifest's config is ${JSON.stringify(document.config?.mediaType ?? fetched.mediaType)}, not ${PLUGIN_CONFIG}`);
  }
  return { config: document.config, layers: document.layers };
}
