/**
 * GET /containers/{id}/stats (spec/1 §2.4, §4.1): one JSON object per sample, about once a second,
 * on one response. `stream=false` (from 1.19) answers one sample and ends; before 1.19 every request
 * streams. The fields follow the version: precpu_stats from 1.19, the per-interface `networks` (and
 * the container's name and id) from 1.21 where older versions get one summed `network`, pids_stats
 * from 1.23. A container that is not running gets dockerd's empty sample: zeros and a zero time.
 */
import { once } from 'node:events';
import { atLeast } from '../../../protocol/versions.ts';
import type { Container } from '../model/containers/container.ts';
import type { NetworkStats, StatsReading } from '../model/containers/container-stats.ts';
import { formatTimestamp, ZERO_TIME } from '../model/common/timestamps.ts';
import type { RequestShape } from './personality.ts';
import { sendJson } from './replies.ts';
import { clientGone, containerOf } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';

/** The CPU stats of "no sample" as dockerd's encoder writes a zero value: the omitempty fields left out. */
const NO_CPU_STATS = {
  cpu_usage: { total_usage: 0, usage_in_kernelmode: 0, usage_in_usermode: 0 },
  throttling_data: { periods: 0, throttled_periods: 0, throttled_time: 0 },
};

const NO_BLKIO_STATS = {
  io_service_bytes_recursive: null,
  io_serviced_recursive: null,
  io_queue_recursive: null,
  io_service_time_recursive: null,
  io_wait_time_recursive: null,
  io_merged_recursive: null,
  io_time_recursive: null,
  sectors_recursive: null,
};

/** Before 1.21 the API has one `network`: the counters of every interface, summed. */
function summedNetwork(networks: Record<string, NetworkStats>): NetworkStats {
  const sum: NetworkStats = { rx_bytes: 0, rx_packets: 0, rx_errors: 0, rx_dropped: 0, tx_bytes: 0, tx_packets: 0, tx_errors: 0, tx_dropped: 0 };
  for (const counters of Object.values(networks)) {
    for (const key of Object.keys(sum) as (keyof NetworkStats)[]) sum[key] += counters[key];
  }
  return sum;
}

/** One stats object in dockerd's field order, shaped for the requested version. */
function statsView({ current: sample, previous }: StatsReading, container: Container, { version, personality }: RequestShape): Record<string, unknown> {
  const networks = sample?.networks ?? {};
  const previousShown = personality.shows(version, '1.19');
  return {
    read: sample ? formatTimestamp(sample.read) : ZERO_TIME,
    ...(previousShown && { preread: previous ? formatTimestamp(previous.read) : ZERO_TIME }),
    ...(personality.shows(version, '1.23') && { pids_stats: sample?.pids_stats ?? {} }),
    blkio_stats: sample?.blkio_stats ?? NO_BLKIO_STATS,
    // Windows counters, which dockerd sends empty on Linux.
    num_procs: 0,
    storage_stats: {},
    cpu_stats: sample?.cpu_stats ?? NO_CPU_STATS,
    ...(previousShown && { precpu_stats: previous?.cpu_stats ?? NO_CPU_STATS }),
    memory_stats: sample?.memory_stats ?? {},
    ...(atLeast(version, '1.21')
      ? { name: container.name, id: container.id, ...(Object.keys(networks).length > 0 && { networks }) }
      : { network: summedNetwork(networks) }),
  };
}

async function stats(context: RouteContext): Promise<void> {
  const { model, version, response, query, personality } = context;
  const container = containerOf(context);
  const stream = !atLeast(version, '1.19') || personality.booleanQuery(query.get('stream'), true);
  const signal = clientGone(context);
  const readings = model.stats.readings(container, signal);
  try {
    if (!stream) return await sendOneSample(context, container, readings);
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.flushHeaders();
    for await (const reading of readings) {
      if (!response.write(`${JSON.stringify(statsView(reading, container, context))}\n`)) await once(response, 'drain', { signal });
    }
  } catch (error) {
    // The client went away while we waited for it to read: nothing left to answer.
    if (!signal.aborted) throw error;
  } finally {
    await readings.return(undefined);
  }
  response.end();
}

/**
 * dockerd's one-shot answer: a running container's second sample, so that precpu_stats holds a real
 * previous sample; a container that is not running answers its empty sample at once.
 */
async function sendOneSample(context: RouteContext, container: Container, readings: AsyncGenerator<StatsReading>): Promise<void> {
  const first = await readings.next();
  const answer = first.done || !first.value.current ? first : await readings.next();
  // Removed while we waited: the stream of samples ended without a second one.
  const reading = answer.done ? { current: undefined, previous: undefined } : answer.value;
  sendJson(context.response, 200, statsView(reading, container, context));
}

export const statsRoutes: Route[] = [{ method: 'GET', path: '/containers/{id*}/stats', handle: stats }];
