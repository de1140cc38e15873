/**
 * Exec instances (spec/1 §2.5, §3, §4.2): created in a running container, started once — detached,
 * or with a client attached to the command's streams — inspected, resized. The command runs in its
 * container's pid namespace and filesystem, so `top` shows it and it dies with PID 1. Events and
 * wording are dockerd's (daemon/exec.go): `exec_create: CMD`, `exec_start: CMD`, `exec_die`,
 * `exec_detach`, each with the `execID`.
 */
import { ExecError, type Scheduler, type SimulatedProcess } from '../../process/index.ts';
import type { Container } from './container.ts';
import type { ContainerEvents } from './container-events.ts';
import { containerNetworkView } from './container-name-resolution.ts';
import { spawnExecProcess } from './container-process.ts';
import type { ContainerStore } from './container-store.ts';
import { ConflictError, EngineError, InvalidParameterError, NotFoundError, NotRunningError } from '../common/errors.ts';
import { ExecInstance, type ExecSpec } from './exec-instance.ts';
import { ProcessAttachment, type OutputStreamName } from './process-attachment.ts';

/** How long a resize waits for the exec it names to start, as dockerd waits. */
export const RESIZE_START_TIMEOUT_MS = 10_000;

export interface ExecStoreOptions {
  containers: ContainerStore;
  events: ContainerEvents;
  ids: () => string;
  /** the clock a resize waits on */
  scheduler: Scheduler;
}

/** A client attached to a start. */
export interface ExecClient {
  /** the client sends input, which becomes the command's stdin when it was created with AttachStdin */
  stdin: boolean;
  output: (stream: OutputStreamName, chunk: Buffer) => void;
  /** the keys that detach when the exec names none (the model's own default when unset) */
  defaultDetachKeys?: Buffer;
}

export class ExecStore {
  private readonly byId = new Map<string, ExecInstance>();
  /** resizes waiting for their exec to start */
  private readonly startWaiters = new Map<ExecInstance, Set<() => void>>();

  constructor(private readonly options: ExecStoreOptions) {}

  create(container: Container, spec: ExecSpec): ExecInstance {
    activeProcess(container);
    this.forgetRemovedContainers();
    const instance = new ExecInstance(this.options.ids(), container, spec);
    this.byId.set(instance.id, instance);
    this.publish(instance, `exec_create: ${commandText(instance)}`);
    return instance;
  }

  /** By full id only, as dockerd finds them; one whose container was removed went with it. */
  find(id: string): ExecInstance {
    const instance = this.byId.get(id);
    if (instance && this.options.containers.has(instance.container)) return instance;
    this.byId.delete(id);
    throw new NotFoundError(`No such exec instance: ${id}`);
  }

  /**
   * The container's exec instances that have not ended, oldest first (inspect's ExecIDs). dockerd
   * drops an exec from its container when it ends, and all of them when the container stops.
   */
  openIdsOf(container: Container): string[] {
    if (!container.state.Running) return [];
    return [...this.byId.values()].filter((instance) => instance.container === container && instance.exitCode === undefined).map(({ id }) => id);
  }

  /** Refuses a start that cannot happen: the container cannot take an exec, or this one has run. */
  checkStart(instance: ExecInstance): void {
    activeProcess(instance.container);
    if (instance.running) throw new ConflictError(`Error: Exec command ${instance.id} is already running`);
    if (instance.exitCode !== undefined) throw new ConflictError(`Error: Exec command ${instance.id} has already run`);
  }

  /** Runs the command with no client: its output goes nowhere, its stdin is empty. */
  start(instance: ExecInstance): void {
    this.run(instance);
  }

  /** Runs the command with a client attached to its streams from the first byte; the attachment ends when the command does or the client detaches. */
  startAttached(instance: ExecInstance, client: ExecClient): ProcessAttachment {
    const process = this.run(instance, client.stdin);
    const attachment = this.attach(instance, client);
    attachment.connect(process);
    return attachment;
  }

