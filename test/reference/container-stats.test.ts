/** The stats model: counters that follow the run on the engine's clock, and the once-a-second readings. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ContainerStats, SAMPLE_INTERVAL_MS, type StatsReading, type StatsSample } from '../../reference/engine/model/containers/container-stats.ts';
import { hostFacts } from '../../reference/engine/model/common/host-facts.ts';
import { manualEngine, type ManualEngine } from './manual-engine.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);
const GIB = 1024 * 1024 * 1024;
const MS = 1_000_000;

/** A collector on the engine's clock for a host of two CPUs and 8 GiB, so the figures are exact. */
function statsOf({ model, clock }: ManualEngine): ContainerStats {
  return new ContainerStats({ scheduler: clock, clock: model.clock, containers: model.containers, host: { ...hostFacts(), ncpu: 2, memTotal: 8 * GIB } });
}

function sampled(stats: ContainerStats, ...args: Parameters<ContainerStats['sample']>): StatsSample {
  const sample = stats.sample(...args);
  if (!sample) throw new Error('expected a sample of a running container');
  return sample;
}

/** Collects readings until `count` have come, moving the clock a second at a time. */
async function collect(engine: ManualEngine, readings: AsyncGenerator<StatsReading>, count: number): Promise<StatsReading[]> {
  const collected: StatsReading[] = [];
  const collecting = (async () => {
    for await (const reading of readings) {
      collected.push(reading);
      if (collected.length === count) break;
    }
  })();
  while (collected.length < count) await engine.advance(SAMPLE_INTERVAL_MS);
  await collecting;
  return collected;
}

