/**
 * The archive, export and copy endpoints over a real server: the path-stat header under the dialect's
 * name, statuses and error bodies per version, gzipped uploads, copy's removal at 1.24, and the
 * events dockerd publishes for each.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { readTar, writeTar } from '../../reference/engine/filesystem/tar-io.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Answer, type Call } from './http-client.ts';

const clock = new ManualScheduler();
let reference: RunningReference;
let call: Call;
let events: string[] = [];

beforeAll(async () => {
  reference = await startReference({ scheduler: clock });
  call = httpCaller(reference.engineUrl);
  reference.model.events.subscribe(({ action }) => events.push(action));
});
afterAll(() => reference.close());
beforeEach(() => {
  reference.reset();
  events = [];
});

async function created(name: string, hostConfig: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['true'], HostConfig: hostConfig } });
  expect(res.status, res.text).toBe(201);
  return name;
}

const fileTar = (name: string, data: string) => writeTar([{ header: { name, mode: 0o644 }, data: Buffer.from(data) }]);
const namesOf = async (res: Answer) => (await readTar(res.body)).map((member) => member.header.name);

function put(path: string, body: Buffer, version = ''): Promise<Answer> {
  return call('PUT', `${version}/containers/box/archive?path=${encodeURIComponent(path)}`, { body, headers: { 'content-type': 'application/x-tar' } });
}

describe('HEAD and GET archive', () => {
  test('HEAD answers the path stat as base64 JSON in the dialect`s header, with no body and no event', async () => {
    await created('box');
    const res = await call('HEAD', '/containers/box/archive?path=/etc/passwd');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    const stat: unknown = JSON.parse(Buffer.from(String(res.headers['x-engine-container-path-stat']), 'base64').toString());
    expect(stat).toEqual({ name: 'passwd', size: 82, mode: 0o644, mtime: '2000-01-01T00:00:00Z', linkTarget: '' });
    expect(events).toEqual(['create']);
  });

  test('the docker dialect names the header X-Docker-Container-Path-Stat', async () => {
    const docker = await startReference({ dialect: 'docker' });
    try {
      const dockerCall = httpCaller(docker.engineUrl);
      await dockerCall('POST', '/containers/create?name=box', { json: { Image: 'busybox', Cmd: ['true'] } });
      const res = await dockerCall('GET', '/containers/box/archive?path=/etc');
      expect(Object.keys(res.headers).filter((name) => name.endsWith('-container-path-stat'))).toEqual(['x-docker-container-path-stat']);
    } finally {
      await docker.close();
    }
  });

  test('GET answers application/x-tar with the stat header, and publishes archive-path', async () => {
    await created('box');
    const res = await call('GET', '/containers/box/archive?path=/etc/.');
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/x-tar']);
    expect(res.headers['x-engine-container-path-stat']).toBeDefined();
    // the image's files and the init layer's (empty until the first start)
    expect(await namesOf(res)).toEqual(['./', './group', './hostname', './hosts', './mtab', './passwd', './resolv.conf']);
    expect(events).toEqual(['create', 'archive-path']);
  });

  test('an empty path is 400 before the container is looked up: plain text before 1.24, JSON from 1.24', async () => {
    const old = await call('GET', '/v1.23/containers/nothing/archive?path=');
    expect([old.status, old.text]).toEqual([400, 'bad parameter: pathcannot be empty\n']);
    const current = await call('GET', '/v1.24/containers/nothing/archive');
    expect([current.status, current.json()]).toEqual([400, { message: 'bad parameter: pathcannot be empty' }]);
  });

  test('nothing there, or under /proc, is 404; a trailing / on a file is 400; an unknown container is 404', async () => {
    await created('box');
    const statuses = await Promise.all(
      ['/containers/box/archive?path=/nope', '/containers/box/archive?path=/proc/1', '/containers/box/archive?path=/etc/passwd/', '/containers/nothing/archive?path=/etc'].map(
        async (path) => (await call('GET', path)).status,
      ),
    );
    expect(statuses).toEqual([404, 404, 400, 404]);
    expect((await call('GET', '/v1.24/containers/box/archive?path=/nope')).json()).toEqual({ message: 'Could not find the file /nope in container box' });
  });
});

describe('PUT archive', () => {
  test('extracts a plain or gzipped tar, answers 200 with an empty body of length 0, and publishes extract-to-dir', async () => {
    await created('box');
    const plain = await put('/tmp', await fileTar('plain.txt', 'plain'));
    expect([plain.status, plain.headers['content-length'], plain.text]).toEqual([200, '0', '']);
    expect((await put('/tmp', gzipSync(await fileTar('zipped.txt', 'zipped')))).status).toBe(200);
    expect(await namesOf(await call('GET', '/containers/box/archive?path=/tmp/.'))).toEqual(['./', './plain.txt', './zipped.txt']);
    expect(events).toEqual(['create', 'extract-to-dir', 'extract-to-dir', 'archive-path']);
  });

  test('refusals: a file path 400, a missing directory 404, a refused overwrite 400, a read-only rootfs 403, a body that is no tar or a member climbing out 400 (client mistakes; dockerd: 500)', async () => {
    await created('box');
    await put('/tmp', await writeTar([{ header: { name: 'dir/', type: 'directory', mode: 0o755 }, data: Buffer.alloc(0) }]));
    const archive = await fileTar('dir', 'a file where a directory is');
    const overwrite = await call('PUT', '/v1.24/containers/box/archive?path=/tmp&noOverwriteDirNonDir=True', { body: archive });
    expect([overwrite.status, overwrite.json()]).toEqual([400, { message: 'cannot overwrite directory "/tmp/dir" with non-directory' }]);
    const notTar = await put('/tmp', Buffer.alloc(1024, 7), '/v1.24');
    expect(notTar.status).toBe(400);
    expect(notTar.json<{ message: string }>().message).toMatch(/^Error processing tar file\(exit status 1\): /);
    const breakout = await put('/tmp', await fileTar('../../etc/evil', 'out'), '/v1.24');
    expect([breakout.status, breakout.json()]).toEqual([400, { message: 'Error processing tar file(exit status 1): "../../etc/evil" is outside of "/tmp"' }]);
    await created('readonly', { ReadonlyRootfs: true });
    const readOnly = await call('PUT', '/v1.24/containers/readonly/archive?path=/tmp', { body: archive });
    expect([readOnly.status, readOnly.json()]).toEqual([403, { message: 'container rootfs is marked read-only' }]);
    expect([(await put('/etc/passwd', archive)).status, (await put('/nope', archive)).status]).toEqual([400, 404]);
  });
});

describe('export', () => {
  test('answers application/octet-stream, every entry named from the root, and publishes export', async () => {
    await created('box');
    const res = await call('GET', '/containers/box/export');
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/octet-stream']);
    expect(await namesOf(res)).toEqual(expect.arrayContaining(['bin/', 'bin/busybox', 'etc/passwd', 'tmp/']));
    expect(events).toEqual(['create', 'export']);
  });
});

describe('copy', () => {
  test('up to 1.23: the resource with its symlinks followed, as application/x-tar, and a copy event', async () => {
    await created('box');
    const res = await call('POST', '/v1.23/containers/box/copy', { json: { Resource: '/bin/sh' } });
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/x-tar']);
    expect(await namesOf(res)).toEqual(['busybox']);
    expect(events).toEqual(['create', 'copy']);
  });

  test('up to 1.23: no body, an empty Resource and a missing file are refused as dockerd refuses them', async () => {
    await created('box');
    const answers = await Promise.all(
      [undefined, { Resource: '' }, { Resource: 5 }, { Resource: '/nope' }].map(async (json) => {
        const res = await call('POST', '/v1.20/containers/box/copy', json === undefined ? { headers: { 'content-type': 'application/json' } } : { json });
        return [res.status, res.text];
      }),
    );
    expect(answers).toEqual([
      [400, 'got EOF while reading request body\n'],
      [400, 'Path cannot be empty\n'],
      [400, 'json: cannot unmarshal number into Go struct field CopyConfig.Resource of type string\n'],
      [404, 'Could not find the file /nope in container box\n'],
    ]);
  });

  test('from 1.24: 404 with no body, whatever the container', async () => {
    const res = await call('POST', '/v1.24/containers/nothing/copy', { json: { Resource: '/etc' } });
    expect([res.status, res.text]).toEqual([404, '']);
  });
});
