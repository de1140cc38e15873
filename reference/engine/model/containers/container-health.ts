/**
 * Healthchecks as dockerd 20.10 runs them (daemon/health.go; the spec does not describe them): while a
 * container with a Config.Healthcheck runs, its test runs as an exec instance (exec_create,
 * exec_start, exec_die events) every Interval after the previous probe ended; a probe longer than
 * Timeout counts as a failure. State.Health is `starting` until the first success (`healthy`);
 * Retries failures in a row make it `unhealthy`, except failures within StartPeriod while it is still
 * starting. Every change of status is a `health_status: <status>` event; the last five probes are
 * kept in its Log. A start resets it to `starting` (the log stays); the end of the process leaves it
 * `unhealthy`, as dockerd's closed monitor does.
 */
import type { Scheduler, TimerHandle } from '../../process/index.ts';
import type { Container } from './container.ts';
import type { ContainerHealth, HealthLogEntry } from './container-state.ts';
import type { ContainerEvents } from './container-events.ts';
import type { ContainerStore } from './container-store.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { ExecStore } from './exec-store.ts';
import type { HealthConfig } from '../images/image.ts';
import { formatTimestamp } from '../common/timestamps.ts';

const NANOSECONDS_PER_MS = 1_000_000;
const DEFAULT_INTERVAL_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 3;
const MAX_LOG_ENTRIES = 5;
/** dockerd keeps the first 4 KiB of a probe's output */
const MAX_OUTPUT_LENGTH = 4096;

/** The command a test runs, or undefined when it runs none (`NONE`, or no test). */
export function probeCommand(test: readonly string[]): string[] | undefined {
  const [kind, ...rest] = test;
  if (kind === 'CMD' && rest.length > 0) return rest;
  if (kind === 'CMD-SHELL' && rest.length > 0) return ['/bin/sh', '-c', rest.join(' ')];
  return undefined;
}

/** A duration of the config (nanoseconds, 0 for the default) in milliseconds. */
function millisecondsOf(nanoseconds: number | undefined, fallbackMs: number): number {
  return nanoseconds ? nanoseconds / NANOSECONDS_PER_MS : fallbackMs;
}

export interface HealthMonitorOptions {
  bus: EventBus;
  containers: ContainerStore;
  execs: ExecStore;
  events: ContainerEvents;
  scheduler: Scheduler;
  clock: () => Date;
}

export class HealthMonitor {
  /** the timer of each monitored container's next probe */
  private readonly timers = new Map<Container, TimerHandle>();

  constructor(private readonly options: HealthMonitorOptions) {
    options.bus.observe((event) => {
      if (event.type !== 'container') return;
      if (event.action === 'start') this.begin(event.actorId);
      else if (event.action === 'die' || event.action === 'destroy') this.end(event.actorId);
    });
  }

  /** Stops every monitor without touching the containers: the engine is going back to empty. */
  clear(): void {
    for (const timer of this.timers.values()) this.options.scheduler.clearTimeout(timer);
    this.timers.clear();
  }

  private begin(id: string): void {
    const container = this.containerOf(id);
    const command = container && probeCommand(container.config.Healthcheck?.Test ?? []);
    if (!container || !command) return;
    this.cancel(container);
    const previous = container.state.Health;
    container.state = { ...container.state, Health: { Status: 'starting', FailingStreak: 0, Log: previous?.Log ?? [] } };
    this.schedule(container, command);
  }

  private end(id: string): void {
    const container = this.containerOf(id);
    if (!container || !this.timers.has(container)) return;
    this.cancel(container);
    const health = container.state.Health;
    if (health) container.state = { ...container.state, Health: { ...health, Status: 'unhealthy' } };
  }

  private containerOf(id: string): Container | undefined {
    return [...this.options.containers].find((container) => container.id === id);
  }

  private cancel(container: Container): void {
    const timer = this.timers.get(container);
    if (timer !== undefined) this.options.scheduler.clearTimeout(timer);
    this.timers.delete(container);
  }

  private schedule(container: Container, command: string[]): void {
    const config = container.config.Healthcheck as HealthConfig;
    const timer = this.options.scheduler.setTimeout(() => void this.probe(container, command), millisecondsOf(config.Interval, DEFAULT_INTERVAL_MS));
    this.timers.set(container, timer);
  }

  private async probe(container: Container, command: string[]): Promise<void> {
    const { execs, scheduler, clock } = this.options;
    if (!this.timers.has(container)) return;
    // A paused container takes no exec: the probe waits for the next tick.
    if (container.state.Paused) return this.schedule(container, command);
    const config = container.config.Healthcheck as HealthConfig;
    const start = clock();
    let output = '';
    let exitCode: number;
    try {
      const instance = execs.create(container, { cmd: command, attachStdin: false, attachStdout: true, attachStderr: true, tty: false });
      execs.startAttached(instance, { stdin: false, output: (_, chunk) => (output += chunk.toString('utf8')) });
      const timeoutMs = millisecondsOf(config.Timeout, DEFAULT_TIMEOUT_MS);
      let timer: TimerHandle | undefined;
      const timedOut = new Promise<undefined>((resolve) => (timer = scheduler.setTimeout(() => resolve(undefined), timeoutMs)));
      const status = await Promise.race([instance.process?.exited ?? Promise.resolve({ exitCode: instance.exitCode ?? 126 }), timedOut]);
      scheduler.clearTimeout(timer);
      if (status === undefined) {
        instance.process?.signal('SIGKILL');
        exitCode = -1;
        output = `Health check exceeded timeout (${timeoutMs / 1000}s)`;
      } else exitCode = status.exitCode;
    } catch (error) {
      exitCode = -1;
      output = (error as Error).message;
    }
    if (!this.timers.has(container)) return;
    this.record(container, { Start: formatTimestamp(start), End: formatTimestamp(clock()), ExitCode: exitCode, Output: output.slice(0, MAX_OUTPUT_LENGTH) }, start);
    this.schedule(container, command);
  }

  /** dockerd's handleProbeResult. */
  private record(container: Container, result: HealthLogEntry, start: Date): void {
    const health = container.state.Health;
    if (!health) return;
    const config = container.config.Healthcheck as HealthConfig;
    const next: ContainerHealth = { ...health, Log: [...health.Log, result].slice(-MAX_LOG_ENTRIES) };
    if (result.ExitCode === 0) {
      next.FailingStreak = 0;
      next.Status = 'healthy';
    } else {
      const sinceStart = start.getTime() - Date.parse(container.state.StartedAt);
      const inStartPeriod = health.Status === 'starting' && sinceStart < millisecondsOf(config.StartPeriod, 0);
      if (!inStartPeriod) {
        next.FailingStreak++;
        if (next.FailingStreak >= (config.Retries || DEFAULT_RETRIES)) next.Status = 'unhealthy';
      }
    }
    container.state = { ...container.state, Health: next };
    if (next.Status !== health.Status) this.options.events.publish(container, `health_status: ${next.Status}`);
  }
}