describe('sample', () => {
  test('no sample of a container that is not running: created, then exited', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.create(['true']);
    expect(stats.sample(container)).toBeUndefined();
    engine.model.lifecycle.start(container);
    await engine.advance(10);
    expect(container.state.Status).toBe('exited');
    expect(stats.sample(container)).toBeUndefined();
  });

  test('a running sleep: one pid, CPU time of its start plus 0.1 % of the time it ran, split over the CPUs', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sleep', '300']);
    await engine.advance(10_000);
    const sample = sampled(stats, container);
    expect(sample.read).toEqual(engine.model.clock());
    expect(sample.pids_stats).toEqual({ current: 1 });
    expect(sample.cpu_stats.cpu_usage).toEqual({
      total_usage: 34 * MS,
      percpu_usage: [17 * MS, 17 * MS],
      usage_in_kernelmode: 10 * MS,
      usage_in_usermode: 10 * MS,
    });
    expect(sample.cpu_stats.online_cpus).toBe(2);
    expect(sample.cpu_stats.throttling_data).toEqual({ periods: 0, throttled_periods: 0, throttled_time: 0 });
    expect(sample.networks).toEqual({ eth0: expect.objectContaining({ rx_packets: 4, rx_bytes: 360, tx_packets: 0 }) });
    expect(sample.blkio_stats.io_service_bytes_recursive).toEqual([]);
  });

  test('the host counts all its CPUs: system_cpu_usage grows by two CPU-seconds a second', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sleep', '300']);
    await engine.advance(0);
    const before = sampled(stats, container).cpu_stats.system_cpu_usage;
    await engine.advance(1000);
    expect(sampled(stats, container).cpu_stats.system_cpu_usage - before).toBe(2000 * MS);
  });

  test('the memory limit is the container\'s Memory, else the host\'s memory; usage stays under it', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const limited = engine.run(['sleep', '300'], { hostConfig: { Memory: 6 * 1024 * 1024 } });
    const unlimited = engine.run(['sleep', '300']);
    await engine.advance(0);
    const limitedMemory = sampled(stats, limited).memory_stats;
    expect(limitedMemory.limit).toBe(6 * 1024 * 1024);
    expect(limitedMemory.usage).toBeLessThanOrEqual(limitedMemory.limit);
    expect(limitedMemory.max_usage).toBeGreaterThanOrEqual(limitedMemory.usage);
    expect(sampled(stats, unlimited).memory_stats.limit).toBe(8 * GIB);
  });

  test('pids and memory follow the processes: a shell with a background sleep is two', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const one = engine.run(['sleep', '300']);
    const two = engine.run(['sh', '-c', 'sleep 300 & wait']);
    await engine.advance(0);
    const [single, pair] = [sampled(stats, one), sampled(stats, two)];
    expect([single.pids_stats.current, pair.pids_stats.current]).toEqual([1, 2]);
    expect(pair.memory_stats.usage).toBeGreaterThan(single.memory_stats.usage);
  });

  test('a quota counts CFS periods of the container\'s period', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sleep', '300'], { hostConfig: { CpuQuota: 50_000, CpuPeriod: 50_000 } });
    await engine.advance(1000);
    expect(sampled(stats, container).cpu_stats.throttling_data.periods).toBe(20);
  });

  test('no interface to count with NetworkMode none', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: 'none' } });
    await engine.advance(0);
    expect(sampled(stats, container).networks).toEqual({});
  });

  test('a restart starts the counters over', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sh', '-c', "trap 'exit 0' TERM; sleep 300 & wait"]);
    await engine.advance(60_000);
    const first = sampled(stats, container).cpu_stats.cpu_usage.total_usage;
    const restarting = engine.model.lifecycle.restart(container, 1);
    await engine.advance(1000);
    await restarting;
    const second = sampled(stats, container).cpu_stats.cpu_usage.total_usage;
    const secondRunMs = engine.model.clock().getTime() - Date.parse(container.state.StartedAt);
    expect(second).toBeLessThan(first);
    expect(second).toBe(24 * MS + secondRunMs * 1000);
  });

  test(`counters never go back within a run, whatever the clock does between samples (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 2, maxLength: 12 }), async (steps) => {
        const engine = manualEngine();
        const stats = statsOf(engine);
        // Outlives every sequence of steps: at most 12 × 120 s.
        const container = engine.run(['sh', '-c', 'sleep 3600 & wait']);
        let last = sampled(stats, container);
        for (const step of steps) {
          await engine.advance(step);
          const next = sampled(stats, container);
          expect(next.cpu_stats.cpu_usage.total_usage).toBeGreaterThanOrEqual(last.cpu_stats.cpu_usage.total_usage);
          expect(next.cpu_stats.system_cpu_usage).toBeGreaterThanOrEqual(last.cpu_stats.system_cpu_usage);
          expect(next.memory_stats.max_usage).toBeGreaterThanOrEqual(Math.max(last.memory_stats.max_usage, next.memory_stats.usage));
          expect(next.memory_stats.stats.pgfault).toBeGreaterThanOrEqual(last.memory_stats.stats.pgfault ?? 0);
          expect(next.networks.eth0?.rx_packets).toBeGreaterThanOrEqual(last.networks.eth0?.rx_packets ?? 0);
          const { percpu_usage, total_usage } = next.cpu_stats.cpu_usage;
          expect(percpu_usage.reduce((sum, value) => sum + value, 0)).toBe(total_usage);
          last = next;
        }
      }),
      { seed, numRuns: 50 },
    );
  });
});

describe('readings', () => {
  test('one a second, each with the sample before it; the first has none', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sleep', '300']);
    await engine.advance(0);
    const startedAt = engine.model.clock().getTime();
    const [first, second, third] = await collect(engine, stats.readings(container, new AbortController().signal), 3);
    expect(first?.previous).toBeUndefined();
    expect(second?.previous).toBe(first?.current);
    expect(third?.previous).toBe(second?.current);
    expect([first, second, third].map((reading) => (reading?.current?.read.getTime() ?? 0) - startedAt)).toEqual([0, 1000, 2000]);
    expect(third?.current?.cpu_stats.cpu_usage.total_usage).toBeGreaterThan(second?.current?.cpu_stats.cpu_usage.total_usage ?? Infinity);
  });

  test('a container that is not running gives readings without a sample, and samples once it runs', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.create(['sleep', '300']);
    const readings = stats.readings(container, new AbortController().signal);
    const first = await readings.next();
    expect(first.value).toEqual({ current: undefined, previous: undefined });
    engine.model.lifecycle.start(container);
    const next = readings.next();
    await engine.advance(SAMPLE_INTERVAL_MS);
    const second = (await next).value as StatsReading;
    expect(second.previous).toBeUndefined();
    expect(second.current?.pids_stats.current).toBe(1);
    await readings.return(undefined);
  });

  test('end when the container is removed', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sleep', '300']);
    await engine.advance(0);
    const readings = stats.readings(container, new AbortController().signal);
    await readings.next();
    const next = readings.next();
    await engine.model.lifecycle.remove(container, { force: true });
    await engine.advance(SAMPLE_INTERVAL_MS);
    expect((await next).done).toBe(true);
  });

  test('end when the reader aborts, leaving no timer behind', async () => {
    const engine = manualEngine();
    const stats = statsOf(engine);
    const container = engine.run(['sleep', '300']);
    await engine.advance(0);
    const pendingBefore = engine.clock.pending;
    const reader = new AbortController();
    const readings = stats.readings(container, reader.signal);
    await readings.next();
    const next = readings.next();
    await engine.advance(0);
    expect(engine.clock.pending).toBe(pendingBefore + 1);
    reader.abort();
    expect((await next).done).toBe(true);
    expect(engine.clock.pending).toBe(pendingBefore);
  });
});
