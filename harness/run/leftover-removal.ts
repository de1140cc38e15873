/**
 * Removes what Shipshape created on a live daemon and did not remove: services and containers labelled
 * `shipshape.run`, images, volumes and networks labelled so or named by a run (one run's, or every run's), plugins
 * named by a run, and
 * fixture images nothing uses any more. Shared by `shipshape cleanup`, Ctrl-C during a run, and the
 * end of every live run. Services go first, with their tasks' containers, then the other containers
 * with their anonymous volumes: then nothing of the run's uses the run's named volumes any more.
 */
import type { EngineClient } from '../client/engine-client.ts';
import { isRunName, removeImages, removeService, RUN_LABEL, type ListedImage } from '../resources.ts';
import { FIXTURE_REPOSITORY } from '../../fixtures/busybox-rootfs.ts';

export interface Removal {
  removed: string[];
  failed: string[];
}

/** Names a daemon lists for an untagged image: not names at all. */
const NO_NAME = '<none>:<none>';

export async function removeLeftovers(engine: EngineClient, runId?: string, options: { images?: boolean } = {}): Promise<Removal> {
  const removal: Removal = { removed: [], failed: [] };
  await removeRunServices(engine, runId, removal);
  const label = runId ? `${RUN_LABEL}=${runId}` : RUN_LABEL;
  const listed = await engine.get('/containers/json', { query: { all: 1, filters: JSON.stringify({ label: [label] }) } });
  if (listed.status !== 200) throw new Error(`listing containers failed: ${listed.describe()}`);
  for (const { Id } of listed.json<{ Id: string }[]>()) {
    const res = await engine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
    if (res.status === 204 || res.status === 404) removal.removed.push(`container ${Id.slice(0, 12)}`);
    else removal.failed.push(`container ${Id.slice(0, 12)}: ${res.describe()}`);
  }
  await removeRunImages(engine, runId, removal);
  await removeRunVolumes(engine, runId, removal);
  await removeRunNetworks(engine, runId, removal);
  await removeRunPlugins(engine, runId, removal);
  if (options.images) {
    const images = await engine.get('/images/json', { query: { filter: FIXTURE_REPOSITORY } });
    for (const image of images.status === 200 ? images.json<{ Id: string }[]>() : []) {
      // Without force: an image a container still uses is someone's, not a leftover.
      const res = await engine.delete(`/images/${image.Id}`);
      if (res.status === 200) removal.removed.push(`image ${image.Id.replace(/^sha256:/, '').slice(0, 12)}`);
    }
  }
  return removal;
}

/** A volume a run made carries its label or a name it gave (one a container's bind created). */
async function removeRunVolumes(engine: EngineClient, runId: string | undefined, removal: Removal): Promise<void> {
  const listed = await engine.get('/volumes');
  // a target that serves no volumes has none left
  if (listed.status === 404) return;
  if (listed.status !== 200) throw new Error(`listing volumes failed: ${listed.describe()}`);
  for (const { Name, Labels } of listed.json<{ Volumes: ListedVolume[] | null }>().Volumes ?? []) {
    const label = Labels?.[RUN_LABEL];
    if (!isRunName(Name, runId) && !(label !== undefined && (runId === undefined || label === runId))) continue;
    const res = await engine.delete(`/volumes/${encodeURIComponent(Name)}`);
    if (res.status === 204 || res.status === 404) removal.removed.push(`volume ${Name}`);
    else removal.failed.push(`volume ${Name}: ${res.describe()}`);
  }
}

/** A network a run made carries its label or a name it gave; the run's containers, gone by now, left it empty. */
async function removeRunNetworks(engine: EngineClient, runId: string | undefined, removal: Removal): Promise<void> {
  const listed = await engine.get('/networks');
  // a target that serves no networks has none left
  if (listed.status === 404) return;
  if (listed.status !== 200) throw new Error(`listing networks failed: ${listed.describe()}`);
  for (const { Id, Name, Labels } of listed.json<ListedNetwork[]>()) {
    const label = Labels?.[RUN_LABEL];
    if (!isRunName(Name, runId) && !(label !== undefined && (runId === undefined || label === runId))) continue;
    const res = await engine.delete(`/networks/${Id}`);
    if (res.status === 204 || res.status === 404) removal.removed.push(`network ${Name}`);
    else removal.failed.push(`network ${Name}: ${res.describe()}`);
  }
}

