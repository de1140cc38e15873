/**
 * POST /containers/{id}/attach and GET …/attach/ws over a real server on a manual clock: the
 * hijacked answer's head, frames and raw terminal bytes, stdin, the log replay, the refusals per
 * version, the websocket's unframed text messages, and the end of hijacked connections at close.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Call } from './http-client.ts';
import { httpRequest, rawRequest } from './raw-connection.ts';

const clock = new ManualScheduler();
let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  let next = 0;
  reference = await startReference({ scheduler: clock, ids: () => (++next).toString(16).padStart(64, 'a') });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function created(name: string, config: Record<string, unknown>): Promise<string> {
  const res = await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', ...config } });
  expect(res.status, res.text).toBe(201);
  return name;
}

async function start(name: string): Promise<void> {
  const res = await call('POST', `/containers/${name}/start`);
  expect(res.status, res.text).toBe(204);
}

/** A container that ran `sh -c 'echo out; echo err >&2'` to its end. */
async function exited(name: string): Promise<string> {
  await created(name, { Cmd: ['sh', '-c', 'echo out; echo err >&2'] });
  await start(name);
  await clock.advance(0);
  return name;
}

function texts(body: Buffer): { stdout: string; stderr: string } {
  const { stdout, stderr } = decodeFrames(body);
  return { stdout: stdout.toString(), stderr: stderr.toString() };
}

describe('POST attach', () => {
  test('Upgrade: tcp is answered 101 UPGRADED with the headers repeated; the run comes in frames; the connection ends with it', async () => {
    await created('framed', { Cmd: ['sh', '-c', 'echo out; echo err >&2'] });
    const stream = await rawRequest(reference.engineUrl, httpRequest('POST', '/v1.25/containers/framed/attach?stream=1&stdout=1&stderr=1'));
    expect(stream.status).toBe(101);
    expect(stream.headers).toMatchObject({ 'content-type': 'application/vnd.engine.raw-stream', connection: 'Upgrade', upgrade: 'tcp', 'api-version': '1.25' });
    await start('framed');
    expect(texts(await stream.untilClosed())).toEqual({ stdout: 'out\n', stderr: 'err\n' });
  });

  test('with a Tty the stream is the raw terminal: no frames, \\r\\n, stderr joined', async () => {
    await created('terminal', { Cmd: ['sh', '-c', 'echo out; echo err >&2'], Tty: true });
    const stream = await rawRequest(reference.engineUrl, httpRequest('POST', '/containers/terminal/attach?stream=1&stdout=1&stderr=1'));
    await start('terminal');
    expect((await stream.untilClosed()).toString()).toBe('out\r\nerr\r\n');
  });

  test('stdin goes to the process; the end of it ends cat (StdinOnce), the stream and the container', async () => {
    await created('cat', { Cmd: ['cat'], OpenStdin: true, StdinOnce: true });
    await start('cat');
    const stream = await rawRequest(reference.engineUrl, httpRequest('POST', '/containers/cat/attach?stream=1&stdin=1&stdout=1'));
    stream.write('hello\n');
    await stream.waitFor((body) => body.length >= 14);
    stream.endInput();
    expect(texts(await stream.untilClosed()).stdout).toBe('hello\n');
    const state = (await call('GET', '/containers/cat/json')).json<{ State: { Running: boolean; ExitCode: number } }>().State;
    expect(state).toMatchObject({ Running: false, ExitCode: 0 });
  });

  test('without Upgrade: 200 raw-stream whose body is the log replay (logs=1, stream=0)', async () => {
    await exited('replayed');
    const res = await call('POST', '/containers/replayed/attach?logs=1&stream=0&stdout=1&stderr=1');
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/vnd.engine.raw-stream']);
    expect(texts(res.body)).toEqual({ stdout: 'out\n', stderr: 'err\n' });
  });

  test('stream=1 to an exited container: 406, plain text before 1.24 and JSON from it', async () => {
    await exited('gone');
    const old = await call('POST', '/v1.23/containers/gone/attach?stream=1&stdout=1');
    expect([old.status, old.headers['content-type'], old.text]).toEqual([406, 'text/plain; charset=utf-8', expect.stringMatching(/is not running/)]);
    const current = await rawRequest(reference.engineUrl, httpRequest('POST', '/v1.24/containers/gone/attach?stream=1&stdout=1'));
    expect([current.status, current.headers['content-type']]).toEqual([406, 'application/json']);
    expect(JSON.parse((await current.untilClosed()).toString()).message).toMatch(/is not running/);
  });

  test('refusals: 404 for no such container, 409 paused, 400 for unknown detach keys at every version (as dockerd 20.10)', async () => {
    expect((await call('POST', '/containers/nothing/attach?stream=1&stdout=1')).status).toBe(404);
    await created('paused', { Cmd: ['sleep', '300'] });
    await start('paused');
    expect((await call('POST', '/containers/paused/pause')).status).toBe(204);
    expect((await call('POST', '/containers/paused/attach?stream=1&stdout=1')).status).toBe(409);
    expect((await call('POST', '/containers/paused/unpause')).status).toBe(204);
    const refused = await call('POST', '/v1.25/containers/paused/attach?stream=1&stdout=1&detachKeys=bogus');
    expect([refused.status, refused.json().message]).toEqual([400, 'Invalid detach keys (bogus) provided']);
    const older = await call('POST', '/v1.24/containers/paused/attach?stream=1&stdout=1&detachKeys=bogus');
    expect([older.status, older.json().message]).toEqual([400, 'Invalid detach keys (bogus) provided']);
  });

  test('detachKeys=ctrl-x ends the attach and publishes detach; the container keeps running', async () => {
    await created('keys', { Cmd: ['cat'], OpenStdin: true, Tty: true });
    await start('keys');
    const stream = await rawRequest(reference.engineUrl, httpRequest('POST', '/v1.25/containers/keys/attach?stream=1&stdin=1&stdout=1&detachKeys=ctrl-x'));
    stream.write(Buffer.from([0x18]));
    await stream.untilClosed();
    const { State } = (await call('GET', '/containers/keys/json')).json<{ State: { Running: boolean } }>();
    expect(State.Running).toBe(true);
    expect(reference.model.events.since(new Date(0)).map((event) => event.action)).toContain('detach');
  });
});

