/**
 * Services a check or a run made go with it, against the reference as the daemon (real time, so that
 * stops take their grace period): a tracked service is removed and its task containers are gone when
 * the removal returns; leftover removal takes the services labelled with the run, and nobody else's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { ResourceTracker, RUN_LABEL } from '../../harness/resources.ts';
import { removeLeftovers } from '../../harness/run/leftover-removal.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';

const RUN = '0a1b2c3d';
const OTHER_RUN = 'deadbeef';

let reference: RunningReference;
let engine: EngineClient;

beforeAll(async () => {
  reference = await startReference({ swarm: true });
  const connection = { origin: reference.engineUrl.replace(/^tcp:/, 'http:') };
  engine = new EngineClient(connection, createDispatcher(connection), undefined);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

/** Two replicas of `sleep 300` that stop within 100 ms. */
function spec(Name: string, Labels: Record<string, string> = {}): Record<string, unknown> {
  return { Name, Labels, TaskTemplate: { ContainerSpec: { Image: 'busybox', Command: ['sleep', '300'], StopGracePeriod: 100_000_000 } }, Mode: { Replicated: { Replicas: 2 } } };
}

async function serviceNames(): Promise<string[]> {
  return (await engine.get('/services')).json<{ Spec: { Name: string } }[]>().map((listed) => listed.Spec.Name).sort();
}

async function containerCount(): Promise<number> {
  return (await engine.get('/containers/json', { query: { all: 1 } })).json<unknown[]>().length;
}

describe('ResourceTracker.service', () => {
  test('labels the service with the run; its removal leaves neither the service nor its task containers', async () => {
    const make = new ResourceTracker(engine, RUN);
    const id = await make.service(spec('web'));
    expect((await engine.get(`/services/${id}`)).json<{ Spec: { Labels: Record<string, string> } }>().Spec.Labels).toEqual({ [RUN_LABEL]: RUN });
    expect(await containerCount()).toBe(2);
    expect(await make.cleanup()).toEqual([]);
    expect([await serviceNames(), await containerCount()]).toEqual([[], 0]);
  });
});

describe('removeLeftovers', () => {
  test("removes the services labelled with the run, with their containers, and leaves everyone else's", async () => {
    for (const [name, labels] of [['plain', {}], ['ours', { [RUN_LABEL]: RUN }], ['other-run', { [RUN_LABEL]: OTHER_RUN }]] as const) {
      expect((await engine.post('/services/create', { json: spec(name, labels) })).status).toBe(201);
    }
    const removal = await removeLeftovers(engine, RUN);
    expect(removal).toEqual({ removed: ['service ours'], failed: [] });
    expect([await serviceNames(), await containerCount()]).toEqual([['other-run', 'plain'], 4]);
  });
});
