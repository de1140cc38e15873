/**
 * A container's resource usage as its cgroup counts it (spec/1 §2.4 stats): CPU time, memory, pids,
 * block I/O and the traffic of its network interface. Nothing really runs, so the counters are
 * functions of how long the current run has lasted on the engine's clock: they never go back within a
 * run, start over with the next one (a restart makes a new cgroup), and tests can predict them.
 *
 * The collector samples a container once a second, as dockerd's does, and pairs each sample with the
 * one before it: that pair is what a client computes its CPU percentage from.
 */
import type { Scheduler } from '../../process/index.ts';
import type { Container } from './container.ts';
import type { ContainerStore } from './container-store.ts';
import { hostFacts, type HostFacts } from '../common/host-facts.ts';

export interface CpuUsage {
  /** nanoseconds, all CPUs */
  total_usage: number;
  /** nanoseconds per CPU; they add up to total_usage */
  percpu_usage: number[];
  usage_in_kernelmode: number;
  usage_in_usermode: number;
}

export interface ThrottlingData {
  periods: number;
  throttled_periods: number;
  throttled_time: number;
}

export interface CpuStats {
  cpu_usage: CpuUsage;
  /** nanoseconds the host's CPUs have run since boot, all CPUs */
  system_cpu_usage: number;
  online_cpus: number;
  throttling_data: ThrottlingData;
}

export interface MemoryStats {
  usage: number;
  /** the highest usage of this run so far */
  max_usage: number;
  stats: Record<string, number>;
  failcnt: number;
  /** the container's Memory limit, or the host's memory when it has none */
  limit: number;
}

/** What the kernel counts per interface. */
export interface NetworkStats {
  rx_bytes: number;
  rx_packets: number;
  rx_errors: number;
  rx_dropped: number;
  tx_bytes: number;
  tx_packets: number;
  tx_errors: number;
  tx_dropped: number;
}

/** One entry of a blkio list: a counter of one device and operation. */
export interface BlkioEntry {
  major: number;
  minor: number;
  op: string;
  value: number;
}

/** dockerd's eight lists; a container that reads and writes nothing on a block device has them all empty. */
export interface BlkioStats {
  io_service_bytes_recursive: BlkioEntry[];
  io_serviced_recursive: BlkioEntry[];
  io_queue_recursive: BlkioEntry[];
  io_service_time_recursive: BlkioEntry[];
  io_wait_time_recursive: BlkioEntry[];
  io_merged_recursive: BlkioEntry[];
  io_time_recursive: BlkioEntry[];
  sectors_recursive: BlkioEntry[];
}

export interface StatsSample {
  read: Date;
  pids_stats: { current: number };
  cpu_stats: CpuStats;
  memory_stats: MemoryStats;
  blkio_stats: BlkioStats;
  /** by interface name: `eth0` when the container is on a network, none with `none` or `host` */
  networks: Record<string, NetworkStats>;
}

/** A sample and the one taken before it for the same reader; undefined where the container was not running. */
export interface StatsReading {
  current: StatsSample | undefined;
  previous: StatsSample | undefined;
}

export const SAMPLE_INTERVAL_MS = 1000;

const NS_PER_MS = 1_000_000;
/** user and kernel time are counted in clock ticks of 10 ms */
const TICK_NS = 10 * NS_PER_MS;
/** what starting the process costs (exec, the dynamic loader, the shell) */
const STARTUP_CPU_NS = 24 * NS_PER_MS;
/** an idle process still wakes up now and then: 1 µs of CPU per ms of wall time (0.1 %) */
const CPU_NS_PER_MS = 1_000;
/** the host booted this long before the engine started */
const HOST_UPTIME_AT_START_MS = 3_600_000;
/** bytes the cgroup is charged whatever runs in it */
const BASE_MEMORY = 270_336;
/** bytes one busybox process keeps resident */
const MEMORY_PER_PROCESS = 53_248;
/** the cgroup's peak while the runtime set the process up */
const STARTUP_PEAK_MEMORY = 3_817_472;
/** the page faults of starting one process */
const PAGE_FAULTS_AT_START = 1_045;
/** router solicitations and the like reach eth0 every few seconds */
const RECEIVED_PACKET_EVERY_MS = 10_000;
const RECEIVED_PACKETS_AT_START = 3;
const BYTES_PER_RECEIVED_PACKET = 90;
/** the CFS period when the container sets a quota but no period */
const DEFAULT_CPU_PERIOD_US = 100_000;

export interface ContainerStatsOptions {
  scheduler: Scheduler;
  clock: () => Date;
  containers: ContainerStore;
  host?: HostFacts;
}

export class ContainerStats {
  private readonly scheduler: Scheduler;
  private readonly clock: () => Date;
  private readonly containers: ContainerStore;
  private readonly host: HostFacts;
  /** set at the first sample, not at construction, so building a model does not read its clock */
  private hostBoot: number | undefined;
  /** the highest memory usage sampled per container, for the run that began at `startedAt` */
  private readonly peaks = new WeakMap<Container, { startedAt: string; maxUsage: number }>();

  constructor(options: ContainerStatsOptions) {
    this.scheduler = options.scheduler;
    this.clock = options.clock;
    this.containers = options.containers;
    this.host = options.host ?? hostFacts();
  }

  private bootTime(firstRead: Date): number {
    this.hostBoot ??= firstRead.getTime() - HOST_UPTIME_AT_START_MS;
    return this.hostBoot;
  }

