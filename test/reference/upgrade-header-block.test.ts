/**
 * The 101 answer of a hijacked attach, exec start or websocket attach leaves as a write of its own
 * before the first stream byte, as dockerd's does: a client that reads the head through a buffered
 * reader and then takes the raw socket must not find the first frame swallowed by that buffer. Read
 * byte-wise on a raw socket, the first 'data' event ends exactly at the head's blank line.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Call } from './http-client.ts';

let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  reference = await startReference({});
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

/** The chunks of the first two 'data' events of `request` on a fresh connection (or fewer, if it closes). */
function firstChunks(request: string): Promise<Buffer[]> {
  const { hostname, port } = new URL(reference.engineUrl.replace(/^tcp:/, 'http:'));
  const socket = connect({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`fewer than 2 chunks within 5 s: ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`));
    }, 5000);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(chunks);
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunks.length === 2) done();
    });
    socket.on('close', done);
    socket.write(request);
  });
}

function hijackRequest(path: string, body = ''): string {
  return `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n${body}`;
}

async function running(name: string, cmd: string[]): Promise<void> {
  expect((await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: cmd } })).status).toBe(201);
  expect((await call('POST', `/containers/${name}/start`)).status).toBe(204);
}

function expectHeadAlone(chunks: Buffer[], status: string): void {
  const first = chunks[0]?.toString('latin1') ?? '';
  expect(first.startsWith(`HTTP/1.1 ${status}`), first).toBe(true);
  expect(first.endsWith('\r\n\r\n'), `the first read is the head alone: ${JSON.stringify(first)}`).toBe(true);
  expect(chunks.length, 'a stream chunk follows the head').toBe(2);
}

describe('the 101 head is a write of its own', () => {
  test('exec start: the head, then the first frame', async () => {
    await running('exec-head', ['sleep', '300']);
    const created = await call('POST', '/containers/exec-head/exec', { json: { Cmd: ['echo', 'first'], AttachStdout: true } });
    const id = created.json<{ Id: string }>().Id;
    const chunks = await firstChunks(hijackRequest(`/exec/${id}/start`, '{"Detach":false,"Tty":false}'));
    expectHeadAlone(chunks, '101');
    expect(chunks[1]?.subarray(8).toString()).toBe('first\n');
  });

  test('attach with logs=1: the head, then the replayed log', async () => {
    await running('attach-head', ['sh', '-c', 'echo logged; sleep 300']);
    // the log holds the line before the attach asks for it
    for (let tries = 0; tries < 50 && !(await call('GET', '/containers/attach-head/logs?stdout=1')).body.includes('logged'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const chunks = await firstChunks(hijackRequest('/containers/attach-head/attach?logs=1&stream=1&stdout=1'));
    expectHeadAlone(chunks, '101');
    expect(chunks[1]?.subarray(8).toString()).toBe('logged\n');
  });

  test('websocket attach: the head, then the first message', async () => {
    await running('ws-head', ['sh', '-c', 'echo logged; sleep 300']);
    for (let tries = 0; tries < 50 && !(await call('GET', '/containers/ws-head/logs?stdout=1')).body.includes('logged'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const request =
      'GET /containers/ws-head/attach/ws?logs=1&stdout=1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
    const chunks = await firstChunks(request);
    expectHeadAlone(chunks, '101');
    expect(chunks[1]?.toString('latin1')).toContain('logged');
  });
});
