/**
 * The swarm over HTTP: the reference started outside a swarm (`swarm: false`), as dockerd starts, answers the swarm
 * endpoints with 503 (in the version's error body) and showing an inactive Swarm section from 1.24;
 * init, join, leave, update, the unlock key and node updates as dockerd 20.10 answers them; started
 * with `swarm: true` it is a manager whose services and secrets follow dockerd's rules.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { until } from '../../../harness/wait-until.ts';
import { ALREADY_IN_A_SWARM, LAST_MANAGER_LEAVING, NOT_A_MANAGER, NOT_IN_A_SWARM } from '../../../reference/engine/model/swarm/swarm-cluster.ts';
import { startReference, type RunningReference } from '../../../reference/serve.ts';

let reference: RunningReference | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

async function served(swarm: boolean): Promise<(path: string, init?: RequestInit) => Promise<Response>> {
  reference = await startReference({ swarm });
  const origin = reference.engineUrl.replace(/^tcp:/, 'http:');
  return (path, init) => fetch(`${origin}${path}`, init);
}

describe('outside a swarm (swarm: false)', () => {
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

describe('a swarm manager (swarm: true)', () => {
  test('a service is created (201 {ID}), updated at its version (200), and refused at a stale one (500)', async () => {
    const request = await served(true);
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
    const request = await served(true);
    const res = await request('/v1.25/services/create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect([res.status, await res.json()]).toEqual([400, { message }]);
  });
});

/** A JSON request of `method` (POST unless told). */
function json(body: unknown, method = 'POST'): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

async function answer(res: Response): Promise<[number, unknown]> {
  const text = await res.text();
  return [res.status, text === '' ? '' : JSON.parse(text)];
}

const INIT = { ListenAddr: '127.0.0.1:4567', AdvertiseAddr: '127.0.0.1' };