  /** The container's usage now; undefined when it has no running process (created, exited, restarting). */
  sample(container: Container): StatsSample | undefined {
    const { state, process } = container;
    if (!state.Running || state.Restarting || !process) return undefined;
    const read = this.clock();
    const runMs = Math.max(0, read.getTime() - Date.parse(state.StartedAt));
    const pids = process.namespace.size;
    return {
      read,
      pids_stats: { current: pids },
      cpu_stats: this.cpuStats(container, read, runMs),
      memory_stats: this.memoryStats(container, pids, runMs),
      blkio_stats: emptyBlkio(),
      networks: hasInterface(container) ? { eth0: networkStats(runMs) } : {},
    };
  }

  /**
   * A sample at once, then one every second, each with the one before it, until `signal` aborts or
   * the container is removed. A container that is not running gives readings without a sample.
   */
  async *readings(container: Container, signal: AbortSignal): AsyncGenerator<StatsReading> {
    let previous: StatsSample | undefined;
    while (!signal.aborted && this.containers.has(container)) {
      const current = this.sample(container);
      yield { current, previous };
      previous = current;
      await this.tick(signal);
    }
  }

  /** Resolves after one sample interval on the engine's clock, or at once when `signal` aborts. */
  private tick(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        // A reader that stopped listening leaves no timer behind it.
        this.scheduler.clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.scheduler.setTimeout(done, SAMPLE_INTERVAL_MS);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private cpuStats(container: Container, read: Date, runMs: number): CpuStats {
    // A sandbox may hide the host's CPUs from Node: the container still ran on one.
    const cpus = Math.max(1, this.host.ncpu);
    const total = STARTUP_CPU_NS + Math.floor(runMs * CPU_NS_PER_MS);
    const share = Math.floor(total / cpus);
    const percpu = Array.from({ length: cpus }, (_, index) => (index === 0 ? total - share * (cpus - 1) : share));
    return {
      cpu_usage: {
        total_usage: total,
        percpu_usage: percpu,
        usage_in_kernelmode: inTicks(total / 2),
        usage_in_usermode: inTicks(total / 2),
      },
      system_cpu_usage: inTicks((read.getTime() - this.bootTime(read)) * NS_PER_MS * cpus),
      online_cpus: cpus,
      throttling_data: throttling(container, runMs),
    };
  }

  private memoryStats(container: Container, pids: number, runMs: number): MemoryStats {
    const limit = container.hostConfig.Memory > 0 ? container.hostConfig.Memory : this.host.memTotal;
    const rss = MEMORY_PER_PROCESS * pids;
    const usage = Math.min(limit, BASE_MEMORY + rss);
    const startedAt = container.state.StartedAt;
    const peak = this.peaks.get(container);
    const maxUsage = Math.max(usage, Math.min(limit, STARTUP_PEAK_MEMORY), peak?.startedAt === startedAt ? peak.maxUsage : 0);
    this.peaks.set(container, { startedAt, maxUsage });
    const faults = PAGE_FAULTS_AT_START * pids + Math.floor(runMs / SAMPLE_INTERVAL_MS);
    return {
      usage,
      max_usage: maxUsage,
      stats: {
        active_anon: rss,
        active_file: 0,
        cache: 0,
        dirty: 0,
        inactive_anon: 0,
        inactive_file: 0,
        mapped_file: 0,
        pgfault: faults,
        pgmajfault: 0,
        pgpgin: faults,
        pgpgout: faults - rss / 4096,
        rss,
        rss_huge: 0,
        unevictable: 0,
        writeback: 0,
      },
      failcnt: 0,
      limit,
    };
  }
}

function inTicks(nanoseconds: number): number {
  return Math.floor(nanoseconds / TICK_NS) * TICK_NS;
}

/** A quota makes the CFS count its periods; nothing here runs long enough in one to be throttled. */
function throttling(container: Container, runMs: number): ThrottlingData {
  const { CpuQuota, CpuPeriod } = container.hostConfig;
  const periods = CpuQuota > 0 ? Math.floor((runMs * 1000) / (CpuPeriod || DEFAULT_CPU_PERIOD_US)) : 0;
  return { periods, throttled_periods: 0, throttled_time: 0 };
}

/** `none` gives only a loopback, `host` the host's own interfaces: neither is the container's to count. */
function hasInterface(container: Container): boolean {
  const mode = container.hostConfig.NetworkMode;
  return mode !== 'none' && mode !== 'host' && Object.keys(container.networks).length > 0;
}

function networkStats(runMs: number): NetworkStats {
  const packets = RECEIVED_PACKETS_AT_START + Math.floor(runMs / RECEIVED_PACKET_EVERY_MS);
  return {
    rx_bytes: packets * BYTES_PER_RECEIVED_PACKET,
    rx_packets: packets,
    rx_errors: 0,
    rx_dropped: 0,
    tx_bytes: 0,
    tx_packets: 0,
    tx_errors: 0,
    tx_dropped: 0,
  };
}

function emptyBlkio(): BlkioStats {
  return {
    io_service_bytes_recursive: [],
    io_serviced_recursive: [],
    io_queue_recursive: [],
    io_service_time_recursive: [],
    io_wait_time_recursive: [],
    io_merged_recursive: [],
    io_time_recursive: [],
    sectors_recursive: [],
  };
}
