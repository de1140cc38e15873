/**
 * What a live daemon holds before a run, to prove after it that the run left nothing behind.
 * Only objects that appeared are reported: others may come and go under a shared daemon.
 */
import type { EngineClient } from '../client/engine-client.ts';

export interface DaemonSnapshot {
  containers: Set<string>;
  images: Set<string>;
}

async function ids(engine: EngineClient, path: string, query: Record<string, string | number>): Promise<Set<string>> {
  const res = await engine.get(path, { query });
  if (res.status !== 200) return new Set();
  return new Set(res.json<{ Id: string }[]>().map((item) => item.Id));
}

export async function snapshotDaemon(engine: EngineClient): Promise<DaemonSnapshot> {
  const [containers, images] = await Promise.all([ids(engine, '/containers/json', { all: 1 }), ids(engine, '/images/json', { all: 1 })]);
  return { containers, images };
}

/** One line per object present now that was not there before. */
export function leftoversSince(before: DaemonSnapshot, after: DaemonSnapshot): string[] {
  const added = (kind: string, was: Set<string>, now: Set<string>) =>
    [...now].filter((id) => !was.has(id)).map((id) => `${kind} ${id.replace(/^sha256:/, '').slice(0, 12)} was left on the target`);
  return [...added('container', before.containers, after.containers), ...added('image', before.images, after.images)];
}
