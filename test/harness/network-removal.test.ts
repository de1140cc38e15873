/**
 * Networks a check or a run made go with it, against the reference as the daemon: a tracked network
 * is removed even with a running container still on it, and leftover removal takes the networks a
 * run labelled or named, and nobody else's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { ResourceTracker, RUN_LABEL } from '../../harness/resources.ts';
import { removeLeftovers } from '../../harness/run/leftover-removal.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';

const RUN = '0a1b2c3d';
const OTHER_RUN = 'deadbeef';

let reference: RunningReference;
let engine: EngineClient;

beforeAll(async () => {
  reference = await startReference({ scheduler: new ManualScheduler() });
  const connection = { origin: reference.engineUrl.replace(/^tcp:/, 'http:') };
  engine = new EngineClient(connection, createDispatcher(connection), undefined);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function network(Name: string, Labels: Record<string, string> = {}): Promise<string> {
  const res = await engine.post('/networks/create', { json: { Name, Labels } });
  expect(res.status, res.describe()).toBe(201);
  return res.json<{ Id: string }>().Id;
}

async function names(): Promise<string[]> {
  return (await engine.get('/networks')).json<{ Name: string }[]>().map((listed) => listed.Name);
}

describe('ResourceTracker.network', () => {
  test('disconnects what is still on the network, then removes it', async () => {
    const make = new ResourceTracker(engine, RUN);
    const id = await network(make.uniqueName('n'));
    const container = await make.container({ Image: 'busybox', Cmd: ['sleep', '300'] });
    expect((await engine.post(`/containers/${container}/start`)).status).toBe(204);
    expect((await engine.post(`/networks/${id}/connect`, { json: { Container: container } })).status).toBe(200);
    // The network goes before the container, as when a check connected a container it made before the network.
    const tracker = new ResourceTracker(engine, RUN);
    tracker.network(id);
    expect(await tracker.cleanup()).toEqual([]);
    expect((await engine.get(`/networks/${id}`)).status).toBe(404);
    expect(await make.cleanup()).toEqual([]);
  });
});

describe('removeLeftovers', () => {
  test("removes the networks labelled with the run or named by it, and leaves everyone else's", async () => {
    await network('plain');
    await network(`shipshape-${RUN}-n-abc123`);
    await network('labelled', { [RUN_LABEL]: RUN });
    await network('other-run', { [RUN_LABEL]: OTHER_RUN });
    await network(`shipshape-${OTHER_RUN}-n-def456`);
    const removal = await removeLeftovers(engine, RUN);
    expect(removal.failed).toEqual([]);
    expect(await names()).toEqual(['none', 'host', 'bridge', 'plain', 'other-run', `shipshape-${OTHER_RUN}-n-def456`]);
    await removeLeftovers(engine);
    expect(await names()).toEqual(['none', 'host', 'bridge', 'plain']);
  });
});
