/**
 * GET /containers/{id}/stats (spec/1 §2.4, §4.1, §8): a live stream of one JSON object per sample,
 * `stream=false` for one sample (from 1.19), precpu_stats holding the previous sample (from 1.19), and
 * the fields of each version. Every container runs `sleep 300` and goes with the check; every stream
 * is read as it arrives and closed by the check.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { openStream, type StreamedResponse } from '../../harness/client/streamed-response.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { CPU_STATS_SCHEMA, statsSchema } from '../../harness/schemas/stats-schemas.ts';
import { atLeast, before } from '../../protocol/versions.ts';
import { startedContainer } from '../container-steps.ts';

interface Stats extends Record<string, unknown> {
  read: string;
  cpu_stats: unknown;
  precpu_stats?: unknown;
}

/** A daemon samples about once a second: two samples take two, so this leaves room for a slow one. */
const SAMPLES_WAIT_MS = 10_000;
/** An id no daemon hands out. */
const UNKNOWN_CONTAINER = 'f'.repeat(64);

function runningContainer(context: CheckContext): Promise<string> {
  return startedContainer(context, { Cmd: ['sleep', '300'] });
}

/** Opens the stats of `id` at the version under test; the stream is closed when `use` is done, whatever happens. */
async function withStats<T>(context: CheckContext, id: string, query: Record<string, string>, use: (stream: StreamedResponse) => Promise<T>): Promise<T> {
  const stream = await openStream(context.engine, context.session.target.connection, `/containers/${id}/stats`, query);
  try {
    context.expect(stream.status, `status of ${stream.describe}`).toBe(200);
    return await use(stream);
  } finally {
    stream.close();
  }
}

/** The first `count` stats objects of the stream, failing when fewer come in time. */
async function firstSamples({ expect }: CheckContext, stream: StreamedResponse, count: number): Promise<Stats[]> {
  await stream.waitFor(() => stream.jsonObjectCount >= count, SAMPLES_WAIT_MS);
  const samples = stream.jsonObjects<Stats>();
  expect(samples.length, `stats objects within ${SAMPLES_WAIT_MS} ms (stream ended: ${stream.ended})`).toBeGreaterThanOrEqual(count);
  return samples.slice(0, count);
}

/**
 * One sample that has a previous one: the answer of `stream=false` from 1.19; before, when every
 * request streams, the second sample of the stream.
 */
async function sampleWithPrevious(context: CheckContext, id: string): Promise<Stats> {
  const oneShot = atLeast(context.version, '1.19');
  return withStats(context, id, oneShot ? { stream: 'false' } : {}, async (stream) => {
    const samples = await firstSamples(context, stream, oneShot ? 1 : 2);
    return samples[samples.length - 1] as Stats;
  });
}

check('containers.stats.schema', {
  title: 'a stats object of a running container has the fields of the version (precpu_stats from 1.19, networks from 1.21, pids_stats from 1.23)',
  spec: '1 §2.4, §2, §4.1',
  quote: ['A value marked [1.21+] and so on is present only from that API version on.', 'Stats (one JSON object per sample): read (timestamp), pids_stats {current} [1.23+], network [up to 1.20] or networks [1.21+] (map from interface name to rx_bytes, rx_dropped, rx_errors, rx_packets, tx_bytes, tx_dropped, tx_errors, tx_packets, all integers), memory_stats {stats (map of named integer counters), max_usage, usage, failcnt, limit}, blkio_stats (object; contents: not shown), cpu_stats {cpu_usage {percpu_usage (array of integer), usage_in_usermode, total_usage, usage_in_kernelmode}, system_cpu_usage, throttling_data {periods, throttled_periods, throttled_time}}, precpu_stats [1.19+] (same shape as cpu_stats, holding the previous read, used to compute CPU percent; it is not a copy of cpu_stats).', '| GET /containers/{id_or_name}/stats | stream (boolean, default true; false returns one sample then disconnects; [1.19+]) | none | 200 `application/json`, live stream of stats objects | 200, 404, 500 |'],
  since: '1.18',
  tags: ['schema', 'version'],
  covers: [
    '1:GET /containers/{id_or_name}/stats',
    '1:GET /containers/{id_or_name}/stats:status:200',
    '1:version-rule:1.19:stats-precpu',
    '1:version-rule:1.21:per-network-stats',
    '1:version-rule:1.23:pids-stats',
  ],
}, async (context) => {
  const id = await runningContainer(context);
  const sample = await sampleWithPrevious(context, id);
  assertMatchesSchema(sample, statsSchema(context.version), `the stats object at ${context.version}`);
});

