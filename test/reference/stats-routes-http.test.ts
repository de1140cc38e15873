/**
 * GET /containers/{id}/stats over a real server on a manual clock: the one-shot answer, the stream
 * and its previous samples, the fields of each version, a container that is not running.
 */
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ArrivingBytes } from '../../harness/client/arriving-bytes.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Answer, type Call } from './http-client.ts';

type Stats = Record<string, unknown> & { read: string; preread?: string; cpu_stats: { cpu_usage: { total_usage: number } }; precpu_stats?: unknown };

const clock = new ManualScheduler();
let reference: RunningReference;
let call: Call;
let origin: string;

beforeAll(async () => {
  let next = 0;
  reference = await startReference({ scheduler: clock, ids: () => (++next).toString(16).padStart(64, 'f') });
  call = httpCaller(reference.engineUrl);
  origin = reference.engineUrl.replace(/^tcp:/, 'http:');
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

const realTurn = () => new Promise((resolve) => setImmediate(resolve));

async function running(name: string, config: Record<string, unknown> = {}): Promise<void> {
  expect((await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['sleep', '300'], ...config } })).status).toBe(201);
  expect((await call('POST', `/containers/${name}/start`)).status).toBe(204);
  await clock.advance(0);
}

/** Moves the clock a second at a time until the answer is complete: a one-shot answer waits for a second sample. */
async function settled(answer: Promise<Answer>): Promise<Answer> {
  let done = false;
  void answer.finally(() => (done = true));
  while (!done) {
    await realTurn();
    await clock.advance(1000);
  }
  return answer;
}

/** The stats objects of a body, one per line. */
function samples(body: Buffer): Stats[] {
  return body.toString('utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Stats);
}

interface OpenStream {
  status: number;
  contentType: unknown;
  bytes: ArrivingBytes;
  close(): void;
}

async function openStream(path: string): Promise<OpenStream> {
  const { statusCode, headers, body } = await request(`${origin}${path}`);
  return { status: statusCode, contentType: headers['content-type'], bytes: new ArrivingBytes(body), close: () => body.destroy() };
}

/** Moves the clock on until `count` samples have arrived on the stream. */
async function collected(stream: OpenStream, count: number): Promise<Stats[]> {
  for (let turn = 0; samples(stream.bytes.received).length < count && turn < 50; turn++) {
    await realTurn();
    await clock.advance(1000);
    await stream.bytes.waitFor(() => samples(stream.bytes.received).length >= count, 20);
  }
  return samples(stream.bytes.received).slice(0, count);
}

describe('stream=false', () => {
  test('one object of the second sample, so precpu_stats is a real previous one; Content-Type and length', async () => {
    await running('one');
    const res = await settled(call('GET', '/v1.25/containers/one/stats?stream=false'));
    expect([res.status, res.headers['content-type'], Number(res.headers['content-length'])]).toEqual([200, 'application/json', res.body.length]);
    const [sample, ...more] = samples(res.body);
    expect(more).toEqual([]);
    expect(Date.parse(sample?.read ?? '') - Date.parse(sample?.preread ?? '')).toBe(1000);
    expect(sample?.precpu_stats).toMatchObject({ cpu_usage: { total_usage: expect.any(Number) }, system_cpu_usage: expect.any(Number) });
    expect(sample).toMatchObject({ name: '/one', pids_stats: { current: 1 }, networks: { eth0: { rx_packets: expect.any(Number) } } });
  });

  test('a container that is not running: the empty sample at once', async () => {
    expect((await call('POST', '/containers/create?name=idle', { json: { Image: 'busybox', Cmd: ['true'] } })).status).toBe(201);
    const res = await call('GET', '/v1.25/containers/idle/stats?stream=0');
    expect(res.status).toBe(200);
    const zero = { cpu_usage: { total_usage: 0, usage_in_kernelmode: 0, usage_in_usermode: 0 }, throttling_data: { periods: 0, throttled_periods: 0, throttled_time: 0 } };
    expect(res.json()).toEqual({
      read: '0001-01-01T00:00:00Z',
      preread: '0001-01-01T00:00:00Z',
      pids_stats: {},
      blkio_stats: expect.objectContaining({ io_service_bytes_recursive: null, sectors_recursive: null }),
      num_procs: 0,
      storage_stats: {},
      cpu_stats: zero,
      precpu_stats: zero,
      memory_stats: {},
      name: '/idle',
      id: expect.stringMatching(/^f+\d+$/),
    });
  });

  test('404 for a container that does not exist', async () => {
    const res = await call('GET', '/v1.24/containers/nope/stats?stream=0');
    expect([res.status, res.json()]).toEqual([404, { message: 'No such container: nope' }]);
  });
});

describe('streaming', () => {
  test('a sample a second; the first has zero precpu_stats, each next one the cpu_stats before it', async () => {
    await running('live');
    const stream = await openStream('/v1.25/containers/live/stats');
    try {
      expect([stream.status, stream.contentType]).toEqual([200, 'application/json']);
      const [first, second, third] = await collected(stream, 3);
      expect(first?.preread).toBe('0001-01-01T00:00:00Z');
      expect(first?.precpu_stats).toEqual({ cpu_usage: { total_usage: 0, usage_in_kernelmode: 0, usage_in_usermode: 0 }, throttling_data: { periods: 0, throttled_periods: 0, throttled_time: 0 } });
      expect(second?.precpu_stats).toEqual(first?.cpu_stats);
      expect(third?.precpu_stats).toEqual(second?.cpu_stats);
      expect(third?.preread).toBe(second?.read);
      expect(third?.cpu_stats.cpu_usage.total_usage).toBeGreaterThan(second?.cpu_stats.cpu_usage.total_usage ?? Infinity);
      expect(stream.bytes.ended).toBe(false);
    } finally {
      stream.close();
    }
  });

  test('the stream ends when the container is removed', async () => {
    await running('gone');
    const stream = await openStream('/containers/gone/stats');
    await collected(stream, 1);
    expect((await call('DELETE', '/containers/gone?force=1')).status).toBe(204);
    await clock.advance(1000);
    expect(await stream.bytes.endsWithin(1000)).toBe(true);
  });
});

describe('fields by version', () => {
  test('before 1.19 every request streams, without precpu_stats; a summed network up to 1.20', async () => {
    await running('old');
    const stream = await openStream('/v1.18/containers/old/stats?stream=0');
    try {
      const [first, second] = await collected(stream, 2);
      expect(second).toBeDefined();
      for (const absent of ['precpu_stats', 'preread', 'networks', 'pids_stats', 'name', 'id']) expect(first).not.toHaveProperty(absent);
      expect(first?.network).toEqual(expect.objectContaining({ rx_packets: expect.any(Number), tx_bytes: 0 }));
    } finally {
      stream.close();
    }
  });

  test.each([
    ['1.20', ['network', 'precpu_stats'], ['networks', 'pids_stats']],
    ['1.21', ['networks', 'name', 'id'], ['network', 'pids_stats']],
    ['1.22', ['networks'], ['network', 'pids_stats']],
    ['1.23', ['networks', 'pids_stats'], ['network']],
  ])('at %s: %j present, %j absent', async (version, present, absent) => {
    await running('versioned');
    const sample = (await settled(call('GET', `/v${version}/containers/versioned/stats?stream=0`))).json();
    for (const field of present) expect(sample).toHaveProperty(field);
    for (const field of absent) expect(sample).not.toHaveProperty(field);
  });
});
