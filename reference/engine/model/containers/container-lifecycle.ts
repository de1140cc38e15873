/**
 * The container state machine, driven by its simulated process: start, stop, kill, restart, wait,
 * pause, unpause, remove, and what happens when the process ends (restart policy, AutoRemove). The
 * rules and their wording are dockerd's (daemon/start.go, stop.go, kill.go, monitor.go, delete.go):
 *
 * - a paused or restarting container still counts as running;
 * - stopping sends StopSignal, waits `t` seconds on the engine's clock, then kills with SIGKILL;
 * - a kill with SIGKILL or the stop signal, or a stop, calls off any restart (ExitOnNext), and any
 *   kill marks the container stopped on purpose, which `unless-stopped` respects;
 * - every end of the process wakes the waiters, also one the policy follows with a restart.
 */
import { ExecError, signalNumber, type ExitStatus, type Scheduler, type SimulatedProcess } from '../../process/index.ts';
import { SIGKILL, SIGTERM } from '../../process/signals.ts';
import type { Container } from './container.ts';
import { linkEnvironment, linkHosts } from './container-links.ts';
import { networkFilesOf } from './container-network-files.ts';
import type { ContainerEvents } from './container-events.ts';
import { containerNetworkView } from './container-name-resolution.ts';
import { spawnContainerProcess } from './container-process.ts';
import { exitedState, pausedState, restartCancelledState, restartingState, runningState, startFailedState } from './container-state.ts';
import type { ContainerStore } from './container-store.ts';
import type { ContainerVolumes } from './container-volumes.ts';
import { ConflictError, EngineError, InvalidParameterError, NotModifiedError, NotRunningError } from '../common/errors.ts';
import { completeHostConfig, DEFAULT_RUNTIME, logsReadable, type HostConfig } from './host-config.ts';
import { RestartManager } from './restart-manager.ts';
import { checkHostConfig, type ValidationRules } from './settings-validation.ts';
import { formatTimestamp } from '../common/timestamps.ts';

/** dockerd's stop timeout when the request gives none. */
export const DEFAULT_STOP_TIMEOUT_S = 10;

/** The container's own StopTimeout when it was created with one, else dockerd's 10 s. */
function stopTimeoutOf(container: Container): number {
  return container.config.StopTimeout ?? DEFAULT_STOP_TIMEOUT_S;
}

export interface ContainerLifecycleOptions {
  store: ContainerStore;
  events: ContainerEvents;
  /** the processes' clock, and the one stop timeouts and restart delays run on */
  scheduler: Scheduler;
  /** timestamps of the state */
  clock: () => Date;
  /** mounts a container's volumes as it starts, unmounts them as it stops, lets them go as it is removed */
  volumes: ContainerVolumes;
  /** joins a container's networks as it starts, leaves them as its process ends */
  networking: ContainerNetworking;
  /** the daemon's resolver configuration (resolv.conf text), from which containers' /etc/resolv.conf is made */
  daemonResolvConf: string;
}

/** What a container's runs do to its networks. */
export interface ContainerNetworking {
  /** joins the container's networks before its process starts; throws (having left them) when one cannot be joined */
  attach(container: Container): void;
  /** leaves them once its process has ended: dockerd frees the addresses of a stopped container */
  release(container: Container): void;
}

export interface StartOptions {
  /** a HostConfig sent with the start (API before 1.24): it replaces the container's */
  hostConfig?: Partial<HostConfig>;
  rules?: ValidationRules;
}

export class ContainerLifecycle {
  constructor(private readonly options: ContainerLifecycleOptions) {}

  /** Starts the process; throws NotModifiedError when running, InvalidParameterError when the command cannot run. */
  start(container: Container, options: StartOptions = {}): void {
    if (container.state.Paused) throw new ConflictError('cannot start a paused container, try unpause instead');
    if (container.state.Running) throw new NotModifiedError('Container already started');
    if (container.removing) throw new ConflictError('container is marked for removal and cannot be started');
    if (options.hostConfig) {
      const hostConfig = completeHostConfig(options.hostConfig);
      checkHostConfig(hostConfig, options.rules ?? {});
      container.hostConfig = hostConfig;
    }
    // A start by the user begins a new series of runs: the policy counts and backs off afresh.
    container.restartManager?.cancel();
    container.restartManager = undefined;
    container.restartCount = 0;
    container.manuallyStopped = false;
    this.run(container);
  }

  /** Stops a running container: StopSignal, then SIGKILL after `timeoutS` (negative: wait as long as it takes). */
  async stop(container: Container, timeoutS = stopTimeoutOf(container)): Promise<void> {
    if (!container.state.Running) throw new NotModifiedError('Container already stopped');
    await this.stopRunning(container, timeoutS);
  }

  /** Stops the container if it runs (keeping it even with AutoRemove), then starts it. */
  async restart(container: Container, timeoutS = stopTimeoutOf(container)): Promise<void> {
    if (container.state.Running) {
      const { AutoRemove } = container.hostConfig;
      container.hostConfig.AutoRemove = false;
      try {
        await this.stopRunning(container, timeoutS);
      } finally {
        container.hostConfig.AutoRemove = AutoRemove;
      }
    }
    this.start(container);
    this.options.events.publish(container, 'restart');
  }

