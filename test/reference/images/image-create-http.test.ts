/**
 * POST /images/create (import and pull), push and search over a started reference, each answer as
 * dockerd 20.10 gave it (probed with curl at /v1.18/ and /v1.24/).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeTar } from '../../../reference/engine/filesystem/tar-io.ts';
import { referencePerFile } from './reference-per-file.ts';
import { gzipSync } from 'node:zlib';

const call = referencePerFile();
let files: Server;
let filesOrigin: string;
const served = new Map<string, Buffer>();

beforeAll(async () => {
  files = createServer((request, response) => {
    const body = served.get(request.url ?? '');
    if (body === undefined) return void response.writeHead(404, 'File not found').end('no such file\n');
    response.writeHead(200, { 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => files.close(resolve)));

/** A port nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const hello = () => writeTar([{ header: { name: 'etc/hello', mode: 0o644, size: 3 }, data: Buffer.from('hi\n') }]);
const tarHeaders = { 'content-type': 'application/x-tar' };
const lines = (text: string) => text.split('\r\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('import from the body', () => {
  test('answers the id as the one status; the image is named, configured by the changes, commented', async () => {
    const answer = await call('POST', '/v1.24/images/create?fromSrc=-&repo=imported&tag=t1&message=hello%20msg&changes=CMD%20%5B%22sh%22%5D&changes=ENV%20A%3Db', {
      body: await hello(),
      headers: tarHeaders,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.text).toMatch(/^\{"status":"sha256:[0-9a-f]{64}"\}\r\n$/);
    const id = lines(answer.text)[0]?.status;
    const inspect = (await call('GET', '/v1.24/images/imported:t1/json')).json<{ Config: unknown; ContainerConfig: unknown }>();
    expect(inspect).toMatchObject({ Id: id, RepoTags: ['imported:t1'], Parent: '', Comment: 'hello msg', Size: 3 });
    expect(inspect.Config).toMatchObject({ Cmd: ['sh'], Env: ['A=b'], Labels: null });
    expect(inspect.ContainerConfig).toMatchObject({ Cmd: null, Env: null });
  });

  test('a gzipped tar too; with no message the comment says where it came from; a container inherits the config', async () => {
    const answer = await call('POST', '/v1.24/images/create?fromSrc=-&repo=gz&changes=CMD%20%5B%22cat%22%2C%22%2Fetc%2Fhello%22%5D&changes=WORKDIR%20%2Fetc', {
      body: gzipSync(await hello()),
      headers: tarHeaders,
    });
    expect(answer.status).toBe(200);
    expect((await call('GET', '/v1.24/images/gz/json')).json()).toMatchObject({ Comment: 'Imported from -', RepoTags: ['gz:latest'] });
    const created = await call('POST', '/v1.24/containers/create', { json: { Image: 'gz' } });
    expect(created.status).toBe(201);
    const container = (await call('GET', `/v1.24/containers/${created.json().Id as string}/json`)).json<{ Config: unknown; ContainerConfig: unknown }>();
    expect(container.Config).toMatchObject({ Cmd: ['cat', '/etc/hello'], WorkingDir: '/etc' });
  });

  test('publishes tag (named as given) then import', async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const id = lines((await call('POST', '/v1.24/images/create?fromSrc=-&repo=evented', { body: await hello(), headers: tarHeaders })).text)[0]?.status;
    const events = lines((await call('GET', `/v1.24/events?since=${since}&until=${Math.floor(Date.now() / 1000) + 1}&filters=%7B%22type%22%3A%5B%22image%22%5D%7D`)).text.replace(/\n/g, '\r\n'));
    expect(events.map((event) => [event.Action, (event.Actor as { Attributes: unknown }).Attributes])).toEqual([
      ['tag', { name: 'evented' }],
      ['import', { name: id }],
    ]);
  });

  test('a bad tar is an ordinary 500 (nothing was streamed yet), and no image is left', async () => {
    const before = (await call('GET', '/v1.24/images/json')).json<unknown[]>().length;
    const short = await call('POST', '/v1.24/images/create?fromSrc=-', { body: 'not a tar at all', headers: tarHeaders });
    expect([short.status, short.json()]).toEqual([500, { message: 'Error processing tar file(exit status 1): unexpected EOF' }]);
    const garbage = await call('POST', '/v1.18/images/create?fromSrc=-', { body: Buffer.alloc(2048, 0x41), headers: tarHeaders });
    expect([garbage.status, garbage.text]).toEqual([500, 'Error processing tar file(exit status 1): archive/tar: invalid tar header\n']);
    expect((await call('GET', '/v1.24/images/json')).json<unknown[]>()).toHaveLength(before);
  });

  test.each([
    ['repo=Bad', 'invalid reference format: repository name must be lowercase'],
    [`repo=a%40sha256:${'a'.repeat(64)}`, 'cannot import digest reference'],
    ['repo=ok&tag=bad!tag', 'invalid tag format'],
    ['changes=RUN%20echo', 'run is not a valid change command'],
  ])('%s is a 400 before the body is read: %s', async (query, message) => {
    const answer = await call('POST', `/v1.24/images/create?fromSrc=-&${query}`, { body: await hello(), headers: tarHeaders });
    expect([answer.status, answer.json()]).toEqual([400, { message }]);
  });
});

describe('import from a URL', () => {
  test('streams Downloading, Importing with progress, then the id', async () => {
    const tar = await hello();
    served.set('/small.tar', tar);
    const answer = await call('POST', `/v1.24/images/create?fromSrc=${encodeURIComponent(`${filesOrigin}/small.tar`)}&repo=fromurl`);
    const messages = lines(answer.text);
    expect(messages).toEqual([
      { status: `Downloading from ${filesOrigin}/small.tar` },
      { status: 'Importing', progressDetail: { current: tar.length, total: tar.length }, progress: `[==================================================>]  ${tar.length / 1000}kB/${tar.length / 1000}kB` },
      { status: expect.stringMatching(/^sha256:/) },
    ]);
    expect(answer.text).toContain('\\u003e]');
    expect((await call('GET', '/v1.24/images/fromurl/json')).json()).toMatchObject({ Comment: `Imported from ${filesOrigin}/small.tar` });
  });

  test('a bad tar is reported in the stream once it has begun', async () => {
    served.set('/bad.tar', Buffer.alloc(2000, 0x41));
    const answer = await call('POST', `/v1.18/images/create?fromSrc=${encodeURIComponent(`${filesOrigin}/bad.tar`)}`);
    expect(answer.status).toBe(200);
    const message = 'Error processing tar file(exit status 1): archive/tar: invalid tar header';
    expect(lines(answer.text).at(-1)).toEqual({ errorDetail: { message }, error: message });
  });

  test('a missing file is the server status and body; a refused connection and an unknown scheme are 500s', async () => {
    const missing = await call('POST', `/v1.24/images/create?fromSrc=${encodeURIComponent(`${filesOrigin}/missing.tar`)}`);
    expect([missing.status, missing.json()]).toEqual([404, { message: `failed to GET ${filesOrigin}/missing.tar with status 404 File not found: no such file` }]);
    const closed = await closedPort();
    const refused = await call('POST', `/v1.24/images/create?fromSrc=http://127.0.0.1:${closed}/x`);
    expect([refused.status, refused.json()]).toEqual([500, { message: `Get "http://127.0.0.1:${closed}/x": dial tcp 127.0.0.1:${closed}: connect: connection refused` }]);
    const ftp = await call('POST', '/v1.24/images/create?fromSrc=ftp://x/y');
    expect([ftp.status, ftp.json()]).toEqual([500, { message: 'Get "ftp://x/y": unsupported protocol scheme "ftp"' }]);
    const none = await call('POST', '/v1.24/images/create');
    expect([none.status, none.json()]).toEqual([500, { message: 'POST /images/create needs fromImage (to pull) or fromSrc (to import): neither was given' }]);
  });
});

describe('pull, push and search without a registry', () => {
  test('a pull fails to reach the registry of the name; a malformed name is a 400', async () => {
    const hub = await call('POST', '/v1.24/images/create?fromImage=alpine&tag=3.5', { headers: { 'X-Registry-Auth': '!!!' } });
    expect([hub.status, hub.json()]).toEqual([500, { message: 'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host' }]);
    const own = await call('POST', '/v1.18/images/create?fromImage=registry.test:5000/app');
    expect([own.status, own.text]).toEqual([500, 'Get "https://registry.test:5000/v2/": dial tcp: lookup registry.test: no such host\n']);
    const bad = await call('POST', '/v1.24/images/create?fromImage=Bad%20Name');
    expect([bad.status, bad.json()]).toEqual([400, { message: 'invalid reference format: repository name must be lowercase' }]);
  });

  test('a push needs credentials and an image of the name (404), then streams its announcement and the failure', async () => {
    const noAuth = await call('POST', '/v1.24/images/busybox/push');
    expect([noAuth.status, noAuth.json()]).toEqual([400, { message: 'Bad parameters and missing X-Registry-Auth: EOF' }]);
    const auth = { 'X-Registry-Auth': Buffer.from('{"username":"u","password":"p"}').toString('base64url') };
    const pushed = await call('POST', '/v1.24/images/busybox/push', { headers: auth });
    const unreachable = 'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host';
    expect(lines(pushed.text)).toEqual([{ status: 'The push refers to repository [docker.io/library/busybox]' }, { errorDetail: { message: unreachable }, error: unreachable }]);
    const missing = await call('POST', '/v1.24/images/nosuch/push', { headers: auth });
    expect([missing.status, missing.json()]).toEqual([404, { message: 'An image does not exist locally with the tag: nosuch' }]);
  });

  test('search answers from the simulated index, filtered and limited as dockerd does', async () => {
    const all = (await call('GET', '/v1.24/images/search?term=busybox')).json<Array<Record<string, unknown>>>();
    expect(all.map((result) => result.name)).toContain('busybox');
    expect(Object.keys(all[0] ?? {})).toEqual(['star_count', 'is_official', 'name', 'is_automated', 'description']);
    const official = (await call('GET', '/v1.24/images/search?term=busybox&filters=%7B%22is-official%22%3A%5B%22true%22%5D%7D')).json<Array<Record<string, unknown>>>();
    expect(official.map((result) => result.name)).toEqual(['busybox']);
    const starred = (await call('GET', '/v1.24/images/search?term=busybox&filters=%7B%22stars%22%3A%5B%2250%22%5D%7D')).json<Array<{ star_count: number }>>();
    expect(starred.every((result) => result.star_count >= 50)).toBe(true);
    expect((await call('GET', '/v1.24/images/search?term=busybox&limit=1')).json()).toHaveLength(1);
  });

  test.each([
    ['filters=%7B%22stars%22%3A%5B%22x%22%5D%7D', 400, "Invalid filter 'stars=x'"],
    ['filters=%7B%22is-automated%22%3A%5B%22x%22%5D%7D', 400, "Invalid filter 'is-automated=[x]'"],
    ['filters=%7B%22bogus%22%3A%5B%22x%22%5D%7D', 400, "Invalid filter 'bogus'"],
    ['limit=0', 400, 'Limit 0 is outside the range of [1, 100]'],
    ['limit=abc', 500, 'strconv.Atoi: parsing "abc": invalid syntax'],
  ])('search with %s: %i %s', async (query, status, message) => {
    const answer = await call('GET', `/v1.24/images/search?term=busybox&${query}`);
    expect([answer.status, answer.json()]).toEqual([status, { message }]);
  });
});