  /**
   * Changes the size of the command's terminal, which the simulation does not have: the call is
   * checked as dockerd checks it. An exec not started yet gets RESIZE_START_TIMEOUT_MS to start.
   */
  async resize(instance: ExecInstance): Promise<void> {
    activeProcess(instance.container);
    if (!instance.started && !(await this.startWithin(instance, RESIZE_START_TIMEOUT_MS))) {
      throw new EngineError('timeout waiting for exec session ready');
    }
    if (!instance.running) throw new NotFoundError('no such exec');
  }

  private run(instance: ExecInstance, clientStdin = false): SimulatedProcess {
    this.checkStart(instance);
    const { container, spec } = instance;
    const { namespace } = activeProcess(container);
    this.publish(instance, `exec_start: ${commandText(instance)}`);
    const command = { argv: spec.cmd, env: spec.env, user: instance.user, tty: spec.tty, openStdin: spec.attachStdin && clientStdin };
    let process: SimulatedProcess;
    try {
      process = spawnExecProcess(container, namespace, command, containerNetworkView(container, this.options.containers));
    } catch (error) {
      // dockerd records 126 for an exec that could not start, whatever the cause.
      instance.exitCode = 126;
      if (!(error instanceof ExecError)) throw error;
      throw new InvalidParameterError(`OCI runtime exec failed: exec failed: ${error.message}: unknown`);
    }
    instance.process = process;
    instance.running = true;
    instance.pid = process.hostPid;
    for (const waiter of this.startWaiters.get(instance) ?? []) waiter();
    this.startWaiters.delete(instance);
    void process.exited.then(({ exitCode }) => {
      instance.running = false;
      instance.exitCode = exitCode;
      instance.process = undefined;
      this.publish(instance, 'exec_die', { exitCode: String(exitCode) });
    });
    return process;
  }

  /** Forgets every exec instance: the engine is back to empty. */
  clear(): void {
    this.byId.clear();
    this.startWaiters.clear();
  }

  private attach(instance: ExecInstance, client: ExecClient): ProcessAttachment {
    const { spec } = instance;
    const attachment = new ProcessAttachment({
      stdin: spec.attachStdin && client.stdin,
      stdout: spec.attachStdout,
      stderr: spec.attachStderr,
      tty: spec.tty,
      // An exec's stdin always ends with its client's input.
      closeStdin: true,
      detachKeys: spec.detachKeys ?? client.defaultDetachKeys,
      output: client.output,
    });
    void attachment.ended.then((reason) => {
      if (reason === 'detached') this.publish(instance, 'exec_detach');
    });
    return attachment;
  }

  private startWithin(instance: ExecInstance, ms: number): Promise<boolean> {
    const { scheduler } = this.options;
    return new Promise((resolve) => {
      const waiters = this.startWaiters.get(instance) ?? new Set();
      this.startWaiters.set(instance, waiters);
      const started = () => {
        scheduler.clearTimeout(timer);
        resolve(true);
      };
      const timer = scheduler.setTimeout(() => {
        waiters.delete(started);
        resolve(false);
      }, ms);
      waiters.add(started);
    });
  }

  private forgetRemovedContainers(): void {
    for (const [id, instance] of this.byId) if (!this.options.containers.has(instance.container)) this.byId.delete(id);
  }

  private publish(instance: ExecInstance, action: string, extra: Record<string, string> = {}): void {
    this.options.events.publish(instance.container, action, { execID: instance.id, ...extra });
  }
}

/** The container's PID 1, when the container can take an exec: running, not paused, not between restarts. */
function activeProcess(container: Container): SimulatedProcess {
  if (!container.state.Running) throw new NotRunningError(container.id);
  if (container.state.Paused) throw new ConflictError(`Container ${container.id} is paused, unpause the container before exec`);
  if (container.state.Restarting || !container.process) {
    throw new ConflictError(`Container ${container.id} is restarting, wait until the container is running`);
  }
  return container.process;
}

/** dockerd's event text: the entrypoint, a space, the arguments joined by spaces. */
function commandText(instance: ExecInstance): string {
  return `${instance.entrypoint} ${instance.args.join(' ')}`;
}