  /** Sends a signal to PID 1; SIGKILL (the default) also waits until the container has stopped. */
  async kill(container: Container, signal = SIGKILL): Promise<void> {
    if (signal === SIGKILL) await this.killAndWait(container);
    else this.signal(container, signal);
  }

  /**
   * The exit code once the container is not running: at once when it is not, else at the next end
   * of its process (or its removal). `signal` gives up waiting.
   */
  wait(container: Container, signal?: AbortSignal): Promise<number> {
    if (!container.state.Running) return Promise.resolve(container.state.ExitCode);
    return new Promise((resolve) => {
      const waiter = (exitCode: number) => {
        signal?.removeEventListener('abort', giveUp);
        resolve(exitCode);
      };
      const giveUp = () => container.stopWaiters.delete(waiter);
      container.stopWaiters.add(waiter);
      signal?.addEventListener('abort', giveUp, { once: true });
    });
  }

  pause(container: Container): void {
    if (!container.state.Running) throw new NotRunningError(container.id);
    if (container.state.Paused) throw new ConflictError(`Container ${container.id} is already paused`);
    if (container.state.Restarting || !container.process) throw restartingError(container);
    container.process.freeze();
    container.state = pausedState(container.state, true);
    this.options.events.publish(container, 'pause');
  }

  /** Not paused is a plain error (500) on dockerd, unlike pausing a paused container (409). */
  unpause(container: Container): void {
    if (!container.state.Paused) throw new EngineError(`Container ${container.id} is not paused`);
    this.thaw(container);
  }

  /** Removes the container; a running one only with `force`, which kills it first; `volumes` removes its anonymous volumes. */
  async remove(container: Container, options: { force?: boolean; volumes?: boolean } = {}): Promise<void> {
    if (container.removing) throw new ConflictError(`removal of container ${container.id} is already in progress`);
    if (container.state.Running && !options.force) {
      const procedure = 'Stop the container before attempting removal or force remove';
      const advice = container.state.Paused ? `Unpause and then ${procedure.toLowerCase()}` : procedure;
      throw new ConflictError(`You cannot remove a ${container.state.Status} container ${container.id}. ${advice}`);
    }
    container.removing = true;
    try {
      if (container.state.Running) await this.killAndWait(container);
    } catch (error) {
      container.removing = false;
      throw new EngineError(`Could not kill running container ${container.id}, cannot remove - ${(error as Error).message}`);
    }
    this.discard(container, options.volumes ?? false);
  }

  /** Ends every process and calls off every restart, without events: the engine is going away (or back to empty). */
  shutdown(): void {
    for (const container of this.options.store) {
      container.restartManager?.cancel();
      this.clearPendingRestart(container);
      container.process?.namespace.killAll();
    }
  }

  private async stopRunning(container: Container, timeoutS: number): Promise<void> {
    const stopped = this.nextStop(container);
    this.signal(container, this.stopSignalOf(container));
    if (!(await this.within(stopped, timeoutS * 1000)) && container.state.Running) await this.killAndWait(container);
    this.options.events.publish(container, 'stop');
  }

  private async killAndWait(container: Container): Promise<void> {
    if (!container.state.Running) throw new NotRunningError(container.id);
    const stopped = this.nextStop(container);
    this.signal(container, SIGKILL);
    await stopped;
  }

  /** dockerd's killWithSignal. */
  private signal(container: Container, signal: number): void {
    if (!container.state.Running) throw new NotRunningError(container.id);
    const ending = signal === SIGKILL || signal === this.stopSignalOf(container);
    const resume = ending && container.state.Paused;
    if (ending) this.exitOnNext(container);
    container.manuallyStopped = true;
    // A restarting container has no process: calling off its restart was all there was to do.
    const process = container.process;
    if (container.state.Restarting || !process) return;
    process.signal(signal);
    this.options.events.publish(container, 'kill', { signal: String(signal) });
    // A frozen process takes the signal at thaw (SIGKILL goes through the freezer at once).
    if (resume && process.running) this.thaw(container);
  }

  private thaw(container: Container): void {
    container.process?.thaw();
    container.state = pausedState(container.state, false);
    this.options.events.publish(container, 'unpause');
  }

  private stopSignalOf(container: Container): number {
    return container.config.StopSignal ? signalNumber(container.config.StopSignal) : SIGTERM;
  }

  /** No restart after this run: a pending one is called off and the container stays down. */
  private exitOnNext(container: Container): void {
    this.restartManagerOf(container).cancel();
    if (container.pendingRestart === undefined) return;
    this.clearPendingRestart(container);
    container.state = restartCancelledState(container.state);
    this.stopped(container);
  }

  private restartManagerOf(container: Container): RestartManager {
    container.restartManager ??= new RestartManager(container.hostConfig.RestartPolicy, container.restartCount);
    return container.restartManager;
  }

  private clearPendingRestart(container: Container): void {
    if (container.pendingRestart === undefined) return;
    this.options.scheduler.clearTimeout(container.pendingRestart);
    container.pendingRestart = undefined;
  }

