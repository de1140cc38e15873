/**
 * Schema of one stats object (spec/1 §2.4) of a running container, per API version. Open, like every
 * schema here: a newer daemon may add properties at any version, so precpu_stats [1.19+], networks
 * [1.21+] and pids_stats [1.23+] are required from their version on and merely typed before. The
 * single `network` the spec shows up to 1.20 is the rule of a check of its own
 * (containers.stats.network-until-1.20); here it is only typed.
 *
 * §2.4 types only some of the figures: percpu_usage (array of integer), the counters of memory_stats'
 * stats map, and the network counters ("all integers"). The others (usage_in_usermode, total_usage,
 * usage_in_kernelmode, system_cpu_usage, the throttling_data figures, max_usage, usage, failcnt,
 * limit, pids_stats.current) are required but not typed.
 */
import { atLeast } from '../../protocol/versions.ts';
import { integer, perVersion, timestamp } from './schema-parts.ts';

function allIntegers(names: readonly string[]): object {
  return { type: 'object', required: [...names], properties: Object.fromEntries(names.map((name) => [name, integer])) };
}

/** An object with these fields, their type not given. */
function untypedFields(names: readonly string[]): object {
  return { type: 'object', required: [...names] };
}

/** What one interface counted; `network` before 1.21 has the same fields, summed. */
const NETWORK_SCHEMA = allIntegers(['rx_bytes', 'rx_dropped', 'rx_errors', 'rx_packets', 'tx_bytes', 'tx_dropped', 'tx_errors', 'tx_packets']);

/** cpu_stats, and precpu_stats, which has the same shape. */
export const CPU_STATS_SCHEMA = {
  type: 'object',
  required: ['cpu_usage', 'system_cpu_usage', 'throttling_data'],
  properties: {
    cpu_usage: {
      type: 'object',
      required: ['percpu_usage', 'usage_in_usermode', 'total_usage', 'usage_in_kernelmode'],
      properties: {
        percpu_usage: { type: 'array', items: integer },
      },
    },
    throttling_data: untypedFields(['periods', 'throttled_periods', 'throttled_time']),
  },
} as const;

const MEMORY_STATS_SCHEMA = {
  type: 'object',
  required: ['stats', 'max_usage', 'usage', 'failcnt', 'limit'],
  properties: {
    stats: { type: 'object', additionalProperties: integer },
  },
} as const;

/** A stats object of a container that is running (one that is not has no figures to show). */
export const statsSchema = perVersion((version: string) => ({
  type: 'object',
  required: [
    'read', 'memory_stats', 'blkio_stats', 'cpu_stats',
    ...(atLeast(version, '1.19') ? ['precpu_stats'] : []),
    ...(atLeast(version, '1.21') ? ['networks'] : []),
    ...(atLeast(version, '1.23') ? ['pids_stats'] : []),
  ],
  properties: {
    read: timestamp,
    pids_stats: untypedFields(['current']),
    network: NETWORK_SCHEMA,
    // a map from interface name: the spec gives no default network, so a container may have no interface
    networks: { type: 'object', additionalProperties: NETWORK_SCHEMA },
    memory_stats: MEMORY_STATS_SCHEMA,
    blkio_stats: { type: 'object' },
    cpu_stats: CPU_STATS_SCHEMA,
    precpu_stats: CPU_STATS_SCHEMA,
  },
}));
