/**
 * The container action, output and event endpoints over a real server on a manual clock: status
 * codes and bodies per version, frames of the logs, the events stream.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Answer, type Call } from './http-client.ts';

const clock = new ManualScheduler();
let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  let next = 0;
  reference = await startReference({ scheduler: clock, ids: () => (++next).toString(16).padStart(64, 'e') });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function created(name: string, config: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['sleep', '300'], ...config } });
  expect(res.status, res.text).toBe(201);
  return name;
}

async function started(name: string, config: Record<string, unknown> = {}): Promise<string> {
  await created(name, config);
  const res = await call('POST', `/containers/${name}/start`);
  expect(res.status, res.text).toBe(204);
  return name;
}

async function state(name: string): Promise<Record<string, unknown>> {
  return (await call('GET', `/containers/${name}/json`)).json<{ State: Record<string, unknown> }>().State;
}

/** Lets the engine run: processes start, exits are handled. */
const settle = () => clock.advance(0);

describe('start', () => {
  test('204, then 304 with no body for a running container', async () => {
    await started('s1');
    const again = await call('POST', '/containers/s1/start');
    expect([again.status, again.text]).toEqual([304, '']);
  });

  test('a HostConfig body is taken up to 1.23 and refused from 1.24; a body of {} is none', async () => {
    await created('old');
    const accepted = await call('POST', '/v1.23/containers/old/start', { json: { Memory: 8 * 1024 * 1024 } });
    expect(accepted.status).toBe(204);
    expect((await call('GET', '/containers/old/json')).json<{ HostConfig: { Memory: number } }>().HostConfig.Memory).toBe(8 * 1024 * 1024);
    await created('new');
    const refused = await call('POST', '/v1.24/containers/new/start', { json: { Memory: 8 * 1024 * 1024 } });
    expect([refused.status, refused.json().message]).toEqual([400, 'starting container with non-empty request body was deprecated since API v1.22 and removed in v1.24']);
    expect((await call('POST', '/v1.24/containers/new/start', { json: {} })).status).toBe(204);
  });

  test('a command that does not exist: 400 and the exit code 127 in the state', async () => {
    await created('bad', { Cmd: ['no-such-command'] });
    const res = await call('POST', '/containers/bad/start');
    expect(res.status).toBe(400);
    expect(res.json().message).toMatch(/exec: "no-such-command": executable file not found in \$PATH/);
    expect(await state('bad')).toMatchObject({ Status: 'created', ExitCode: 127 });
  });
});

describe('stop, kill, wait', () => {
  test('stop?t=2 answers once the clock has passed 2 s and SIGKILL ended the process', async () => {
    await started('st');
    let answer: Answer | undefined;
    const stopping = call('POST', '/containers/st/stop?t=2').then((res) => (answer = res));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await clock.advance(1999);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    expect((await stopping).status).toBe(204);
    expect(await state('st')).toMatchObject({ Running: false, ExitCode: 137 });
    expect((await call('POST', '/containers/st/stop')).status).toBe(304);
  });

  test('kill: the signal by name or number; an unknown one is 400', async () => {
    await started('kk', { Cmd: ['sh', '-c', "trap 'exit 3' TERM; sleep 300 & wait"] });
    await settle();
    const bad = await call('POST', '/containers/kk/kill?signal=SIGNOPE');
    expect([bad.status, bad.json().message]).toEqual([400, 'Invalid signal: SIGNOPE']);
    expect((await call('POST', '/containers/kk/kill?signal=15')).status).toBe(204);
    await settle();
    expect(await state('kk')).toMatchObject({ Running: false, ExitCode: 3 });
  });

  test('killing a container that is not running: 204 before 1.20, 409 from 1.20', async () => {
    const id = (await call('POST', '/containers/create', { json: { Image: 'busybox', Cmd: ['true'] } })).json<{ Id: string }>().Id;
    expect((await call('POST', `/v1.19/containers/${id}/kill`)).status).toBe(204);
    const refused = await call('POST', `/v1.20/containers/${id}/kill`);
    expect([refused.status, refused.text]).toEqual([409, `Cannot kill container: ${id}: Container ${id} is not running\n`]);
  });

  test('wait answers {StatusCode} when the process ends', async () => {
    await started('ww', { Cmd: ['sh', '-c', 'sleep 1; exit 5'] });
    const waiting = call('POST', '/containers/ww/wait');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await clock.advance(1000);
    const res = await waiting;
    expect([res.status, res.json()]).toEqual([200, { StatusCode: 5 }]);
  });
});