  /** Starts a run; when the process cannot start, records why in the state and throws. */
  private run(container: Container): void {
    const { scheduler, clock, events, volumes, networking } = this.options;
    container.hostConfig.Runtime ||= DEFAULT_RUNTIME;
    let process: SimulatedProcess;
    try {
      container.linkEnvironment = linkEnvironment(container, this.options.store);
      networking.attach(container);
    } catch (error) {
      this.startFailed(container, error);
    }
    for (const [path, text] of Object.entries(networkFilesOf(container, this.options.daemonResolvConf, linkHosts(container, this.options.store)))) {
      container.filesystem.mountFile(path, Buffer.from(text));
    }
    volumes.mount(container);
    try {
      process = spawnContainerProcess(container, scheduler, containerNetworkView(container, this.options.store));
    } catch (error) {
      volumes.unmount(container);
      networking.release(container);
      this.startFailed(container, error);
    }
    container.process = process;
    if (logsReadable(container.hostConfig.LogConfig)) container.log.record(process.stdout, process.stderr);
    container.state = runningState(container.state, process.hostPid, formatTimestamp(clock()));
    events.publish(container, 'start');
    const startedAt = scheduler.now();
    void process.exited.then((status) => this.processEnded(container, process, status, scheduler.now() - startedAt));
  }

  /** dockerd: 127 for a command not found, 126 not executable, 128 for any other failure; AutoRemove still applies. */
  private startFailed(container: Container, error: unknown): never {
    const exec = error instanceof ExecError;
    const message = exec ? `OCI runtime create failed: starting container process caused: ${error.message}: unknown` : (error as Error).message;
    container.state = startFailedState(container.state, exec ? error.exitCode : 128, message);
    // Waiters of a restart the policy began are waiting for this end too.
    if (container.hostConfig.AutoRemove) this.discard(container, true);
    else this.wakeWaiters(container);
    if (exec) throw new InvalidParameterError(message);
    throw error instanceof EngineError ? error : new EngineError(message);
  }

  /** dockerd's monitor on the exit of PID 1. */
  private processEnded(container: Container, process: SimulatedProcess, status: ExitStatus, ranMs: number): void {
    if (container.process !== process) return;
    container.process = undefined;
    // dockerd's Cleanup: the endpoints go before the die event, also when a restart follows.
    this.options.networking.release(container);
    const finishedAt = formatTimestamp(this.options.clock());
    if (!this.options.store.has(container)) {
      container.state = exitedState(container.state, status.exitCode, finishedAt);
      this.options.volumes.unmount(container);
      this.stopped(container);
      return;
    }
    const delayMs = container.removing ? undefined : this.restartManagerOf(container).nextRestartDelay(status.exitCode, container.manuallyStopped, ranMs);
    if (delayMs === undefined) {
      container.state = exitedState(container.state, status.exitCode, finishedAt);
    } else {
      container.restartCount++;
      container.state = restartingState(container.state, status.exitCode, finishedAt);
    }
    this.options.events.publish(container, 'die', { exitCode: String(status.exitCode) });
    this.options.volumes.unmount(container);
    if (delayMs === undefined) this.stopped(container);
    else {
      this.wakeWaiters(container);
      container.pendingRestart = this.options.scheduler.setTimeout(() => this.restartByPolicy(container), delayMs);
    }
  }

  private restartByPolicy(container: Container): void {
    container.pendingRestart = undefined;
    try {
      this.run(container);
    } catch {
      // startFailed recorded why in the state, woke the waiters and took care of AutoRemove; nothing tries again.
    }
  }

  /** The container is down for good (until someone starts it): waiters learn the exit code, AutoRemove acts (and takes its anonymous volumes, as dockerd's does). */
  private stopped(container: Container): void {
    this.wakeWaiters(container);
    if (container.hostConfig.AutoRemove && !container.removing && this.options.store.has(container)) {
      void this.remove(container, { force: true, volumes: true }).catch(() => undefined);
    }
  }

  private wakeWaiters(container: Container): void {
    const waiters = [...container.stopWaiters];
    container.stopWaiters.clear();
    for (const waiter of waiters) waiter(container.state.ExitCode);
  }

  private discard(container: Container, removeVolumes: boolean): void {
    this.options.store.delete(container);
    this.options.volumes.remove(container, removeVolumes);
    this.wakeWaiters(container);
    this.options.events.publish(container, 'destroy');
  }

  private nextStop(container: Container): Promise<number> {
    return new Promise((resolve) => container.stopWaiters.add(resolve));
  }

  /** Whether `promise` settles within `ms` on the engine's clock; a negative `ms` waits as long as it takes. */
  private within(promise: Promise<unknown>, ms: number): Promise<boolean> {
    if (ms < 0) return promise.then(() => true);
    const { scheduler } = this.options;
    return new Promise((resolve) => {
      const timer = scheduler.setTimeout(() => resolve(false), ms);
      void promise.then(() => {
        scheduler.clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

function restartingError(container: Container): ConflictError {
  return new ConflictError(`Container ${container.id} is restarting, wait until the container is running`);
}
