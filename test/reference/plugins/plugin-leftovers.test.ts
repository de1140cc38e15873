/**
 * What a check's tracking and leftover removal (run end, Ctrl-C, `shipshape cleanup`) do to plugins,
 * against the reference: a tracked plugin goes, enabled or not, and one already gone is no leftover;
 * a run's plugins (named by it) go; another run's go only when every run's are asked for; nobody
 * else's ever.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { EngineClient } from '../../../harness/client/engine-client.ts';
import { ResourceTracker } from '../../../harness/resources.ts';
import { removeLeftovers } from '../../../harness/run/leftover-removal.ts';
import { startReference, type RunningReference } from '../../../reference/serve.ts';
import { engineClientOf } from '../reference-engine-client.ts';

const RUN = '0a1b2c3d';
const OTHER_RUN = 'deadbeef';

let reference: RunningReference;
let engine: EngineClient;
let closeClient: () => Promise<void>;

beforeAll(async () => {
  reference = await startReference();
  ({ engine, close: closeClient } = engineClientOf(reference));
});
afterAll(async () => {
  await closeClient();
  await reference.close();
});
beforeEach(() => reference.reset());

async function plugin(name: string): Promise<void> {
  expect((await engine.post('/plugins/pull', { query: { remote: 'vieux/sshfs', name } })).status).toBe(200);
}

async function pluginNames(): Promise<string[]> {
  return (await engine.get('/plugins')).json<{ Name: string }[]>().map((item) => item.Name).sort();
}

test("removes the run's plugins, enabled or not, and nothing of anyone else", async () => {
  await plugin(`shipshape-${RUN}-p-abc123`);
  await plugin(`shipshape-${RUN}-p-def456`);
  expect((await engine.post(`/plugins/shipshape-${RUN}-p-def456/enable`)).status).toBe(200);
  await plugin(`shipshape-${OTHER_RUN}-p-abc123`);
  await plugin('someone');
  const removal = await removeLeftovers(engine, RUN);
  expect(removal.failed).toEqual([]);
  expect(removal.removed).toEqual([`plugin shipshape-${RUN}-p-abc123`, `plugin shipshape-${RUN}-p-def456`]);
  expect(await pluginNames()).toEqual([`shipshape-${OTHER_RUN}-p-abc123`, 'someone']);
  await removeLeftovers(engine);
  expect(await pluginNames()).toEqual(['someone']);
});

test('a tracked plugin is removed, enabled or not; one already removed leaves nothing behind', async () => {
  await plugin('tracked-enabled');
  await plugin('tracked');
  expect((await engine.post('/plugins/tracked-enabled/enable')).status).toBe(200);
  const make = new ResourceTracker(engine, RUN);
  for (const name of ['tracked-enabled', 'tracked', 'never-pulled']) make.plugin(name);
  expect(await make.cleanup()).toEqual([]);
  expect(await pluginNames()).toEqual([]);
});