describe('pause, unpause, rename, resize, remove', () => {
  test('pause 204, again 409; unpause 204, again 500', async () => {
    await started('pp');
    expect((await call('POST', '/containers/pp/pause')).status).toBe(204);
    expect((await call('POST', '/containers/pp/pause')).status).toBe(409);
    expect(await state('pp')).toMatchObject({ Status: 'paused', Paused: true });
    expect((await call('POST', '/containers/pp/unpause')).status).toBe(204);
    expect((await call('POST', '/containers/pp/unpause')).status).toBe(500);
  });

  test('rename: 204 and found by the new name; a taken name 409; the same name 400', async () => {
    await created('before');
    await created('taken');
    expect((await call('POST', '/containers/before/rename?name=after')).status).toBe(204);
    expect((await call('GET', '/containers/after/json')).json().Name).toBe('/after');
    const taken = await call('POST', '/containers/after/rename?name=taken');
    expect([taken.status, taken.json().message]).toEqual([409, expect.stringMatching(/^Error when allocating new name: Conflict\. The container name "\/taken" is already in use/)]);
    expect((await call('POST', '/containers/after/rename?name=after')).status).toBe(400);
  });

  test('resize: 200 text/plain for a running container, 400 for a bad size, the row\'s 500 (cannot resize) when not running', async () => {
    await started('rr');
    const res = await call('POST', '/containers/rr/resize?h=24&w=80');
    expect([res.status, res.headers['content-type'], res.text]).toEqual([200, 'text/plain; charset=utf-8', '']);
    expect((await call('POST', '/containers/rr/resize?h=x&w=80')).status).toBe(400);
    await created('idle');
    expect((await call('POST', '/containers/idle/resize?h=24&w=80')).status).toBe(500);
  });

  test('remove: a running container 409 without force, 204 with force', async () => {
    await started('rm');
    expect((await call('DELETE', '/containers/rm')).status).toBe(409);
    expect((await call('DELETE', '/containers/rm?force=1')).status).toBe(204);
    expect((await call('GET', '/containers/rm/json')).status).toBe(404);
  });
});

describe('update', () => {
  test('no such route before 1.22; resources from 1.22; the restart policy from 1.23', async () => {
    await created('uu');
    expect((await call('POST', '/v1.21/containers/uu/update', { json: { Memory: 8 * 1024 * 1024 } })).status).toBe(404);
    const policy = { RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } };
    const res = await call('POST', '/v1.22/containers/uu/update', { json: { Memory: 8 * 1024 * 1024, MemorySwap: -1, BlkioWeight: 300, ...policy } });
    expect([res.status, res.json()]).toEqual([200, { Warnings: null }]);
    const read = async () => (await call('GET', '/containers/uu/json')).json<{ HostConfig: Record<string, unknown> }>().HostConfig;
    expect(await read()).toMatchObject({ Memory: 8 * 1024 * 1024, BlkioWeight: 300, RestartPolicy: { Name: '' } });
    expect((await call('POST', '/v1.23/containers/uu/update', { json: policy })).status).toBe(200);
    expect((await read()).RestartPolicy).toEqual(policy.RestartPolicy);
    expect((await call('POST', '/v1.23/containers/uu/update', { json: { BlkioWeight: 5 } })).status).toBe(400);
  });
});