check('containers.stats.network-until-1-20', {
  title: 'a stats object has one network object up to 1.20 and none from 1.21, where networks has it per interface',
  spec: '1 §2.4, §2',
  quote: ['A value marked [1.21+] and so on is present only from that API version on.', 'Stats (one JSON object per sample): read (timestamp), pids_stats {current} [1.23+], network [up to 1.20] or networks [1.21+] (map from interface name to rx_bytes, rx_dropped, rx_errors, rx_packets, tx_bytes, tx_dropped, tx_errors, tx_packets, all integers)'],
  since: '1.18',
  tags: ['version'],
  covers: ['1:GET /containers/{id_or_name}/stats', '1:version-rule:1.21:per-network-stats'],
}, async (context) => {
  const id = await runningContainer(context);
  const sample = await sampleWithPrevious(context, id);
  if (before(context.version, '1.21')) {
    const { network } = sample;
    const kind = network === null ? 'null' : Array.isArray(network) ? 'array' : typeof network;
    context.expect(kind, `type of network at ${context.version}: ${JSON.stringify(network)}`).toBe('object');
  } else {
    context.expect(Object.keys(sample), `fields at ${context.version}`).not.toContain('network');
  }
});

check('containers.stats.one-shot', {
  title: 'stats with stream=false answers exactly one stats object and ends the response',
  spec: '1 §4.1, §2.4',
  quote: ['| GET /containers/{id_or_name}/stats | stream (boolean, default true; false returns one sample then disconnects; [1.19+]) | none | 200 `application/json`, live stream of stats objects | 200, 404, 500 |', 'Stats (one JSON object per sample): read (timestamp)'],
  since: '1.19',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/stats:query:stream', '1:version-rule:1.19:stats-stream'],
}, async (context) => {
  const id = await runningContainer(context);
  await withStats(context, id, { stream: 'false' }, async (stream) => {
    const ended = await stream.endsWithin(SAMPLES_WAIT_MS);
    context.expect(ended, `the response ended within ${SAMPLES_WAIT_MS} ms`).toBe(true);
    const text = stream.received.toString('utf8');
    context.expect(stream.jsonObjectCount, `stats objects in ${JSON.stringify(text.slice(0, 200))}…`).toBe(1);
    context.expect(typeof stream.jsonObjects<Stats>()[0]?.read, 'type of read in the one stats object').toBe('string');
  });
});

