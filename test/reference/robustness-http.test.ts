/**
 * Issue 16: a hostile client cannot crash, hang or exhaust the reference's servers. Each case here
 * once killed the process, hung a request, or let one request take unbounded memory.
 */
import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { writeTar } from '../../reference/engine/filesystem/tar-io.ts';
import { httpCaller, type Call } from './http-client.ts';
import { httpRequest, rawRequest } from './raw-connection.ts';

const IDLE_MS = 300;
const logged: string[] = [];
let reference: RunningReference;
let engine: Call;
let token: Call;
let accounts: Call;

beforeAll(async () => {
  reference = await startReference({
    token: 'tcp://127.0.0.1:0',
    accounts: 'tcp://127.0.0.1:0',
    limits: { jsonBodyBytes: 64 * 1024, tarBodyBytes: 2 * 1024 * 1024, formBodyBytes: 16 * 1024, headerBytes: 8 * 1024, urlBytes: 2 * 1024, idleTimeoutMs: IDLE_MS },
    log: (line) => logged.push(line),
  });
  engine = httpCaller(reference.engineUrl);
  token = httpCaller(reference.token?.url ?? '');
  accounts = httpCaller(reference.accounts?.url ?? '');
});
afterAll(() => reference.close());

async function stillServing(): Promise<void> {
  expect((await engine('GET', '/_ping')).text).toBe('OK');
}

/** A one-member tar whose first header `patch` changes, with its checksum made right again. */
async function tarWithPatchedHeader(patch: (tar: Buffer) => void): Promise<Buffer> {
  const tar = await writeTar([{ header: { name: 'a.txt', size: 5 }, data: Buffer.from('hello') }]);
  patch(tar);
  tar.fill(' ', 148, 156);
  let sum = 0;
  for (let index = 0; index < 512; index += 1) sum += tar[index] ?? 0;
  tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return tar;
}

/** A tar whose size field tar-stream cannot decode (base-256 marker 0x81): it used to wait forever for the data. */
function tarWithMalformedSize(): Promise<Buffer> {
  return tarWithPatchedHeader((tar) => Buffer.from([0x81, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]).copy(tar, 124));
}

describe('requests that crashed the process', () => {
  test('a version too large for a number is refused as too new', async () => {
    const answer = await engine('GET', '/v999999999999999999999.1/_ping');
    expect([answer.status, answer.json().message]).toEqual([400, 'client version 999999999999999999999.1 is too new. Maximum supported API version is 1.25']);
    await stillServing();
  });

  test('a bad escape in a route parameter is a 400', async () => {
    expect((await engine('GET', '/v1.25/containers/%zz/json')).status).toBe(400);
    await stillServing();
  });

  test('`//` on the token service and the accounts API is an unknown endpoint', async () => {
    expect((await token('GET', '//')).status).toBe(404);
    expect((await accounts('GET', '//')).status).toBe(404);
    // and they still serve
    expect((await token('GET', '//')).status).toBe(404);
  });
});

describe('a failure of our own', () => {
  test('is a 500 with its message, logged once', async () => {
    const info = reference.model.system.info;
    reference.model.system.info = () => Promise.reject(new TypeError('a bug of ours'));
    logged.length = 0;
    try {
      const answer = await engine('GET', '/v1.25/info');
      expect([answer.status, answer.json().message]).toEqual([500, 'a bug of ours']);
      expect(logged).toEqual([expect.stringMatching(/^shipshape engine: GET \/v1\.25\/info failed: TypeError: a bug of ours/)]);
    } finally {
      reference.model.system.info = info;
    }
  });

  test('on a hijacked request is answered on its connection', async () => {
    const info = reference.model.system.info;
    reference.model.system.info = () => Promise.reject(new TypeError('a bug of ours'));
    try {
      const connection = await rawRequest(reference.engineUrl, httpRequest('GET', '/v1.25/info'));
      expect(connection.status).toBe(500);
      connection.close();
    } finally {
      reference.model.system.info = info;
    }
    await stillServing();
  });
});

