/**
 * The volume endpoints and the volume parts of the container endpoints over a real server: shapes
 * per version and per dialect, statuses and error bodies, filters, force, container inspect Mounts
 * (and Volumes/VolumesRW at 1.18), DELETE /containers/{id}?v=1 and archives into volumes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { writeTar } from '../../../reference/engine/filesystem/tar-io.ts';
import { ManualScheduler } from '../../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../../reference/serve.ts';
import { httpCaller, type Call } from '../http-client.ts';

const clock = new ManualScheduler();
let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  reference = await startReference({ scheduler: clock, dialect: 'docker' });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function created(name: string, labels?: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await call('POST', '/v1.25/volumes/create', { json: { Name: name, Labels: labels } });
  expect(res.status, res.text).toBe(201);
  return res.json();
}

async function container(name: string, body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['true'], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json<{ Id: string }>().Id;
}

describe('the volume per version', () => {
  test('before 1.25 Name, Driver and Mountpoint; from 1.25 also CreatedAt, Labels, Options (null when empty) and Scope', async () => {
    await created('data', { a: 'b' });
    const old = await call('GET', '/v1.24/volumes/data');
    expect(old.json()).toEqual({ Driver: 'local', Mountpoint: '/var/lib/docker/volumes/data/_data', Name: 'data' });
    const current = (await call('GET', '/v1.25/volumes/data')).json();
    expect(current).toEqual({
      CreatedAt: '2024-03-01T12:00:00Z',
      Driver: 'local',
      Labels: { a: 'b' },
      Mountpoint: '/var/lib/docker/volumes/data/_data',
      Name: 'data',
      Options: null,
      Scope: 'local',
    });
    expect(Object.keys(current)).toEqual(['CreatedAt', 'Driver', 'Labels', 'Mountpoint', 'Name', 'Options', 'Scope']);
  });

  test('the list answers {Volumes, Warnings: []} at every version', async () => {
    await created('data');
    for (const version of ['1.18', '1.25']) {
      const res = await call('GET', `/v${version}/volumes`);
      expect([res.status, res.json<{ Volumes: { Name: string }[] }>().Volumes.map((volume) => volume.Name), res.json().Warnings]).toEqual([200, ['data'], []]);
    }
  });
});

describe('errors', () => {
  test('create without a body, with a field of the wrong type, or of an unknown driver', async () => {
    expect(await call('POST', '/v1.24/volumes/create').then((res) => [res.status, res.json().message])).toEqual([400, 'got EOF while reading request body']);
    expect((await call('POST', '/v1.24/volumes/create', { json: { Name: 7 } })).status).toBe(400);
    expect((await call('POST', '/v1.24/volumes/create', { json: { Labels: { a: 1 } } })).status).toBe(400);
    const unknown = await call('POST', '/v1.23/volumes/create', { json: { Name: 'data', Driver: 'nosuch' } });
    expect([unknown.status, unknown.text]).toEqual([404, 'create data: error looking up volume plugin nosuch: plugin "nosuch" not found\n']);
  });

  test('inspect and remove of a missing volume answer 404; remove of one in use 409; force forgives the missing one only', async () => {
    expect(await call('GET', '/v1.24/volumes/missing').then((res) => [res.status, res.json().message])).toEqual([404, 'get missing: no such volume']);
    expect((await call('DELETE', '/v1.24/volumes/missing')).status).toBe(404);
    expect((await call('DELETE', '/v1.24/volumes/missing?force=1')).status).toBe(204);
    await created('data');
    const id = await container('user', { HostConfig: { Binds: ['data:/data'] } });
    const inUse = await call('DELETE', '/v1.24/volumes/data?force=1');
    expect([inUse.status, inUse.json().message]).toEqual([409, `remove data: volume is in use - [${id}]`]);
    expect((await call('DELETE', '/containers/user')).status).toBe(204);
    expect((await call('DELETE', '/v1.24/volumes/data')).status).toBe(204);
    expect((await call('GET', '/v1.24/volumes/data')).status).toBe(404);
  });

  test('filters: an unknown one, a bad dangling value, a malformed map answer 400', async () => {
    const message = async (filters: string) => (await call('GET', `/v1.24/volumes?filters=${encodeURIComponent(filters)}`)).json().message;
    expect(await message('{"bogus":["x"]}')).toBe("Invalid filter 'bogus'");
    expect(await message('{"dangling":["yes"]}')).toBe("Invalid filter 'dangling=[yes]'");
    expect((await call('GET', '/v1.24/volumes?filters=nojson')).status).toBe(400);
  });
});

test('filters in either form narrow the list', async () => {
  await created('web-data', { tier: 'web' });
  await created('cache');
  const listed = async (filters: unknown) =>
    (await call('GET', `/v1.25/volumes?filters=${encodeURIComponent(JSON.stringify(filters))}`)).json<{ Volumes: { Name: string }[] }>().Volumes.map((volume) => volume.Name);
  expect(await listed({ name: ['data'] })).toEqual(['web-data']);
  expect(await listed({ name: { cache: true } })).toEqual(['cache']);
  expect(await listed({ label: ['tier=web'] })).toEqual(['web-data']);
  expect(await listed({ driver: ['local'], dangling: ['1'] })).toEqual(['cache', 'web-data']);
});

describe('containers', () => {
  test('inspect Mounts: Source, Destination, Mode, RW always; Type, Name, Driver, Propagation from 1.23, none of Name and Driver for a bind', async () => {
    await container('cc', { HostConfig: { Binds: ['data:/data', '/host:/host:ro'] } });
    const mounts = async (version: string) => (await call('GET', `/v${version}/containers/cc/json`)).json<{ Mounts: unknown[] }>().Mounts;
    expect(await mounts('1.22')).toEqual([
      { Source: '/var/lib/docker/volumes/data/_data', Destination: '/data', Mode: 'z', RW: true },
      { Source: '/host', Destination: '/host', Mode: 'ro', RW: false },
    ]);
    expect(await mounts('1.23')).toEqual([
      { Type: 'volume', Name: 'data', Source: '/var/lib/docker/volumes/data/_data', Destination: '/data', Driver: 'local', Mode: 'z', RW: true, Propagation: '' },
      { Type: 'bind', Source: '/host', Destination: '/host', Mode: 'ro', RW: false, Propagation: 'rprivate' },
    ]);
    const listed = (await call('GET', '/v1.23/containers/json?all=1')).json<{ Mounts: unknown[] }[]>();
    expect(listed[0]?.Mounts).toEqual(await mounts('1.23'));
  });

  test('at 1.18 inspect also has Volumes and VolumesRW, by destination', async () => {
    await container('cc', { HostConfig: { Binds: ['data:/data', '/host:/host:ro'] } });
    const inspect = (await call('GET', '/v1.18/containers/cc/json')).json();
    expect([inspect.Volumes, inspect.VolumesRW]).toEqual([
      { '/data': '/var/lib/docker/volumes/data/_data', '/host': '/host' },
      { '/data': true, '/host': false },
    ]);
  });

  test('DELETE /containers/{id}?v=1 removes its anonymous volumes; without v they stay', async () => {
    await container('kept', { Volumes: { '/anon': {} } });
    await container('gone', { Volumes: { '/anon': {} } });
    expect((await call('DELETE', '/containers/kept')).status).toBe(204);
    expect((await call('DELETE', '/containers/gone?v=1')).status).toBe(204);
    expect((await call('GET', '/volumes')).json<{ Volumes: unknown[] }>().Volumes).toHaveLength(1);
  });
});

test('PUT /containers/{id}/archive into a read-only volume answers 403; into a writable one it lands in the volume, even on a read-only rootfs', async () => {
  await container('cc', { HostConfig: { Binds: ['ro-vol:/ro:ro', 'rw-vol:/rw'], ReadonlyRootfs: true } });
  expect((await call('POST', '/containers/cc/start')).status).toBe(204);
  await clock.advance(0);
  const tar = await writeTar([{ header: { name: 'f', type: 'file', mode: 0o644 }, data: Buffer.from('x') }]);
  const put = (path: string) => call('PUT', `/v1.24/containers/cc/archive?path=${path}`, { body: tar, headers: { 'content-type': 'application/x-tar' } });
  const refused = await put('/ro');
  expect([refused.status, refused.json().message]).toEqual([403, 'mounted volume is marked read-only']);
  expect((await put('/rw')).status).toBe(200);
  expect(reference.model.volumes.find('rw-vol').files.get('/f')?.kind).toBe('file');
  expect((await put('/tmp')).status).toBe(403);
});
