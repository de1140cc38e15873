/**
 * What leftover removal (run end, Ctrl-C, `shipshape cleanup`) does to plugins, against the reference:
 * a run's plugins (named by it, enabled or not) go; another run's go only when every run's are asked
 * for; nobody else's ever.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { EngineClient } from '../../../harness/client/engine-client.ts';
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