describe('tars with a malformed size field get an answer', () => {
  test.each([
    ['PUT', '/containers/{id}/archive?path=/tmp'],
    ['POST', '/build'],
    ['POST', '/images/create?fromSrc=-&repo=malformed'],
    ['POST', '/plugins/create?name=malformed'],
  ])('%s %s', async (method, path) => {
    const created = await engine('POST', '/v1.25/containers/create', { json: { Image: 'busybox:latest', Cmd: ['true'] } });
    const answer = await engine(method, `/v1.25${path.replace('{id}', created.json<{ Id: string }>().Id)}`, { body: await tarWithMalformedSize(), headers: { 'content-type': 'application/x-tar' } });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.text).toMatch(/invalid tar header/i);
  });

  test('POST /images/load ends its stream with the error', async () => {
    const answer = await engine('POST', '/v1.25/images/load', { body: await tarWithMalformedSize(), headers: { 'content-type': 'application/x-tar' } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text.trim().split('\n').at(-1) ?? '')).toMatchObject({ errorDetail: { message: expect.stringMatching(/invalid tar header/) } });
  });
});

describe('tars that once hung every reader get an answer', () => {
  /** a directory entry whose size field says 5: tar-stream never ended its (dataless) stream */
  const directoryWithSize = () => tarWithPatchedHeader((tar) => tar.write('5', 156, 'latin1'));
  const onlyNuls = async () => Buffer.alloc(3000);
  test.each([
    ['a directory entry of non-zero size', directoryWithSize],
    ['NULs only', onlyNuls],
  ])('%s: build, import and load each answer', async (_, tarOf) => {
    const tar = await tarOf();
    const headers = { 'content-type': 'application/x-tar' };
    const [build, imported, loaded] = await Promise.all(['/v1.25/build', '/v1.25/images/create?fromSrc=-&repo=hung', '/v1.25/images/load'].map((path) => engine('POST', path, { body: tar, headers })));
    expect(build?.status).toBeGreaterThanOrEqual(400);
    expect(imported?.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(loaded?.text.trim().split('\n').at(-1) ?? '')).toMatchObject({ errorDetail: { message: expect.any(String) } });
  });
});