describe('create rules by version', () => {
  test.each([
    ['1.21', { KernelMemory: 1024 }, 201],
    ['1.22', { KernelMemory: 1024 }, 400],
    ['1.20', { RestartPolicy: { Name: 'unless-stopped' } }, 400],
    ['1.21', { RestartPolicy: { Name: 'unless-stopped' } }, 201],
    ['1.24', { ShmSize: -1 }, 201],
    ['1.25', { ShmSize: -1 }, 400],
    ['1.25', { AutoRemove: true, RestartPolicy: { Name: 'always' } }, 400],
    ['1.24', { AutoRemove: true, RestartPolicy: { Name: 'always' } }, 201],
    ['1.25', { BlkioWeight: 'heavy' }, 400],
  ])('at %s, HostConfig %j: %i', async (version, hostConfig, status) => {
    const res = await call('POST', `/v${version}/containers/create`, { json: { Image: 'busybox', Cmd: ['true'], HostConfig: hostConfig } });
    expect(res.status, res.text).toBe(status);
  });

  test('Entrypoint [""] resets the entrypoint at 1.25 only', async () => {
    const body = { Image: 'busybox', Entrypoint: [''], Cmd: ['echo', 'hi'] };
    const inspected = async (version: string) => {
      const { Id } = (await call('POST', `/v${version}/containers/create`, { json: body })).json<{ Id: string }>();
      return (await call('GET', `/containers/${Id}/json`)).json<{ Path: string; Args: string[] }>();
    };
    expect(await inspected('1.25')).toMatchObject({ Path: 'echo', Args: ['hi'] });
    expect(await inspected('1.24')).toMatchObject({ Path: '', Args: ['echo', 'hi'] });
  });
});

