/**
 * The swarm over HTTP: a reference started with `swarm: false` answers the swarm endpoints as
 * dockerd outside a swarm (503, in the version's error body) and shows an inactive Swarm section from
 * 1.24; the default reference is a swarm manager whose services take updates at their version only.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { NOT_A_MANAGER } from '../../../reference/engine/model/swarm-cluster.ts';
import { startReference, type RunningReference } from '../../../reference/serve.ts';

let reference: RunningReference | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

async function served(swarm?: boolean): Promise<(path: string, init?: RequestInit) => Promise<Response>> {
  reference = await startReference(swarm === undefined ? {} : { swarm });
  const origin = reference.engineUrl.replace(/^tcp:/, 'http:');
  return (path, init) => fetch(`${origin}${path}`, init);
}

describe('outside a swarm', () => {
  test('the swarm endpoints answer 503 with dockerd\'s message, JSON from 1.24 and plain text before', async () => {
    const get = await served(false);
    for (const path of ['/v1.24/services', '/v1.25/tasks', '/v1.24/swarm', '/v1.24/nodes']) {
      const res = await get(path);
      expect([path, res.status, await res.json()]).toEqual([path, 503, { message: NOT_A_MANAGER }]);
    }
    const old = await get('/v1.23/services');
    expect([old.status, await old.text()]).toEqual([503, `${NOT_A_MANAGER}\n`]);
  });

  test('/info shows an inactive Swarm section from 1.24, and none before', async () => {
    const get = await served(false);
    expect(((await (await get('/v1.24/info')).json()) as { Swarm: unknown }).Swarm).toEqual({ NodeID: '', NodeAddr: '', LocalNodeState: 'inactive', ControlAvailable: false, Error: '', RemoteManagers: null });
    expect(await (await get('/v1.23/info')).json()).not.toHaveProperty('Swarm');
  });
});

describe('a swarm manager (the default)', () => {
  test('a service is created (201 {ID}), updated at its version (200), and refused at a stale one (500)', async () => {
    const request = await served();
    const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const spec = { Name: 'web', TaskTemplate: { ContainerSpec: { Image: 'busybox', Command: ['sleep', '300'] } } };
    const created = await request('/v1.25/services/create', json(spec));
    expect(created.status).toBe(201);
    const { ID } = (await created.json()) as { ID: string };
    const { Version } = (await (await request(`/v1.25/services/${ID}`)).json()) as { Version: { Index: number } };
    expect((await request(`/v1.25/services/${ID}/update?version=${Version.Index}`, json({ ...spec, Labels: { a: '1' } }))).status).toBe(200);
    const stale = await request(`/v1.25/services/${ID}/update?version=${Version.Index}`, json({ ...spec, Labels: { a: '2' } }));
    expect([stale.status, await stale.json()]).toEqual([500, { message: 'rpc error: code = Unknown desc = update out of sequence' }]);
    expect((await request(`/v1.25/services/${ID}/update`, json(spec))).status).toBe(400);
  });

  test.each([
    ['no TaskTemplate', { Name: 'x' }, 'mismatched Runtime and *Spec fields'],
    ['no image', { Name: 'x', TaskTemplate: { ContainerSpec: {} } }, 'rpc error: code = InvalidArgument desc = ContainerSpec: image reference must be provided'],
    ['an unknown restart condition', { Name: 'x', TaskTemplate: { ContainerSpec: { Image: 'busybox' }, RestartPolicy: { Condition: 'sometimes' } } }, 'invalid RestartCondition: "sometimes"'],
    ['negative replicas', { Name: 'x', TaskTemplate: { ContainerSpec: { Image: 'busybox' } }, Mode: { Replicated: { Replicas: -1 } } }, 'json: cannot unmarshal number -1 into Go struct field ReplicatedService.Mode.Replicated.Replicas of type uint64'],
  ])('a create body with %s is refused with 400', async (_, body, message) => {
    const request = await served();
    const res = await request('/v1.25/services/create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect([res.status, await res.json()]).toEqual([400, { message }]);
  });
});
