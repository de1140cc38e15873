/**
 * The engine API over a real server (startReference on 127.0.0.1:0): routing, versions, error
 * formats and the shapes each version shows.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Call } from './http-client.ts';

const CLOCK = new Date('2024-03-01T12:00:00.123Z');

let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  let next = 0;
  reference = await startReference({ clock: () => CLOCK, ids: () => (++next).toString(16).padStart(64, 'c') });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function create(name: string, version = '', config: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', `${version}/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['true'], ...config } });
  expect(res.status, res.text).toBe(201);
  return res.json<{ Id: string }>().Id;
}

describe('ping', () => {
  test('GET /_ping answers OK in plain text with dockerd headers', async () => {
    const res = await call('GET', '/_ping');
    expect(res.status).toBe(200);
    expect(res.text).toBe('OK');
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'api-version': '1.25',
      'docker-experimental': 'false',
      'cache-control': 'no-cache, no-store, must-revalidate',
      pragma: 'no-cache',
      server: 'Shipshape-Reference/1.13.0-shipshape (linux)',
    });
  });

  test('HEAD /_ping has no body but the length of one', async () => {
    const res = await call('HEAD', '/_ping');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['content-length']).toBe('2');
  });
});

describe('versions and errors', () => {
  test('a version newer than 1.25 is 400, with a JSON body as that version would have', async () => {
    const res = await call('GET', '/v1.26/version');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ message: 'client version 1.26 is too new. Maximum supported API version is 1.25' });
  });

  test('a version older than 1.18 is 400, in plain text', async () => {
    const res = await call('GET', '/v1.17/version');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('client version 1.17 is too old. Minimum supported API version is 1.18, please upgrade your client to a newer version\n');
  });

  test.each(['/nope', '/v1.24/nope', '/v1.26/nope', '/vabc/info', '/v1.25'])('unknown route %s is 404', async (path) => {
    expect((await call('GET', path)).status).toBe(404);
  });

  test('a known path under another method is 404 too', async () => {
    expect((await call('POST', '/info')).status).toBe(404);
    expect((await call('DELETE', '/containers/json')).status).toBe(404);
  });

  test('error bodies: plain text with a newline before 1.24, {"message"} JSON from 1.24 and unprefixed', async () => {
    const old = await call('GET', '/v1.23/containers/ghost/json');
    expect([old.status, old.headers['content-type'], old.text]).toEqual([404, 'text/plain; charset=utf-8', 'No such container: ghost\n']);
    for (const prefix of ['/v1.24', '']) {
      const res = await call('GET', `${prefix}/containers/ghost/json`);
      expect([res.status, res.headers['content-type'], res.json()]).toEqual([404, 'application/json', { message: 'No such container: ghost' }]);
    }
  });

  test('every answer carries Api-Version and Server, errors included', async () => {
    const res = await call('GET', '/v1.20/nope');
    expect(res.headers['api-version']).toBe('1.25');
    expect(res.headers.server).toMatch(/^Shipshape-Reference\//);
  });
});

describe('GET /version', () => {
  test('the server identity, the same under any prefix', async () => {
    const res = await call('GET', '/version');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const body = res.json();
    expect(body).toMatchObject({ Version: '1.13.0-shipshape', ApiVersion: '1.25', MinAPIVersion: '1.18', Os: 'linux', Experimental: false });
    expect(body.BuildTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect((await call('GET', '/v1.18/version')).json()).toEqual(body);
  });
});

describe('GET /info', () => {
  const SPEC_FIELDS = [
    'Architecture', 'ClusterStore', 'CgroupDriver', 'Containers', 'ContainersRunning', 'ContainersStopped', 'ContainersPaused',
    'CpuCfsPeriod', 'CpuCfsQuota', 'Debug', 'EngineRootDir', 'Driver', 'DriverStatus', 'ExperimentalBuild', 'HttpProxy',
    'HttpsProxy', 'ID', 'IPv4Forwarding', 'Images', 'IndexServerAddress', 'InitPath', 'InitSha1', 'KernelMemory',
    'KernelVersion', 'Labels', 'MemTotal', 'MemoryLimit', 'NCPU', 'NEventsListener', 'NFd', 'NGoroutines', 'Name', 'NoProxy',
    'OomKillDisable', 'OSType', 'OperatingSystem', 'Plugins', 'RegistryConfig', 'SecurityOptions', 'ServerVersion',
    'SwapLimit', 'SystemStatus', 'SystemTime',
  ];
  const FLAGS = ['Debug', 'IPv4Forwarding', 'KernelMemory', 'MemoryLimit', 'OomKillDisable', 'SwapLimit', 'ExperimentalBuild', 'CpuCfsPeriod', 'CpuCfsQuota'];

  test('has every field of spec/2 §2.5, with the time from the clock', async () => {
    const info = (await call('GET', '/info')).json();
    expect(Object.keys(info)).toEqual(expect.arrayContaining(SPEC_FIELDS));
    expect(info).toMatchObject({ SystemTime: '2024-03-01T12:00:00.123Z', EngineRootDir: '/var/lib/engine', Driver: 'vfs', OSType: 'linux', Images: 1 });
    expect(info.NCPU).toBeGreaterThan(0);
  });

  test('flags are JSON booleans from 1.19 and 0/1 at 1.18', async () => {
    const at118 = (await call('GET', '/v1.18/info')).json();
    const at119 = (await call('GET', '/v1.19/info')).json();
    expect(FLAGS.map((flag) => typeof at118[flag])).toEqual(FLAGS.map(() => 'number'));
    expect(FLAGS.map((flag) => typeof at119[flag])).toEqual(FLAGS.map(() => 'boolean'));
    expect(at118.Debug).toBe(0);
    expect(at118.MemoryLimit).toBe(1);
  });

  test('counts a created container as stopped', async () => {
    await create('counted');
    expect((await call('GET', '/info')).json()).toMatchObject({ Containers: 1, ContainersRunning: 0, ContainersPaused: 0, ContainersStopped: 1 });
  });
});

describe('POST /containers/create', () => {
  test('201 with the id and no warnings (an empty list, not null)', async () => {
    const res = await call('POST', '/containers/create?name=first', { json: { Image: 'busybox', Cmd: ['true'] } });
    expect(res.status).toBe(201);
    // The id comes from the injected source: its padding is `c`.
    expect(res.json()).toEqual({ Id: expect.stringMatching(/^c{40}[0-9a-f]{24}$/), Warnings: [] });
  });

  test('unknown properties are ignored', async () => {
    const res = await call('POST', '/containers/create', { json: { Image: 'busybox', Surprise: { a: [1] }, HostConfig: { Surprise: true } } });
    expect(res.status).toBe(201);
  });

  test('an invalid name is 400, a name in use 409 naming the holder', async () => {
    expect((await call('POST', '/containers/create?name=a', { json: { Image: 'busybox' } })).status).toBe(400);
    const id = await create('taken');
    const res = await call('POST', '/v1.23/containers/create?name=taken', { json: { Image: 'busybox' } });
    expect(res.status).toBe(409);
    expect(res.text).toContain(`The container name "/taken" is already in use by container "${id}"`);
  });

  test('an unknown image is 404 No such image', async () => {
    const res = await call('POST', '/containers/create', { json: { Image: 'nosuch' } });
    expect([res.status, res.json().message]).toEqual([404, 'No such image: nosuch:latest']);
  });

  test('a body that is not JSON is 400 with a decoder message; an empty one is 400', async () => {
    const broken = await call('POST', '/containers/create', { body: '{"Image": busybox}', headers: { 'content-type': 'application/json' } });
    expect([broken.status, broken.json().message]).toEqual([400, "invalid character 'b' in JSON request body"]);
    expect((await call('POST', '/containers/create')).status).toBe(400);
  });

  test('a field of the wrong type is 400', async () => {
    expect((await call('POST', '/containers/create', { json: { Image: 'busybox', Env: 'A=1' } })).status).toBe(400);
  });

  test('Cmd given as one string is a one-word command', async () => {
    const id = await create('stringcmd', '', { Cmd: 'date' });
    expect((await call('GET', `/containers/${id}/json`)).json()).toMatchObject({ Path: 'date', Args: [] });
  });

  test('an RFC 1123-invalid Hostname is refused from 1.24 only', async () => {
    const config = { Image: 'busybox', Hostname: 'under_score' };
    expect((await call('POST', '/v1.24/containers/create', { json: config })).status).toBe(400);
    expect((await call('POST', '/v1.23/containers/create', { json: config })).status).toBe(201);
  });
});

describe('GET /containers/json', () => {
  test('a created container is listed with all=1 only, under any true spelling', async () => {
    const id = await create('listed');
    expect((await call('GET', '/containers/json')).json<unknown[]>()).toEqual([]);
    for (const value of ['1', 'True', 'yes']) {
      expect((await call('GET', `/containers/json?all=${value}`)).json<{ Id: string }[]>().map((c) => c.Id)).toEqual([id]);
    }
    expect((await call('GET', '/containers/json?all=none')).json<unknown[]>()).toEqual([]);
  });

  test('the fields of each version', async () => {
    await create('shapes', '', { Labels: { role: 'test' } });
    const item = async (version: string) => (await call('GET', `/v${version}/containers/json?all=1`)).json<Record<string, unknown>[]>()[0] ?? {};
    const at118 = await item('1.18');
    expect(at118).toMatchObject({ Names: ['/shapes'], Image: 'busybox', Command: 'true', Created: 1709294400, Status: 'Created', Labels: { role: 'test' }, Ports: [] });
    expect(at118).not.toHaveProperty('ImageID');
    expect(at118).not.toHaveProperty('State');
    expect(await item('1.21')).toHaveProperty('ImageID', expect.stringMatching(/^sha256:[0-9a-f]{64}$/));
    expect(await item('1.22')).not.toHaveProperty('Mounts');
    expect(await item('1.23')).toMatchObject({ State: 'created', HostConfig: { NetworkMode: 'default' }, NetworkSettings: { Networks: { bridge: {} } }, Mounts: [] });
  });

  test('size=1 adds SizeRw and SizeRootFs', async () => {
    await create('sized');
    const [item] = (await call('GET', '/containers/json?all=1&size=1')).json<Record<string, unknown>[]>();
    expect(item).toMatchObject({ SizeRw: 0, SizeRootFs: expect.any(Number) });
    expect((await call('GET', '/containers/json?all=1')).json<Record<string, unknown>[]>()[0]).not.toHaveProperty('SizeRw');
  });

  test('limit and filters', async () => {
    await create('older', '', { Labels: { pick: 'me' } });
    await create('newer');
    const names = async (query: string) => (await call('GET', `/containers/json?${query}`)).json<{ Names: string[] }[]>().map((c) => c.Names[0]);
    expect(await names('limit=1')).toEqual(['/newer']);
    expect(await names(`all=1&filters=${encodeURIComponent('{"label":["pick=me"]}')}`)).toEqual(['/older']);
    expect(await names(`filters=${encodeURIComponent('{"status":["created"]}')}`)).toEqual(['/newer', '/older']);
  });

  test('the since and before parameters cut the list and, unlike the filters, list non-running containers', async () => {
    for (const name of ['first', 'second', 'third']) await create(name);
    const names = async (query: string) => (await call('GET', `/containers/json?${query}`)).json<{ Names: string[] }[]>().map((c) => c.Names[0]);
    expect(await names('since=first')).toEqual(['/third', '/second']);
    expect(await names('before=third')).toEqual(['/second', '/first']);
    expect(await names(`filters=${encodeURIComponent('{"since":["first"]}')}`)).toEqual([]);
    expect((await call('GET', '/containers/json?since=ghost')).status).toBe(400);
  });

  test('bad filters are 400: malformed, unknown names, bad values', async () => {
    expect((await call('GET', '/containers/json?filters={bad')).status).toBe(400);
    expect((await call('GET', `/containers/json?filters=${encodeURIComponent('{"colour":["red"]}')}`)).status).toBe(400);
    expect((await call('GET', `/containers/json?filters=${encodeURIComponent('{"status":["sleeping"]}')}`)).status).toBe(400);
    expect((await call('GET', `/containers/json?filters=${encodeURIComponent('{"health":["sickly"]}')}`)).status).toBe(400);
  });
});

describe('GET /containers/{id}/json', () => {
  test('found by name, full id and short id', async () => {
    const id = await create('inspected');
    for (const reference of ['inspected', id, id.slice(0, 12)]) {
      expect((await call('GET', `/containers/${reference}/json`)).json().Id).toBe(id);
    }
  });

  test('the fields of each version', async () => {
    await create('versions');
    const inspect = async (version: string) => (await call('GET', `/v${version}/containers/versions/json`)).json();
    const at118 = await inspect('1.18');
    expect(at118).toMatchObject({ Name: '/versions', Path: 'true', Args: [], RestartCount: 0, Driver: 'vfs', ExecDriver: 'native-0.2', Volumes: {}, VolumesRW: {}, Mounts: [] });
    expect(at118.Created).toBe('2024-03-01T12:00:00.123Z');
    expect(at118.State).not.toHaveProperty('Status');
    expect(at118.NetworkSettings).not.toHaveProperty('Networks');
    expect(at118.NetworkSettings).toHaveProperty('IPAddress', '');

    const at121 = await inspect('1.21');
    expect(at121).toHaveProperty('ExecDriver');
    expect(at121).not.toHaveProperty('Volumes');
    expect(at121.State).toMatchObject({ Status: 'created' });
    expect(at121.NetworkSettings).toHaveProperty('Networks.bridge');

    const at124 = await inspect('1.24');
    expect(at124).not.toHaveProperty('ExecDriver');
    expect(at124.State).not.toHaveProperty('Dead');
    expect((await inspect('1.25')).State).toMatchObject({ Dead: false, Running: false, StartedAt: '0001-01-01T00:00:00Z' });
  });

  test('Config keeps what was asked and what the image gave', async () => {
    await create('configured', '', { Env: ['A=1'], Labels: { l: 'v' }, Hostname: 'box', HostConfig: { Memory: 4194304 } });
    const body = (await call('GET', '/containers/configured/json')).json<{ Config: Record<string, unknown>; HostConfig: Record<string, unknown> }>();
    expect(body.Config).toMatchObject({ Image: 'busybox', Cmd: ['true'], Hostname: 'box', Labels: { l: 'v' }, Env: ['A=1', expect.stringMatching(/^PATH=/)] });
    expect(body.HostConfig).toMatchObject({ Memory: 4194304, NetworkMode: 'default' });
  });

  test('size=1 adds the sizes from 1.21', async () => {
    await create('withsize');
    expect((await call('GET', '/v1.21/containers/withsize/json?size=1')).json()).toHaveProperty('SizeRootFs');
    expect((await call('GET', '/v1.20/containers/withsize/json?size=1')).json()).not.toHaveProperty('SizeRootFs');
  });

  test('an ambiguous id prefix is 400', async () => {
    await create('one');
    await create('two');
    const res = await call('GET', `/containers/${'c'.repeat(10)}/json`);
    expect([res.status, res.json().message]).toEqual([400, `Multiple IDs found with provided prefix: ${'c'.repeat(10)}`]);
  });
});

describe('DELETE /containers/{id}', () => {
  test('204, then the container is gone', async () => {
    await create('doomed');
    const res = await call('DELETE', '/containers/doomed?v=1&force=1');
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await call('GET', '/containers/doomed/json')).status).toBe(404);
    expect((await call('DELETE', '/containers/doomed')).json().message).toBe('No such container: doomed');
  });
});

describe('container routes', () => {
  test('404 No such container for an unknown container', async () => {
    const missing = await call('POST', '/v1.21/containers/ghost/start');
    expect([missing.status, missing.text]).toEqual([404, 'No such container: ghost\n']);
  });
});

describe('images', () => {
  test('GET /images/json lists busybox; Labels from 1.20; RepoDigests with digests=1', async () => {
    const [item] = (await call('GET', '/images/json')).json<Record<string, unknown>[]>();
    expect(item).toMatchObject({ RepoTags: ['busybox:latest'], Id: expect.stringMatching(/^sha256:/), Size: expect.any(Number), Labels: {} });
    expect(item).not.toHaveProperty('RepoDigests');
    expect(item).not.toHaveProperty('ParentId');
    expect((await call('GET', '/v1.19/images/json')).json<Record<string, unknown>[]>()[0]).not.toHaveProperty('Labels');
    expect((await call('GET', '/images/json?digests=1')).json<Record<string, unknown>[]>()[0]).toHaveProperty('RepoDigests', []);
  });

  test('list filters: filter (name), dangling, unknown names', async () => {
    const count = async (query: string) => (await call('GET', `/images/json?${query}`)).json<unknown[]>().length;
    expect(await count('filter=busybox')).toBe(1);
    expect(await count('filter=alpine')).toBe(0);
    expect(await count(`filters=${encodeURIComponent('{"dangling":["true"]}')}`)).toBe(0);
    expect((await call('GET', `/images/json?filters=${encodeURIComponent('{"dangling":["maybe"]}')}`)).status).toBe(400);
    expect((await call('GET', `/images/json?filters=${encodeURIComponent('{"colour":["red"]}')}`)).status).toBe(400);
  });

  test('GET /images/{name}/json by encoded tag, slashed name and id; RepoTags from 1.21', async () => {
    const byTag = (await call('GET', '/images/busybox%3Alatest/json')).json();
    expect(byTag).toMatchObject({ RepoTags: ['busybox:latest'], RepoDigests: [], Config: { Cmd: ['sh'] }, Os: 'linux' });
    expect((await call('GET', '/images/library/busybox/json')).json().Id).toBe(byTag.Id);
    expect((await call('GET', `/images/${String(byTag.Id).slice(7, 19)}/json`)).json().Id).toBe(byTag.Id);
    expect((await call('GET', '/v1.20/images/busybox/json')).json()).not.toHaveProperty('RepoTags');
  });

  test('an unknown image is 404 No such image', async () => {
    const res = await call('GET', '/v1.20/images/nosuch/json');
    expect([res.status, res.text]).toEqual([404, 'No such image: nosuch:latest\n']);
  });
});
