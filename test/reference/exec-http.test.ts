/**
 * The exec endpoints over a real server on a manual clock: create and its refusals, start detached,
 * attached (200 body) and hijacked (101, body and stdin on one connection), the inspect shape of each
 * version, resize, and the 409-from-1.21 rule for a stopped container.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { FrameDecoder, decodeFrames, joinStreams } from '../../harness/streams/frame-decoder.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Call } from './http-client.ts';
import { httpRequest, rawRequest } from './raw-connection.ts';

const clock = new ManualScheduler();
let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  let next = 0;
  reference = await startReference({ scheduler: clock, ids: () => (++next).toString(16).padStart(64, 'b') });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function running(name: string): Promise<string> {
  const res = await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['sleep', '300'] } });
  expect(res.status, res.text).toBe(201);
  expect((await call('POST', `/containers/${name}/start`)).status).toBe(204);
  return res.json<{ Id: string }>().Id;
}

async function execIn(container: string, body: Record<string, unknown>, version = ''): Promise<string> {
  const res = await call('POST', `${version}/containers/${container}/exec`, { json: body });
  expect(res.status, res.text).toBe(201);
  return res.json<{ Id: string }>().Id;
}

describe('create', () => {
  test('201 {Id, Warnings: []}', async () => {
    await running('c1');
    const res = await call('POST', '/containers/c1/exec', { json: { Cmd: ['true'] } });
    expect([res.status, res.json()]).toEqual([201, { Id: expect.stringMatching(/^[0-9a-f]{64}$/), Warnings: [] }]);
  });

  test('refusals: no body, no command, no such container, not running (409 from 1.21, 500 before), bad detach keys 400 at every version (dockerd 20.10 reads them whatever the version; its status is 500)', async () => {
    await running('c2');
    expect((await call('POST', '/containers/c2/exec', { headers: { 'content-type': 'application/json' } })).json().message).toBe('got EOF while reading request body');
    const noCmd = await call('POST', '/containers/c2/exec', { json: { Cmd: [] } });
    expect([noCmd.status, noCmd.json().message]).toEqual([400, 'No exec command specified']);
    expect((await call('POST', '/containers/none/exec', { json: { Cmd: ['true'] } })).status).toBe(404);
    expect((await call('POST', '/v1.25/containers/c2/exec', { json: { Cmd: ['true'], DetachKeys: 'bogus' } })).status).toBe(400);
    expect((await call('POST', '/v1.24/containers/c2/exec', { json: { Cmd: ['true'], DetachKeys: 'bogus' } })).status).toBe(400);
    expect((await call('POST', '/containers/c2/kill')).status).toBe(204);
    expect((await call('POST', '/v1.21/containers/c2/exec', { json: { Cmd: ['true'] } })).status).toBe(409);
    expect((await call('POST', '/v1.20/containers/c2/exec', { json: { Cmd: ['true'] } })).status).toBe(500);
  });
});

describe('start', () => {
  test('detached: 200 with no body, the command runs, its exit code shows once it ends', async () => {
    await running('d1');
    const id = await execIn('d1', { Cmd: ['sh', '-c', 'sleep 2; exit 3'] });
    const res = await call('POST', `/exec/${id}/start`, { json: { Detach: true } });
    expect([res.status, res.text, res.headers['content-type']]).toEqual([200, '', undefined]);
    expect((await call('GET', `/exec/${id}/json`)).json()).toMatchObject({ Running: true, ExitCode: null });
    await clock.advance(2000);
    expect((await call('GET', `/exec/${id}/json`)).json()).toMatchObject({ Running: false, ExitCode: 3 });
  });

  test('attached without Upgrade: 200 raw-stream, frames without Tty and the terminal with one (the start body decides)', async () => {
    await running('a1');
    const script = ['sh', '-c', 'echo out; echo err >&2'];
    const framed = await call('POST', `/exec/${await execIn('a1', { Cmd: script, AttachStdout: true, AttachStderr: true })}/start`, { json: { Detach: false } });
    expect([framed.status, framed.headers['content-type']]).toEqual([200, 'application/vnd.engine.raw-stream']);
    const { stdout, stderr } = decodeFrames(framed.body);
    expect([stdout.toString(), stderr.toString()]).toEqual(['out\n', 'err\n']);
    const tty = await call('POST', `/exec/${await execIn('a1', { Cmd: script, AttachStdout: true, AttachStderr: true, Tty: true })}/start`, { json: { Tty: true } });
    expect(tty.text).toBe('out\r\nerr\r\n');
  });

  test('hijacked: the body and the first stdin bytes in one packet; cat answers them and ends with the input', async () => {
    await running('h1');
    const id = await execIn('h1', { Cmd: ['cat'], AttachStdin: true, AttachStdout: true });
    const stream = await rawRequest(reference.engineUrl, `${httpRequest('POST', `/exec/${id}/start`, { json: { Detach: false, Tty: false } })}typed ahead\n`);
    expect([stream.status, stream.headers['content-type'], stream.headers.upgrade]).toEqual([101, 'application/vnd.engine.raw-stream', 'tcp']);
    await stream.waitFor((body) => joinStreams(new FrameDecoder().push(body)).stdout.toString() === 'typed ahead\n');
    stream.endInput();
    expect(decodeFrames(await stream.untilClosed()).stdout.toString()).toBe('typed ahead\n');
    expect((await call('GET', `/exec/${id}/json`)).json()).toMatchObject({ Running: false, ExitCode: 0 });
  });

  test('a command that does not exist: the stream says so, and ExitCode is 126', async () => {
    await running('n1');
    const id = await execIn('n1', { Cmd: ['no-such-command'], AttachStdout: true });
    const res = await call('POST', `/exec/${id}/start`, { json: {} });
    expect(decodeFrames(res.body).stdout.toString()).toMatch(/executable file not found in \$PATH: unknown\r\n$/);
    expect((await call('GET', `/exec/${id}/json`)).json()).toMatchObject({ Running: false, ExitCode: 126 });
  });

  test('refusals: no body, no such exec, twice, paused container, stopped container (409 from 1.21, 500 before)', async () => {
    await running('r1');
    const id = await execIn('r1', { Cmd: ['sleep', '300'] });
    expect((await call('POST', `/exec/${id}/start`)).json().message).toBe('EOF');
    expect((await call('POST', `/exec/${'f'.repeat(64)}/start`, { json: { Detach: true } })).status).toBe(404);
    expect((await call('POST', `/exec/${id}/start`, { json: { Detach: true } })).status).toBe(200);
    const again = await call('POST', `/exec/${id}/start`, { json: { Detach: true } });
    expect([again.status, again.json().message]).toEqual([409, `Error: Exec command ${id} is already running`]);
    const later = await execIn('r1', { Cmd: ['true'] });
    expect((await call('POST', '/containers/r1/pause')).status).toBe(204);
    expect((await call('POST', `/exec/${later}/start`, { json: { Detach: true } })).status).toBe(409);
    expect((await call('POST', '/containers/r1/unpause')).status).toBe(204);
    expect((await call('POST', '/containers/r1/kill')).status).toBe(204);
    expect((await call('POST', `/v1.21/exec/${later}/start`, { json: { Detach: true } })).status).toBe(409);
    expect((await call('POST', `/v1.20/exec/${later}/start`, { json: { Detach: true } })).status).toBe(500);
  });
});

describe('inspect', () => {
  test('1.25: the ContainerID shape with Pid, DetachKeys as base64 bytes, ProcessConfig with the user', async () => {
    const containerId = await running('i1');
    const id = await execIn('i1', { Cmd: ['sh', '-c', 'exit 0'], AttachStdin: true, Tty: true, DetachKeys: 'ctrl-x' }, '/v1.25');
    const res = await call('GET', `/v1.25/exec/${id}/json`);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({
      ID: id,
      Running: false,
      ExitCode: null,
      ProcessConfig: { tty: true, entrypoint: 'sh', arguments: ['-c', 'exit 0'], privileged: false, user: '' },
      OpenStdin: true,
      OpenStderr: false,
      OpenStdout: false,
      CanRemove: false,
      ContainerID: containerId,
      DetachKeys: 'GA==',
      Pid: 0,
    });
  });

  test('1.22 to 1.24: no Pid; up to 1.21 the container embedded and ExitCode 0 before the end', async () => {
    await running('i2');
    const id = await execIn('i2', { Cmd: ['true'], User: 'root' });
    const middle = (await call('GET', `/v1.22/exec/${id}/json`)).json();
    expect(middle).toMatchObject({ ContainerID: expect.any(String), ExitCode: null, ProcessConfig: expect.objectContaining({ user: 'root' }) });
    expect(middle).not.toHaveProperty('Pid');
    const old = (await call('GET', `/v1.21/exec/${id}/json`)).json();
    expect(old).toMatchObject({ ExitCode: 0, Container: { Name: '/i2', State: expect.objectContaining({ Running: true }) } });
    expect(old).not.toHaveProperty('ContainerID');
    expect((await call('GET', `/exec/${'f'.repeat(64)}/json`)).status).toBe(404);
  });
});

describe('resize', () => {
  test('a running exec: 201 text/plain; bad sizes 400; no such exec 404', async () => {
    await running('z1');
    const id = await execIn('z1', { Cmd: ['sleep', '300'], Tty: true });
    expect((await call('POST', `/exec/${id}/start`, { json: { Detach: true, Tty: true } })).status).toBe(200);
    const res = await call('POST', `/exec/${id}/resize?h=40&w=100`);
    expect([res.status, res.headers['content-type'], res.text]).toEqual([201, 'text/plain; charset=utf-8', '']);
    expect((await call('POST', `/exec/${id}/resize?h=x&w=100`)).status).toBe(400);
    expect((await call('POST', `/exec/${'f'.repeat(64)}/resize?h=1&w=1`)).status).toBe(404);
  });
});
