/**
 * POST /build over a real server: dockerd's JSON message stream byte for byte, `q`, what is refused
 * before the stream (and how, per version), failures inside it, the dialect's build file names, and
 * remote contexts served by a local HTTP server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../../reference/serve.ts';
import { httpCaller, type Answer, type Call } from '../http-client.ts';
import { contextTar } from './build-fixtures.ts';

let reference: RunningReference;
let engine: RunningReference;
let call: Call;
let engineCall: Call;
let files: Server;
let filesUrl: string;

/** What the local file server answers, by path: body and Content-Type. */
const served = new Map<string, { body: Buffer; type: string }>();

beforeAll(async () => {
  reference = await startReference({ dialect: 'docker' });
  engine = await startReference({ dialect: 'engine' });
  call = httpCaller(reference.engineUrl);
  engineCall = httpCaller(engine.engineUrl);
  files = createServer((request, response) => {
    const file = served.get(request.url ?? '');
    if (file === undefined) {
      response.writeHead(404, 'File not found');
      response.end('nothing here\n');
      return;
    }
    response.writeHead(200, { 'Content-Type': file.type });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all([reference.close(), engine.close()]);
  await new Promise((resolve) => files.close(resolve));
});
beforeEach(() => {
  reference.reset();
  engine.reset();
});

async function build(query: string, context: Record<string, string>, options: { version?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return call('POST', `${options.version ?? '/v1.24'}/build?${query}`, { body: await contextTar(context), headers: { 'content-type': 'application/x-tar', ...options.headers } });
}

const messages = (answer: Answer) => answer.text.split('\r\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the stream', () => {
  test("dockerd's bytes: one JSON message a line, CRLF, Go's escapes of <, > and &", async () => {
    const answer = await build('t=built:one', { Dockerfile: 'FROM busybox\nRUN echo a > /f && echo out\n' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    const busybox = reference.model.images.find('busybox').id.slice(7, 19);
    const image = reference.model.images.find('built:one').id.slice(7, 19);
    const lines = answer.text.split('\r\n');
    expect(lines.slice(0, 5)).toEqual([
      '{"stream":"Step 1/2 : FROM busybox"}',
      '{"stream":"\\n"}',
      `{"stream":" ---\\u003e ${busybox}\\n"}`,
      '{"stream":"Step 2/2 : RUN echo a \\u003e /f \\u0026\\u0026 echo out"}',
      '{"stream":"\\n"}',
    ]);
    expect(lines.slice(-4)).toEqual([`{"stream":" ---\\u003e ${image}\\n"}`, `{"stream":"Successfully built ${image}\\n"}`, '{"stream":"Successfully tagged built:one\\n"}', '']);
  });

  test('q: a success shows only the image id', async () => {
    const answer = await build('q=1&t=built:quiet', { Dockerfile: 'FROM busybox\nRUN echo out\n' });
    expect(messages(answer)).toEqual([{ stream: `${reference.model.images.find('built:quiet').id}\n` }]);
  });

  test('a failing step ends the stream with its error and exit code, and tags nothing', async () => {
    const answer = await build('t=built:fails', { Dockerfile: 'FROM busybox\nRUN exit 3\n' });
    const message = "The command '/bin/sh -c exit 3' returned a non-zero code: 3";
    expect(answer.status).toBe(200);
    expect(messages(answer).at(-1)).toEqual({ errorDetail: { code: 3, message }, error: message });
    expect(() => reference.model.images.find('built:fails')).toThrow('No such image');
  });

  test('q: a failure shows everything held back, then the error', async () => {
    const answer = await build('q=1', { Dockerfile: 'FROM busybox\nRUN echo before; exit 1\n' });
    const texts = messages(answer).map((message) => message.stream ?? message.error);
    expect(texts[0]).toBe('Step 1/2 : FROM busybox');
    expect(texts).toContain('before\n');
    expect(texts.at(-1)).toBe("The command '/bin/sh -c echo before; exit 1' returned a non-zero code: 1");
  });

  test('t repeats; each name is tagged', async () => {
    const answer = await build('t=built:a&t=built:b&t=built:a', { Dockerfile: 'FROM busybox\n' });
    expect(messages(answer).slice(-2)).toEqual([{ stream: 'Successfully tagged built:a\n' }, { stream: 'Successfully tagged built:b\n' }]);
  });

  test('labels become the last steps; a malformed X-Registry-Config is ignored', async () => {
    const answer = await build(`labels=${encodeURIComponent('{"l":"v"}')}&t=built:labelled`, { Dockerfile: 'FROM busybox\n' }, { headers: { 'X-Registry-Config': '!!not base64' } });
    expect(messages(answer)[3]).toEqual({ stream: 'Step 2/2 : LABEL l=v' });
    expect(reference.model.images.find('built:labelled').config.Labels).toEqual({ l: 'v' });
  });
});

describe('refused before the stream', () => {
  test.each([
    ['/v1.24', '', { Dockerfile: 'FROM busybox\nFOO bar\n' }, 400, 'dockerfile parse error line 2: unknown instruction: FOO'],
    ['/v1.24', '', { other: 'x' }, 500, 'Cannot locate specified Dockerfile: Dockerfile'],
    ['/v1.24', 'dockerfile=nope', { Dockerfile: 'FROM busybox' }, 500, 'Cannot locate specified Dockerfile: nope'],
    ['/v1.24', 't=Bad:Name', { Dockerfile: 'FROM busybox' }, 500, 'invalid reference format: repository name must be lowercase'],
    ['/v1.24', 't=bad::name', { Dockerfile: 'FROM busybox' }, 500, 'invalid reference format'],
    ['/v1.24', `t=foo@sha256:${'a'.repeat(64)}`, { Dockerfile: 'FROM busybox' }, 500, 'build tag cannot contain a digest'],
    ['/v1.24', `t=${'a'.repeat(64)}`, { Dockerfile: 'FROM busybox' }, 500, `invalid repository name (${'a'.repeat(64)}), cannot specify 64-byte hexadecimal strings`],
    ['/v1.24', 'buildargs=notjson', { Dockerfile: 'FROM busybox' }, 400, 'error reading build args: '],
    ['/v1.24', 'labels=notjson', { Dockerfile: 'FROM busybox' }, 400, 'error reading labels: '],
    ['/v1.24', 'buildargs=%7B%22a%22%3A1%7D', { Dockerfile: 'FROM busybox' }, 400, 'error reading build args: json: cannot unmarshal number into Go value of type string'],
    ['/v1.24', 'labels=%5B%5D', { Dockerfile: 'FROM busybox' }, 400, 'error reading labels: json: cannot unmarshal array into Go value of type map[string]string'],
    ['/v1.24', 'remote=notaurl', {}, 500, 'remoteURL (notaurl) could not be recognized as URL'],
    ['/v1.24', 'remote=https%3A%2F%2Fgit.test%2Fx%2Fy.git', {}, 500, "error fetching: fatal: unable to access 'https://git.test/x/y.git/': Could not resolve host: git.test\n: exit status 128"],
  ])('%s %s → %i %s', async (version, query, context, status, message) => {
    const answer = await build(query, context, { version });
    expect(answer.status).toBe(status);
    expect((answer.json() as { message: string }).message.startsWith(message)).toBe(true);
  });

  test.each([
    ['x'.repeat(2048), 'archive/tar: invalid tar header'],
    ['not a tar', 'unexpected EOF'],
    ['\x1f\x8b\x08garbage', 'unexpected EOF'],
  ])('a body that is no tar (%#) is a 500: %s', async (body, message) => {
    const answer = await call('POST', '/v1.24/build', { body: Buffer.from(body, 'latin1') });
    expect(answer.status).toBe(500);
    expect(answer.json()).toEqual({ message });
  });

  test('before 1.24 the error is plain text', async () => {
    const answer = await build('', { Dockerfile: 'FROM busybox\nFOO bar\n' }, { version: '/v1.20' });
    expect(answer.status).toBe(400);
    expect(answer.text).toBe('dockerfile parse error line 2: unknown instruction: FOO\n');
  });
});

describe('dialects', () => {
  test('the engine dialect reads `Buildfile`, or the path in `buildfile`', async () => {
    const post = async (query: string, context: Record<string, string>) => engineCall('POST', `/v1.24/build?${query}`, { body: await contextTar(context) });
    expect((await post('t=engine:default', { Buildfile: 'FROM busybox\n' })).status).toBe(200);
    expect((await post('buildfile=sub%2FB&t=engine:path', { 'sub/B': 'FROM busybox\n' })).text).toContain('Successfully tagged engine:path');
    expect((await post('', { Dockerfile: 'FROM busybox\n' })).json()).toEqual({ message: 'Cannot locate specified Buildfile: Buildfile' });
  });
});

describe('remote', () => {
  test('a single build file at an URL: its download is reported, then the build runs with no context', async () => {
    served.set('/Dockerfile', { body: Buffer.from('FROM busybox\nRUN echo remote\n'), type: 'text/plain; charset=utf-8' });
    const url = `${filesUrl}/Dockerfile`;
    const answer = await call('POST', `/v1.24/build?remote=${encodeURIComponent(url)}`);
    const all = messages(answer);
    expect(all.slice(0, 3)).toEqual([{ status: url, progressDetail: { current: 29 }, progress: '     29B', id: 'Downloading context' }, {}, { stream: 'Step 1/2 : FROM busybox' }]);
    expect(answer.text).toContain('remote\\n');
  });

  test('a context tar at an URL (sniffed when served as octet-stream); a COPY of a missing context fails', async () => {
    served.set('/ctx.tar', { body: await contextTar({ Dockerfile: 'FROM busybox\nCOPY f /f\n', f: 'x' }), type: 'application/octet-stream' });
    const answer = await call('POST', `/v1.24/build?t=remote:tar&remote=${encodeURIComponent(`${filesUrl}/ctx.tar`)}`);
    expect(answer.text).toContain('Successfully tagged remote:tar');
    served.set('/COPY', { body: Buffer.from('FROM busybox\nCOPY . /c\n'), type: 'text/plain' });
    const missing = await call('POST', `/v1.24/build?remote=${encodeURIComponent(`${filesUrl}/COPY`)}`);
    expect(messages(missing).at(-1)).toEqual({ errorDetail: { message: 'COPY failed: missing build context' }, error: 'COPY failed: missing build context' });
  });

  test('an URL that answers 404 is a 404 with what the server said', async () => {
    const url = `${filesUrl}/missing`;
    const answer = await call('POST', `/v1.24/build?remote=${encodeURIComponent(url)}`);
    expect(answer.status).toBe(404);
    expect(answer.json()).toEqual({ message: `failed to GET ${url} with status 404 File not found: nothing here` });
  });
});