describe('the swarm lifecycle, as dockerd 20.10 answers it', () => {
  test('init answers the node id; a second init and a join are 503; a leave without force is 503, with force 200, and then the node is outside again', async () => {
    const request = await served(false);
    expect(await answer(await request('/v1.25/swarm/leave', { method: 'POST' }))).toEqual([503, { message: NOT_IN_A_SWARM }]);
    expect(await answer(await request('/v1.25/swarm/init', json({})))).toEqual([400, { message: 'invalid ListenAddr "": invalid empty address' }]);
    const [status, nodeId] = await answer(await request('/v1.25/swarm/init', json(INIT)));
    expect([status, nodeId]).toEqual([200, expect.stringMatching(/^[0-9a-z]{25}$/)]);
    const info = (await (await request('/v1.25/info')).json()) as { Swarm: { NodeID: string; LocalNodeState: string; RemoteManagers: unknown } };
    expect(info.Swarm).toMatchObject({ NodeID: nodeId, LocalNodeState: 'active', RemoteManagers: [{ NodeID: nodeId, Addr: '127.0.0.1:4567' }] });
    expect(await answer(await request('/v1.25/swarm/init', json(INIT)))).toEqual([503, { message: ALREADY_IN_A_SWARM }]);
    const { JoinTokens } = (await (await request('/v1.25/swarm')).json()) as { JoinTokens: { Worker: string } };
    expect(await answer(await request('/v1.25/swarm/join', json({ ...INIT, RemoteAddrs: ['127.0.0.1:4567'], JoinToken: JoinTokens.Worker })))).toEqual([503, { message: ALREADY_IN_A_SWARM }]);
    expect(await answer(await request('/v1.25/swarm/leave?force=false', { method: 'POST' }))).toEqual([503, { message: LAST_MANAGER_LEAVING }]);
    expect(await answer(await request('/v1.25/swarm/leave?force=1', { method: 'POST' }))).toEqual([200, '']);
    expect(((await (await request('/v1.25/info')).json()) as typeof info).Swarm.LocalNodeState).toBe('inactive');
  });

  test('a join outside a swarm checks its request as dockerd does, then cannot reach the manager it names (503)', async () => {
    const request = await served(false);
    const token = `SWMTKN-1-${'a'.repeat(50)}-${'b'.repeat(25)}`;
    expect(await answer(await request('/v1.25/swarm/join', json({})))).toEqual([400, { message: 'invalid ListenAddr "": invalid empty address' }]);
    expect(await answer(await request('/v1.25/swarm/join', json({ ListenAddr: '127.0.0.1:4567' })))).toEqual([400, { message: 'at least 1 RemoteAddr is required to join' }]);
    expect(await answer(await request('/v1.25/swarm/join', json({ ListenAddr: '127.0.0.1:4567', RemoteAddrs: ['127.0.0.1:1'], JoinToken: 'x' })))).toEqual([500, { message: 'invalid join token' }]);
    const [status] = await answer(await request('/v1.25/swarm/join', json({ ListenAddr: '127.0.0.1:4567', RemoteAddrs: ['127.0.0.1:1'], JoinToken: token })));
    expect(status).toBe(503);
  });

  test('leaving takes the services, their task containers, the secrets and the swarm networks with it', async () => {
    const request = await served(true);
    const secret = (await (await request('/v1.25/secrets/create', json({ Name: 's', Data: 'aGVsbG8=' }))).json()) as { ID: string };
    const spec = { Name: 'web', TaskTemplate: { ContainerSpec: { Image: 'busybox', Command: ['sleep', '300'], Secrets: [{ SecretID: secret.ID, SecretName: 's', File: { Name: 's' } }] } } };
    expect((await request('/v1.25/services/create', json(spec))).status).toBe(201);
    expect((await request('/v1.25/networks/create', json({ Name: 'ov', Driver: 'overlay' }))).status).toBe(201);
    expect(reference?.model.containers.list({ all: true })).toHaveLength(1);
    expect((await request('/v1.25/swarm/leave?force=1', { method: 'POST' })).status).toBe(200);
    await until(() => Promise.resolve(reference?.model.containers.list({ all: true }).length), (count) => count === 0, { timeoutMs: 5_000, intervalMs: 20, what: 'the task container to go' });
    expect((await request('/v1.25/networks/ov')).status).toBe(404);
    expect((await request('/v1.25/swarm/init', json(INIT))).status).toBe(200);
    expect([await (await request('/v1.25/services')).json(), await (await request('/v1.25/secrets')).json()]).toEqual([[], []]);
  });

  test('an update takes the spec as given at the swarm\'s version (its name stays), rotates tokens and the unlock key as asked; a stale or missing version is refused', async () => {
    const request = await served(true);
    const before = (await (await request('/v1.25/swarm')).json()) as { Version: { Index: number }; JoinTokens: { Worker: string; Manager: string } };
    expect(await answer(await request('/v1.25/swarm/unlockkey'))).toEqual([200, { UnlockKey: '' }]);
    const spec = { Name: 'other', Labels: { a: 'b' }, Raft: { SnapshotInterval: 5000 }, Orchestration: { TaskHistoryRetentionLimit: 7 }, EncryptionConfig: { AutoLockManagers: true } };
    expect((await request(`/v1.25/swarm/update?version=${before.Version.Index}&rotateWorkerToken=true`, json(spec))).status).toBe(200);
    const after = (await (await request('/v1.25/swarm')).json()) as typeof before & { Spec: unknown };
    // What the update left out is zero, and dockerd leaves out the zeros Go omits.
    expect(after.Spec).toEqual({ Name: 'default', Labels: { a: 'b' }, Orchestration: { TaskHistoryRetentionLimit: 7 }, Raft: { SnapshotInterval: 5000, KeepOldSnapshots: 0, ElectionTick: 0, HeartbeatTick: 0 }, Dispatcher: {}, CAConfig: {}, TaskDefaults: {}, EncryptionConfig: { AutoLockManagers: true } });
    expect([after.JoinTokens.Worker === before.JoinTokens.Worker, after.JoinTokens.Manager === before.JoinTokens.Manager]).toEqual([false, true]);
    const key = ((await (await request('/v1.25/swarm/unlockkey')).json()) as { UnlockKey: string }).UnlockKey;
    expect(key).toMatch(/^SWMKEY-1-[A-Za-z0-9+/]{43}$/);
    expect(await answer(await request(`/v1.25/swarm/update?version=${before.Version.Index}`, json(spec)))).toEqual([500, { message: 'rpc error: code = Unknown desc = update out of sequence' }]);
    expect(await answer(await request('/v1.25/swarm/update', json(spec)))).toEqual([400, { message: 'invalid swarm version \'\': strconv.ParseUint: parsing "": invalid syntax' }]);
    expect(await answer(await request('/v1.25/swarm/unlock', json({ UnlockKey: key })))).toEqual([409, { message: 'swarm is not locked' }]);
  });

  test('init fills what its spec leaves unset with swarmkit\'s defaults, and refuses a swarm not named default', async () => {
    const request = await served(false);
    expect(await answer(await request('/v1.25/swarm/init', json({ ...INIT, Spec: { Name: 'x' } })))).toEqual([400, { message: 'swarm spec must be named "default"' }]);
    expect((await request('/v1.25/swarm/init', json({ ...INIT, Spec: { Raft: { SnapshotInterval: 2000 }, Labels: { l: '1' } } }))).status).toBe(200);
    const { Spec } = (await (await request('/v1.25/swarm')).json()) as { Spec: { Raft: unknown; Labels: unknown; Orchestration: unknown } };
    expect([Spec.Raft, Spec.Labels, Spec.Orchestration]).toEqual([{ SnapshotInterval: 2000, KeepOldSnapshots: 0, LogEntriesForSlowFollowers: 500, ElectionTick: 10, HeartbeatTick: 1 }, { l: '1' }, { TaskHistoryRetentionLimit: 5 }]);
  });

  test('a node update at the node\'s version keeps its labels and name; an unknown role or availability is 400; the last manager is not demoted', async () => {
    const request = await served(true);
    const [node] = (await (await request('/v1.25/nodes')).json()) as { ID: string; Version: { Index: number } }[];
    const update = (version: number, spec: unknown) => request(`/v1.25/nodes/${node?.ID}/update?version=${version}`, json(spec));
    const version = node?.Version.Index ?? 0;
    expect(await answer(await update(version, { Role: 'boss', Availability: 'active' }))).toEqual([400, { message: 'invalid Role: "boss"' }]);
    expect(await answer(await update(version, { Role: 'manager', Availability: 'sleep' }))).toEqual([400, { message: 'invalid Availability: "sleep"' }]);
    expect(await answer(await update(version, { Role: 'worker', Availability: 'active' }))).toEqual([400, { message: 'rpc error: code = FailedPrecondition desc = attempting to demote the last manager of the swarm' }]);
    expect((await update(version, { Name: 'n1', Labels: { k: 'v' }, Role: 'manager', Availability: 'drain' })).status).toBe(200);
    const updated = (await (await request(`/v1.25/nodes/${node?.ID}`)).json()) as { Spec: unknown; Version: { Index: number } };
    expect(updated.Spec).toEqual({ Name: 'n1', Labels: { k: 'v' }, Role: 'manager', Availability: 'drain' });
    expect(await answer(await update(version, { Role: 'manager', Availability: 'active' }))).toEqual([500, { message: 'rpc error: code = Unknown desc = update out of sequence' }]);
  });
});