describe('work per request is bounded', () => {
  async function buildfileTar(lines: number): Promise<Buffer> {
    const text = ['FROM busybox:latest', ...Array.from({ length: lines }, (_, index) => `LABEL label${index}=value${index}`)].join('\n');
    return writeTar([{ header: { name: 'Buildfile' }, data: Buffer.from(text) }]);
  }

  test('a build file of 20 000 LABEL lines is refused at once, naming the limit', async () => {
    const started = Date.now();
    const answer = await engine('POST', '/v1.25/build', { body: await buildfileTar(20_000), headers: { 'content-type': 'application/x-tar' } });
    expect([answer.status, answer.json().message]).toEqual([400, 'the Buildfile (Buildfile) has more than 500 instructions: the reference builds at most 500 (each step\'s image holds all the config before it)']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('/_ping answers while a long build runs', { timeout: 60_000 }, async () => {
    const build = engine('POST', '/v1.25/build?rm=1', { body: await buildfileTar(100), headers: { 'content-type': 'application/x-tar' } });
    let done = false;
    void build.finally(() => (done = true));
    // A build that never yields answers no ping until it ends, whatever the machine's speed.
    let answeredDuringBuild = 0;
    while (!done) {
      await stillServing();
      if (!done) answeredDuringBuild += 1;
    }
    expect((await build).text).toContain('Successfully built');
    expect(answeredDuringBuild).toBeGreaterThanOrEqual(3);
  });

  test.each(['20000', '18446744073709551616'])('a service of %s replicas is refused at once', async (replicas) => {
    const body = `{"Name":"many","TaskTemplate":{"ContainerSpec":{"Image":"busybox:latest"}},"Mode":{"Replicated":{"Replicas":${replicas}}}}`;
    const started = Date.now();
    const answer = await engine('POST', '/v1.25/services/create', { body, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    if (replicas === '20000') expect(answer.json().message).toContain('at most 1000 replicas per service');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('limits', () => {
  test('a JSON body over the limit is a 413 naming it, before the body is read', async () => {
    const answer = await engine('POST', '/v1.25/containers/create', { json: { Image: 'busybox:latest', Labels: { big: 'x'.repeat(100_000) } } });
    expect([answer.status, answer.json().message]).toEqual([413, 'the request body is larger than the 64 KiB a json body may have (--max-json-body)']);
  });

  test('a chunked tar body over the limit is a 413', async () => {
    // no Content-Length: the limit is met while reading
    const chunks = Readable.from(Array.from({ length: 300 }, () => Buffer.alloc(10_000)));
    const answer = await request(`${reference.engineUrl.replace(/^tcp:/, 'http:')}/v1.25/build`, { method: 'POST', body: chunks, headers: { 'content-type': 'application/x-tar' } });
    expect(answer.statusCode).toBe(413);
    expect(await answer.body.text()).toContain('2 MiB a tar body may have (--max-tar-body)');
  });

  test("a form over the limit is the token service's 413", async () => {
    const answer = await token('POST', '/token', { body: `grant_type=password&x=${'a'.repeat(50_000)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([answer.status, answer.json().error_description]).toEqual([413, 'the request body is larger than the 16 KiB a form body may have (--max-form-body)']);
  });

  test('an accounts body over the limit is a 413', async () => {
    const answer = await accounts('PATCH', '/api/v1.1/users/alice/', { body: 'x'.repeat(50_000), headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('alice:shipshape-alice-Tq7vRw2pLx').toString('base64')}` } });
    expect(answer.status).toBe(413);
  });

  test('headers over the limit are a 431 naming it in its status line, with no body (a HEAD may have sent them)', async () => {
    const { hostname, port } = new URL(reference.engineUrl);
    const answers = await Promise.all(
      ['GET', 'HEAD'].map(
        (method) =>
          new Promise<unknown[]>((resolve, reject) => {
            const outgoing = http.request({ hostname, port, method, path: '/_ping', agent: false, headers: { 'X-Big': 'a'.repeat(10_000) } }, (answer) => {
              let body = '';
              answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
              answer.on('end', () => resolve([answer.statusCode, answer.statusMessage, answer.headers['content-length'], body]));
            });
            outgoing.on('error', reject);
            outgoing.end();
          }),
      ),
    );
    const expected = [431, 'Request Header Fields Too Large: the request line and headers are larger than 8 KiB (--max-header)', '0', ''];
    expect(answers).toEqual([expected, expected]);
  });

  test('headers over the limit with a body still coming: the 431 reaches the client and no reset follows (a lingering close)', async () => {
    const { hostname, port } = new URL(reference.engineUrl);
    // a socket closed with bytes unread sends a reset: each client here sees its 431, then a clean close or a reset
    const send = () =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), hostname);
        let answer = '';
        let reset = false;
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
        socket.on('error', () => (reset = true));
        socket.on('close', () => resolve(`${answer.slice(0, 12)}${reset ? ' then a reset' : ''}`));
        socket.write(`POST /v1.25/containers/create HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000\r\nX-Big: ${'a'.repeat(300_000)}\r\n\r\n`);
        socket.end(Buffer.alloc(4_000_000, 97));
      });
    const answers = await Promise.all(Array.from({ length: 20 }, send));
    expect(answers).toEqual(Array.from({ length: 20 }, () => 'HTTP/1.1 431'));
  });

  test('headers over the limit on a kept-alive connection that already served a request are a 431 too, not a reset', async () => {
    const { hostname, port } = new URL(reference.engineUrl);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<number | string>((resolve) => {
        const outgoing = http.request({ hostname, port, path, agent }, (answer) => {
          answer.resume();
          answer.on('end', () => resolve(answer.statusCode ?? 0));
        });
        outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        outgoing.end();
      });
    try {
      expect([await get('/_ping'), await get(`/_ping?x=${'a'.repeat(10_000)}`)]).toEqual([200, 431]);
    } finally {
      agent.destroy();
    }
  });

  test('a target over the limit is a 414 naming it', async () => {
    const answer = await engine('GET', `/v1.25/containers/json?x=${'a'.repeat(3000)}`);
    expect([answer.status, answer.json().message]).toEqual([414, 'the request target is longer than 2 KiB (--max-url)']);
  });

  test('an upload that stalls is a 408 and its connection closes', async () => {
    const connection = await rawRequest(reference.engineUrl, 'POST /v1.25/build HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-tar\r\nContent-Length: 4096\r\n\r\nsome');
    expect(connection.status).toBe(408);
    expect((await connection.untilClosed()).toString()).toContain('(--idle-timeout)');
  });

  test('a hijacked request whose body stalls is a 408', async () => {
    const connection = await rawRequest(reference.engineUrl, 'POST /v1.25/exec/none/start HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: tcp\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"Detach"');
    expect(connection.status).toBe(408);
    connection.close();
    await stillServing();
  });
});