describe('GET attach/ws', () => {
  test('a websocket: stdin from messages, the output back unframed in text messages; its close ends stdin (StdinOnce)', async () => {
    await created('ws', { Cmd: ['sh', '-c', 'cat; echo done >&2'], OpenStdin: true, StdinOnce: true });
    await start('ws');
    const origin = reference.engineUrl.replace(/^tcp:/, 'ws:');
    const socket = new WebSocket(`${origin}/v1.25/containers/ws/attach/ws?stream=1&stdin=1&stdout=1&stderr=1`);
    const messages: Array<{ text: string; binary: boolean }> = [];
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.on('message', (data: Buffer, binary) => messages.push({ text: data.toString(), binary }));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('hi\n');
    await clock.advance(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages).toEqual([{ text: 'hi\n', binary: false }]);
    socket.close();
    await closed;
    await clock.advance(0);
    const { State } = (await call('GET', '/containers/ws/json')).json<{ State: { Running: boolean; ExitCode: number } }>();
    expect(State).toMatchObject({ Running: false, ExitCode: 0 });
  });

  test('a request that is no websocket handshake is a 400', async () => {
    await created('plain', { Cmd: ['sleep', '300'] });
    const res = await call('GET', '/v1.25/containers/plain/attach/ws?stream=1&stdout=1');
    expect([res.status, res.json().message]).toEqual([400, 'Invalid Upgrade header']);
    const noKey = await rawRequest(reference.engineUrl, httpRequest('GET', '/containers/plain/attach/ws', { headers: { Upgrade: 'websocket' } }));
    expect(noKey.status).toBe(400);
    expect((await noKey.untilClosed()).toString()).toMatch(/Sec-WebSocket-Key/);
  });
});

test('an Upgrade request to a route that does not hijack gets its usual answer, its body read, and the connection closes', async () => {
  const answer = await rawRequest(reference.engineUrl, httpRequest('POST', '/v1.24/containers/create?name=upgraded', { json: { Image: 'busybox', Cmd: ['true'] } }));
  expect([answer.status, answer.headers['content-type']]).toEqual([201, 'application/json']);
  expect(JSON.parse((await answer.untilClosed()).toString())).toEqual({ Id: expect.any(String), Warnings: expect.anything() });
  const missing = await rawRequest(reference.engineUrl, httpRequest('GET', '/v1.24/no/such/route'));
  expect([missing.status, JSON.parse((await missing.untilClosed()).toString())]).toEqual([404, { message: 'page not found' }]);
});

test('close() ends hijacked connections too', async () => {
  const own = await startReference({ scheduler: new ManualScheduler() });
  const ownCall = httpCaller(own.engineUrl);
  expect((await ownCall('POST', '/containers/create?name=held', { json: { Image: 'busybox', Cmd: ['sleep', '300'] } })).status).toBe(201);
  const stream = await rawRequest(own.engineUrl, httpRequest('POST', '/containers/held/attach?stream=1&stdout=1'));
  expect(stream.status).toBe(101);
  await own.close();
  await expect(stream.untilClosed()).resolves.toEqual(Buffer.alloc(0));
});