describe('top and logs', () => {
  test('top: ps -ef columns of a running container; 409 once it is not', async () => {
    await started('tt');
    await settle();
    const res = await call('GET', '/containers/tt/top');
    expect(res.json()).toMatchObject({ Titles: ['UID', 'PID', 'PPID', 'C', 'STIME', 'TTY', 'TIME', 'CMD'], Processes: [['root', expect.any(String), expect.any(String), '0', '12:00', '?', '00:00:00', 'sleep 300']] });
    expect((await call('GET', '/containers/tt/top?ps_args=-o%20pid,comm')).json()).toMatchObject({ Titles: ['PID', 'COMMAND'] });
    await call('POST', '/containers/tt/kill');
    expect((await call('GET', '/containers/tt/top')).status).toBe(409);
  });

  test('logs: frames per stream without a Tty, no Content-Type; at least one stream is required', async () => {
    await started('ll', { Cmd: ['sh', '-c', 'echo out; echo err >&2'] });
    await settle();
    const res = await call('GET', '/containers/ll/logs?stdout=1&stderr=1');
    expect([res.status, res.headers['content-type']]).toEqual([200, undefined]);
    const frames = decodeFrames(res.body).frames.map((frame) => [frame.stream, frame.payload.toString()]);
    expect(frames).toEqual([['stdout', 'out\n'], ['stderr', 'err\n']]);
    expect((await call('GET', '/containers/ll/logs')).status).toBe(400);
  });

  test('logs with a Tty: the raw terminal bytes, stderr joined', async () => {
    await started('tty', { Cmd: ['sh', '-c', 'echo out; echo err >&2'], Tty: true });
    await settle();
    expect((await call('GET', '/containers/tty/logs?stdout=1&stderr=1')).text).toBe('out\r\nerr\r\n');
  });

  test('timestamps: RFC 3339 with nine fraction digits; details from 1.23: the attributes and a space', async () => {
    await started('ts', { Cmd: ['echo', 'hi'], Labels: { tier: 'web' }, HostConfig: { LogConfig: { Type: 'json-file', Config: { labels: 'tier' } } } });
    await settle();
    const stamped = decodeFrames((await call('GET', '/containers/ts/logs?stdout=1&timestamps=1')).body).stdout.toString();
    expect(stamped).toBe(`${new Date(clock.now()).toISOString().replace('Z', '000000Z')} hi\n`);
    const detailed = decodeFrames((await call('GET', '/v1.23/containers/ts/logs?stdout=1&details=1')).body).stdout.toString();
    expect(detailed).toBe('tier=web hi\n');
    expect(decodeFrames((await call('GET', '/v1.22/containers/ts/logs?stdout=1&details=1')).body).stdout.toString()).toBe('hi\n');
  });

  test('follow: the stream stays open until the process ends', async () => {
    await started('ff', { Cmd: ['sh', '-c', 'echo a; sleep 1; echo b'] });
    await settle();
    let done = false;
    const following = call('GET', '/containers/ff/logs?stdout=1&follow=1').then((res) => {
      done = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    await clock.advance(1000);
    expect(decodeFrames((await following).body).stdout.toString()).toBe('a\nb\n');
  });

  test('changes: what the container added, modified and deleted against its image; its size counts what it wrote', async () => {
    await started('ch', { Cmd: ['sh', '-c', 'mkdir -p /added; echo data > /tmp/created; rm /etc/passwd'] });
    await settle();
    expect((await call('GET', '/containers/ch/changes')).json()).toEqual([
      { Path: '/added', Kind: 1 },
      { Path: '/etc', Kind: 0 },
      { Path: '/etc/passwd', Kind: 2 },
      { Path: '/tmp', Kind: 0 },
      { Path: '/tmp/created', Kind: 1 },
    ]);
    const { SizeRw, SizeRootFs } = (await call('GET', '/containers/ch/json?size=1')).json<{ SizeRw: number; SizeRootFs: number }>();
    expect([SizeRw, SizeRootFs - SizeRw]).toEqual(['data\n'.length, 1_093_484]);
  });

  test('a read-only rootfs: the process cannot write outside the mount points', async () => {
    await started('ro', { Cmd: ['sh', '-c', 'touch /tmp/x'], HostConfig: { ReadonlyRootfs: true } });
    await settle();
    expect((await state('ro')).ExitCode).toBe(1);
    expect((await call('GET', '/containers/ro/changes')).json()).toEqual([]);
  });

  test('a log driver that keeps nothing cannot be read: 500, the status the logs row lists', async () => {
    await started('none', { Cmd: ['echo', 'hi'], HostConfig: { LogConfig: { Type: 'none' } } });
    expect((await call('GET', '/containers/none/logs?stdout=1')).status).toBe(500);
  });
});

describe('GET /events', () => {
  const now = () => Math.floor(clock.now() / 1000);

  test('since and until: the kept events in that window, then the end of the stream', async () => {
    await started('ev', { Cmd: ['true'] });
    await settle();
    const res = await call('GET', `/events?since=0&until=${now()}`);
    const events = res.text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/json']);
    // The container joins the default bridge as it starts and leaves it before it dies, as on dockerd.
    expect(events.map((event) => event.Action)).toEqual(['create', 'connect', 'start', 'disconnect', 'die']);
    expect(events[4]).toMatchObject({
      status: 'die',
      id: expect.any(String),
      from: 'busybox',
      Type: 'container',
      Actor: { Attributes: { exitCode: '0', image: 'busybox', name: 'ev' } },
      time: now(),
      timeNano: clock.now() * 1_000_000,
    });
  });

  test('filters in both forms; timeNano from 1.21 only', async () => {
    await started('one', { Cmd: ['true'] });
    await started('two', { Cmd: ['true'] });
    await settle();
    const actions = async (query: string, version = '') =>
      (await call('GET', `${version}/events?since=0&until=${now()}&filters=${encodeURIComponent(query)}`)).text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect((await actions('{"container":["two"],"event":["die"]}')).map((event) => event.Actor.Attributes.name)).toEqual(['two']);
    expect(await actions('{"type":{"image":true}}')).toEqual([]);
    expect((await actions('{"event":["start"]}', '/v1.20'))[0]).not.toHaveProperty('timeNano');
    expect((await call('GET', `/events?filters=${encodeURIComponent('{"nope":["x"]}')}`)).status).toBe(400);
  });

  test('live events stream to a subscriber as they happen', async () => {
    const chunks: string[] = [];
    const origin = reference.engineUrl.replace(/^tcp:/, 'http:');
    const abort = new AbortController();
    const { request } = await import('undici');
    const res = await request(`${origin}/events?filters=${encodeURIComponent('{"type":["container"]}')}`, { signal: abort.signal });
    res.body.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    await created('live');
    await new Promise((resolve) => setTimeout(resolve, 50));
    abort.abort();
    await new Promise((resolve) => res.body.once('close', resolve));
    expect(chunks.join('').trim().split('\n').map((line) => JSON.parse(line).Action)).toEqual(['create']);
    // the server notices the closed connection a moment later
    for (let tries = 0; reference.model.events.listenerCount > 0 && tries < 50; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reference.model.events.listenerCount).toBe(0);
  });
});