/** A plugin a run pulled carries a name it gave (plugins have no labels); enabled or not, it goes. */
async function removeRunPlugins(engine: EngineClient, runId: string | undefined, removal: Removal): Promise<void> {
  const listed = await engine.get('/plugins');
  // a target that serves no plugins has none left
  if (listed.status === 404) return;
  if (listed.status !== 200) throw new Error(`listing plugins failed: ${listed.describe()}`);
  for (const { Id, Name } of listed.json<{ Id: string; Name: string }[]>()) {
    if (!isRunName(Name, runId)) continue;
    const res = await engine.delete(`/plugins/${Id}`, { query: { force: 1 } });
    if (res.status === 200 || res.status === 204 || res.status === 404) removal.removed.push(`plugin ${Name}`);
    else removal.failed.push(`plugin ${Name}: ${res.describe()}`);
  }
}

/**
 * A service a run made carries its label. It goes first, and with it the containers of its tasks:
 * removing those directly would only have the swarm start new ones.
 */
async function removeRunServices(engine: EngineClient, runId: string | undefined, removal: Removal): Promise<void> {
  const listed = await engine.get('/services');
  // outside a swarm (503), or on a target that serves no services, there are none left
  if (listed.status === 503 || listed.status === 404) return;
  if (listed.status !== 200) throw new Error(`listing services failed: ${listed.describe()}`);
  for (const { ID, Spec } of listed.json<ListedService[]>()) {
    const label = Spec.Labels?.[RUN_LABEL];
    if (label === undefined || (runId !== undefined && label !== runId)) continue;
    try {
      await removeService(engine, ID);
      removal.removed.push(`service ${Spec.Name}`);
    } catch (error) {
      removal.failed.push(`service ${Spec.Name}: ${(error as Error).message}`);
    }
  }
}

interface ListedService {
  ID: string;
  Spec: { Name: string; Labels?: Record<string, string> | null };
}

interface ListedNetwork {
  Id: string;
  Name: string;
  Labels?: Record<string, string> | null;
}

interface ListedVolume {
  Name: string;
  Labels?: Record<string, string> | null;
}

/**
 * Images a run made carry its label (commits and builds inherit it from their containers and build
 * files) or a name it gave (tags, imports, loads). An image that also has a name the run did not give
 * (the fixture image under a run's extra tag) is someone else's: only the run's names come off it.
 */
async function removeRunImages(engine: EngineClient, runId: string | undefined, removal: Removal): Promise<void> {
  const listed = await engine.get('/images/json', { query: { all: 1 } });
  if (listed.status !== 200) throw new Error(`listing images failed: ${listed.describe()}`);
  const ours: ListedImage[] = [];
  for (const image of listed.json<ListedImage[]>()) {
    const names = (image.RepoTags ?? []).filter((name) => name !== NO_NAME);
    const runNames = names.filter((name) => isRunName(name, runId));
    const labelled = image.Labels?.[RUN_LABEL] !== undefined && (runId === undefined || image.Labels[RUN_LABEL] === runId);
    if (runNames.length < names.length) {
      for (const name of runNames) {
        const res = await engine.delete(`/images/${encodeURIComponent(name)}`);
        if (res.status === 200 || res.status === 404) removal.removed.push(`image name ${name}`);
        else removal.failed.push(`image name ${name}: ${res.describe()}`);
      }
    } else if (runNames.length > 0 || labelled) {
      ours.push(image);
    }
  }
  const { removed, failed } = await removeImages(engine, ours);
  removal.removed.push(...removed);
  removal.failed.push(...failed);
}
