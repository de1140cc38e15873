/**
 * What a live daemon holds before a run, to prove after it that the run left nothing behind:
 * containers, images, volumes, networks, plugins and services. Only objects that appeared are reported: others may come
 * and go under a shared daemon.
 */
import type { EngineClient } from '../client/engine-client.ts';

export interface DaemonSnapshot {
  containers: Set<string>;
  images: Set<string>;
  volumes: Set<string>;
  networks: Set<string>;
  plugins: Set<string>;
  services: Set<string>;
}

/** A listing the target does not serve (404, or an older API) counts as empty. */
async function listed<T>(engine: EngineClient, path: string, query: Record<string, string | number>, keys: (body: T) => string[]): Promise<Set<string>> {
  const res = await engine.get(path, { query });
  return res.status === 200 ? new Set(keys(res.json<T>())) : new Set();
}

export async function snapshotDaemon(engine: EngineClient): Promise<DaemonSnapshot> {
  // Volumes, networks, plugins and services are listed unversioned: their endpoints start after the oldest version we check.
  const current = engine.unversioned('a listing of the daemon, not a check');
  const [containers, images, volumes, networks, plugins, services] = await Promise.all([
    listed<{ Id: string }[]>(engine, '/containers/json', { all: 1 }, (items) => items.map((item) => item.Id)),
    listed<{ Id: string }[]>(engine, '/images/json', { all: 1 }, (items) => items.map((item) => item.Id)),
    listed<{ Volumes: { Name: string }[] | null }>(current, '/volumes', {}, (body) => (body.Volumes ?? []).map((volume) => volume.Name)),
    listed<{ Id: string }[]>(current, '/networks', {}, (items) => items.map((item) => item.Id)),
    listed<{ Id: string }[]>(current, '/plugins', {}, (items) => items.map((item) => item.Id)),
    // Outside a swarm the list answers 503: no services.
    listed<{ ID: string }[]>(current, '/services', {}, (items) => items.map((item) => item.ID)),
  ]);
  return { containers, images, volumes, networks, plugins, services };
}

/** Each object present now that was not there before, as `container 0123456789ab`. */
export function objectsAddedSince(before: DaemonSnapshot, after: DaemonSnapshot): string[] {
  const added = (kind: keyof DaemonSnapshot) =>
    [...after[kind]].filter((id) => !before[kind].has(id)).map((id) => `${kind.slice(0, -1)} ${id.replace(/^sha256:/, '').slice(0, 12)}`);
  return [...added('containers'), ...added('images'), ...added('volumes'), ...added('networks'), ...added('plugins'), ...added('services')];
}

const NAMED = 6;

/**
 * What a live run says of the objects its checks did not remove: one line for those the end of the run
 * removed (a check's own bug, or a run cut short mid-check), and a line for each still on the target.
 */
export function leftoverLines(leftByChecks: readonly string[], stillThere: readonly string[]): string[] {
  const removed = leftByChecks.filter((object) => !stillThere.includes(object));
  const more = removed.length > NAMED ? ` and ${removed.length - NAMED} more` : '';
  return [
    ...(removed.length > 0 ? [`the checks left ${removed.length} object${removed.length === 1 ? '' : 's'}, removed when the run ended: ${removed.slice(0, NAMED).join(', ')}${more}`] : []),
    ...stillThere.map((object) => `${object} is still on the target`),
  ];
}