check('containers.stats.stream', {
  title: 'stats without stream streams samples: a second one arrives while the response stays open, read later than the first',
  spec: '1 §4.1, §2.4, §8',
  quote: ['| GET /containers/{id_or_name}/stats | stream (boolean, default true; false returns one sample then disconnects; [1.19+]) | none | 200 `application/json`, live stream of stats objects | 200, 404, 500 |', 'Stats (one JSON object per sample): read (timestamp)', '| Stats stream parameter default | true |'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/stats:query:stream'],
}, async (context) => {
  const id = await runningContainer(context);
  await withStats(context, id, {}, async (stream) => {
    const [first, second] = await firstSamples(context, stream, 2);
    context.expect(stream.ended, 'the response ended after the second sample').toBe(false);
    context.expect(Date.parse(second?.read ?? ''), `read of the second sample (${second?.read}) after the first (${first?.read})`).toBeGreaterThan(Date.parse(first?.read ?? ''));
  });
});

check('containers.stats.precpu', {
  title: 'in a stream, precpu_stats of a sample is the cpu_stats of the sample before it, not a copy of its own',
  spec: '1 §2.4, §4.1',
  quote: ['precpu_stats [1.19+] (same shape as cpu_stats, holding the previous read, used to compute CPU percent; it is not a copy of cpu_stats)', '| GET /containers/{id_or_name}/stats | stream (boolean, default true; false returns one sample then disconnects; [1.19+]) | none | 200 `application/json`, live stream of stats objects | 200, 404, 500 |'],
  since: '1.19',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/stats', '1:version-rule:1.19:stats-precpu'],
}, async (context) => {
  const id = await runningContainer(context);
  await withStats(context, id, {}, async (stream) => {
    const [first, second] = await firstSamples(context, stream, 2);
    context.expect(second?.precpu_stats, 'precpu_stats of the second sample against cpu_stats of the first').toEqual(first?.cpu_stats);
    context.expect(second?.precpu_stats, 'precpu_stats of the second sample against its own cpu_stats').not.toEqual(second?.cpu_stats);
  });
});

check('containers.stats.one-shot-precpu', {
  title: 'the one sample of stream=false has precpu_stats holding a previous read: not a copy of its own cpu_stats',
  spec: '1 §2.4, §4.1',
  quote: ['precpu_stats [1.19+] (same shape as cpu_stats, holding the previous read, used to compute CPU percent; it is not a copy of cpu_stats)', '| GET /containers/{id_or_name}/stats | stream (boolean, default true; false returns one sample then disconnects; [1.19+]) | none | 200 `application/json`, live stream of stats objects | 200, 404, 500 |'],
  since: '1.19',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/stats:query:stream', '1:version-rule:1.19:stats-precpu'],
}, async (context) => {
  const id = await runningContainer(context);
  const sample = await sampleWithPrevious(context, id);
  // "same shape as cpu_stats": a sample without it, or with an empty one, holds no previous read.
  assertMatchesSchema(sample.precpu_stats, CPU_STATS_SCHEMA, 'precpu_stats of the one sample');
  // A previous read of the host's CPU time (system_cpu_usage) is earlier, so never equal to the current one.
  context.expect(sample.precpu_stats, `precpu_stats of the one sample against its cpu_stats ${JSON.stringify(sample.cpu_stats)}`).not.toEqual(sample.cpu_stats);
});

check('containers.stats.content-type', {
  title: 'a stats stream is application/json',
  spec: '1 §4.1',
  quote: ['| GET /containers/{id_or_name}/stats | stream (boolean, default true; false returns one sample then disconnects; [1.19+]) | none | 200 `application/json`, live stream of stats objects | 200, 404, 500 |'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/stats', '1:GET /containers/{id_or_name}/stats:status:200'],
}, async (context) => {
  const id = await runningContainer(context);
  await withStats(context, id, {}, async (stream) => {
    context.expect(stream.contentType?.split(';')[0], `Content-Type of ${stream.describe}: ${stream.contentType}`).toBe('application/json');
  });
});

check('containers.stats.not-found', {
  title: 'stats of a container that does not exist answers 404',
  spec: '1 §4.1, §7.2',
  quote: ['| GET /containers/{id_or_name}/stats | stream (boolean, default true; false returns one sample then disconnects; [1.19+]) | none | 200 `application/json`, live stream of stats objects | 200, 404, 500 |', '404 no such container, image, exec instance, volume, network, service or task'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:GET /containers/{id_or_name}/stats:status:404'],
}, async ({ engine, expect }) => {
  const res = await engine.get(`/containers/${UNKNOWN_CONTAINER}/stats`);
  expect(res.status, 'status').toBe(404);
});