describe('secrets, as dockerd 20.10 answers them', () => {
  test('create, inspect without data, a name taken, bad data, list filters, update of labels only, removal refused while a service uses it', async () => {
    const request = await served(true);
    const [status, created] = await answer(await request('/v1.25/secrets/create', json({ Name: 'db-pass', Labels: { tier: 'db' }, Data: 'aGVsbG8=' })));
    expect(status).toBe(201);
    const id = (created as { ID: string }).ID;
    expect(await (await request('/v1.25/secrets/db-pass')).json()).toMatchObject({ ID: id, Spec: { Name: 'db-pass', Labels: { tier: 'db' } } });
    expect(((await (await request(`/v1.25/secrets/${id}`)).json()) as { Spec: object }).Spec).not.toHaveProperty('Data');
    expect(await answer(await request('/v1.25/secrets/create', json({ Name: 'db-pass', Data: 'aGVsbG8=' })))).toEqual([409, { message: 'rpc error: code = AlreadyExists desc = secret db-pass already exists' }]);
    expect((await request('/v1.25/secrets/create', json({ Name: 'empty' }))).status).toBe(400);
    expect(await answer(await request('/v1.25/secrets/create', json({ Name: 'bad', Data: '!!' })))).toEqual([400, { message: 'illegal base64 data at input byte 0' }]);
    expect(await answer(await request('/v1.25/secrets/create', json({ Name: 'bad name!', Data: 'aGVsbG8=' })))).toEqual([400, { message: expect.stringContaining('invalid name') }]);
    expect((await request('/v1.25/secrets/create', json({ Name: 'web-key', Labels: { tier: 'web' }, Data: 'aGVsbG8=' }))).status).toBe(201);
    const listed = async (filters: object) => ((await (await request(`/v1.25/secrets?filters=${encodeURIComponent(JSON.stringify(filters))}`)).json()) as { Spec: { Name: string } }[]).map((secret) => secret.Spec.Name).sort();
    expect([await listed({ names: ['db-pass'] }), await listed({ names: ['db'] }), await listed({ name: ['db'] }), await listed({ label: ['tier'] }), await listed({ label: ['tier=web'] }), await listed({ id: [id.slice(0, 8)] })])
      .toEqual([['db-pass'], [], ['db-pass'], ['db-pass', 'web-key'], ['web-key'], ['db-pass']]);
    expect(await answer(await request('/v1.25/secrets?filters={"nope":["x"]}'))).toEqual([400, { message: 'Invalid filter \'nope\'' }]);
    const { Version } = (await (await request(`/v1.25/secrets/${id}`)).json()) as { Version: { Index: number } };
    expect(await answer(await request(`/v1.25/secrets/${id}/update?version=${Version.Index}`, json({ Name: 'renamed' })))).toEqual([400, { message: 'rpc error: code = InvalidArgument desc = only updates to Labels are allowed' }]);
    expect(await answer(await request(`/v1.25/secrets/${id}/update`, json({ Name: 'db-pass' })))).toEqual([400, { message: 'invalid secret version' }]);
    expect((await request(`/v1.25/secrets/${id}/update?version=${Version.Index}`, json({ Name: 'db-pass', Labels: { changed: 'yes' } }))).status).toBe(200);
    expect(((await (await request(`/v1.25/secrets/${id}`)).json()) as { Spec: { Labels: unknown } }).Spec.Labels).toEqual({ changed: 'yes' });
    const secretReference = { SecretID: id, SecretName: 'db-pass', File: { Name: 'pass', UID: '0', GID: '0', Mode: 292 } };
    const spec = { Name: 'app', TaskTemplate: { ContainerSpec: { Image: 'busybox', Command: ['sleep', '300'], Secrets: [secretReference] } } };
    expect((await request('/v1.25/services/create', json(spec))).status).toBe(201);
    const [taskContainer] = reference?.model.containers.list({ all: true }) ?? [];
    expect(taskContainer?.filesystem.readFile('/run/secrets/pass').toString()).toBe('hello');
    expect(await answer(await request(`/v1.25/secrets/${id}`, { method: 'DELETE' }))).toEqual([400, { message: 'rpc error: code = InvalidArgument desc = secret \'db-pass\' is in use by the following service: app' }]);
    expect((await request('/v1.25/services/app', { method: 'DELETE' })).status).toBe(200);
    expect((await request(`/v1.25/secrets/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await answer(await request(`/v1.25/secrets/${id}`))).toEqual([404, { message: `secret ${id} not found` }]);
  });

  test.each([
    ['no id', { SecretName: 's', File: { Name: 'f' } }, 'rpc error: code = InvalidArgument desc = malformed secret reference'],
    ['no file target', { SecretID: 'x', SecretName: 's' }, 'rpc error: code = InvalidArgument desc = malformed secret reference, no target provided'],
    ['a secret the swarm lacks', { SecretID: 'x', SecretName: 'nope', File: { Name: 'f' } }, 'rpc error: code = InvalidArgument desc = secret not found: nope'],
  ])('a service naming a secret with %s is refused with 400', async (_, secretReference, message) => {
    const request = await served(true);
    const spec = { Name: 'x', TaskTemplate: { ContainerSpec: { Image: 'busybox', Secrets: [secretReference] } } };
    expect(await answer(await request('/v1.25/services/create', json(spec)))).toEqual([400, { message }]);
  });
});

describe('services, as dockerd 20.10 keeps and runs them', () => {
  test('the 1.25 ContainerSpec fields, ForceUpdate and the networks (by id) are kept; create answers the digest warning, update the spec\'s empty 200', async () => {
    const request = await served(true);
    const network = (await (await request('/v1.25/networks/create', json({ Name: 'ov', Driver: 'overlay' }))).json()) as { Id: string };
    const containerSpec = { Image: 'busybox', Command: ['sleep', '300'], Hostname: 'h', Groups: ['wheel'], TTY: true, Hosts: ['10.0.0.1 db'], DNSConfig: { Nameservers: ['10.0.0.53'] }, Healthcheck: { Test: ['CMD', 'true'] } };
    const spec = { Name: 'web', TaskTemplate: { ContainerSpec: containerSpec, Networks: [{ Target: 'ov', Aliases: ['a'] }], ForceUpdate: 2 } };
    const [status, created] = await answer(await request('/v1.25/services/create', json(spec)));
    expect([status, (created as { Warnings: string[] }).Warnings]).toEqual([201, [expect.stringContaining('image busybox could not be accessed on a registry')]]);
    const service = (await (await request('/v1.25/services/web')).json()) as { Version: { Index: number }; Spec: { TaskTemplate: { ContainerSpec: object; Networks: unknown; ForceUpdate: number } } };
    expect(service.Spec.TaskTemplate.ContainerSpec).toMatchObject(containerSpec);
    expect([service.Spec.TaskTemplate.Networks, service.Spec.TaskTemplate.ForceUpdate]).toEqual([[{ Target: network.Id, Aliases: ['a'] }], 2]);
    // the update answers the spec's empty text/plain (spec/2 §4.6), not dockerd's JSON Warnings
    const updated = await request(`/v1.25/services/web/update?version=${service.Version.Index}`, json(spec));
    expect([updated.status, updated.headers.get('content-type'), await updated.text()]).toEqual([200, 'text/plain; charset=utf-8', '']);
    expect(await answer(await request('/v1.25/networks/ov', { method: 'DELETE' }))).toEqual([400, { message: expect.stringContaining('is in use by service') }]);
    expect(await answer(await request('/v1.25/services/create', json({ ...spec, Name: 'lost', TaskTemplate: { ...spec.TaskTemplate, Networks: [{ Target: 'nope' }] } })))).toEqual([500, { message: 'network nope not found' }]);
  });

  test('a Mode in lower case (as the Python SDK sends it) scales; a change between replicated and global is refused with the row\'s 500 (dockerd: 501)', async () => {
    const request = await served(true);
    const spec = { Name: 'web', TaskTemplate: { ContainerSpec: { Image: 'busybox', Command: ['sleep', '300'] } }, Mode: { replicated: { Replicas: 2 } } };
    expect((await request('/v1.25/services/create', json(spec))).status).toBe(201);
    const running = async () => ((await (await request('/v1.25/tasks?filters={"desired-state":["running"]}')).json()) as unknown[]).length;
    await until(running, (count) => count === 2, { timeoutMs: 5_000, intervalMs: 20, what: '2 tasks' });
    const { Version } = (await (await request('/v1.25/services/web')).json()) as { Version: { Index: number } };
    expect(await answer(await request(`/v1.25/services/web/update?version=${Version.Index}`, json({ ...spec, Mode: { Global: {} } })))).toEqual([500, { message: 'rpc error: code = Unimplemented desc = service mode change is not allowed' }]);
    expect((await request(`/v1.25/services/web/update?version=${Version.Index}`, json({ ...spec, Mode: { replicated: { Replicas: 3 } } }))).status).toBe(200);
    await until(running, (count) => count === 3, { timeoutMs: 5_000, intervalMs: 20, what: '3 tasks' });
  });
});
