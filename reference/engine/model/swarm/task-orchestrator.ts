/**
 * Keeps each service's tasks in line with its spec on the one node, the way swarmkit's orchestrator
 * and dockerd's executor do it together:
 *
 * - a replicated service has a task wanted running in each slot 1..Replicas, a global one a single
 *   task; scaling down removes the tasks of the slots no longer wanted;
 * - a task runs a real container of the engine, named `service.slot.taskid` and labelled with
 *   dockerd's `com.docker.swarm.*` labels, so that lists, counts and events see it as dockerd's do;
 *   an image the engine lacks is pulled first (the task `preparing`) with the credentials the
 *   service was created or updated with, and a failed pull rejects the task;
 * - when that container ends by itself the task is `complete` (exit 0) or `failed`, wanted
 *   `shutdown`, and the restart condition decides whether a new task takes the slot after the
 *   restart delay: `any` always, `on-failure` after a non-zero exit, `none` never;
 * - a changed task template replaces every task; a removed service takes its tasks and their
 *   containers with it, each stopped within the template's grace period first.
 */
import type { Scheduler, TimerHandle } from '../../process/index.ts';
import type { Container } from '../containers/container.ts';
import type { ContainerLifecycle } from '../containers/container-lifecycle.ts';
import type { ContainerStore } from '../containers/container-store.ts';
import { NotFoundError } from '../common/errors.ts';
import { preparePull } from '../images/image-pull.ts';
import { parseImageReference } from '../images/image-reference.ts';
import type { Registries } from '../images/image-registry.ts';
import type { ImageStore } from '../images/image-store.ts';
import type { Service } from './service.ts';
import { isGlobal, restartConditionOf, restartDelayMsOf, stopGracePeriodSOf, wantedSlots } from './service-spec.ts';
import type { SwarmCluster } from './swarm-cluster.ts';
import { Task, type DesiredState, type TaskStatus } from './task.ts';
import type { TaskStore } from './task-store.ts';

export interface TaskOrchestratorOptions {
  cluster: SwarmCluster;
  tasks: TaskStore;
  containers: ContainerStore;
  lifecycle: ContainerLifecycle;
  images: ImageStore;
  registries: Registries;
  scheduler: Scheduler;
  clock: () => Date;
  /** the data of the swarm's secret of that id, which a task's container finds under /run/secrets */
  secretData: (id: string) => Buffer | undefined;
}

/** Where dockerd's executor mounts a task's secrets, and their mode when the reference gives none. */
const SECRETS_DIRECTORY = '/run/secrets';
const DEFAULT_SECRET_MODE = 0o444;

export class TaskOrchestrator {
  /** restarts the policy has scheduled, by service and slot */
  private readonly pendingRestarts = new Map<string, TimerHandle>();
  /** services removed: a task of theirs that ends starts no other */
  private readonly retired = new WeakSet<Service>();

  constructor(private readonly options: TaskOrchestratorOptions) {}

  /** Brings the service's tasks in line with its spec; `replace`: the template changed, so every running task makes way for a new one. */
  reconcile(service: Service, replace = false): void {
    const wanted: (number | undefined)[] = isGlobal(service.spec.Mode) ? [undefined] : Array.from({ length: wantedSlots(service.spec.Mode) }, (_, index) => index + 1);
    for (const task of this.options.tasks.ofService(service)) {
      if (task.desiredState !== 'running') continue;
      if (!wanted.includes(task.slot)) this.end(task, 'remove');
      else if (replace) this.end(task, 'shutdown');
    }
    for (const slot of wanted) {
      if (!this.options.tasks.inSlot(service, slot).some((task) => task.desiredState === 'running')) this.startTask(service, slot);
      this.pruneHistory(service, slot);
    }
  }

  /** The service is gone: its tasks go, and their containers once stopped. */
  retire(service: Service): void {
    this.retired.add(service);
    for (const [key, timer] of this.pendingRestarts) {
      if (!key.startsWith(`${service.id}/`)) continue;
      this.options.scheduler.clearTimeout(timer);
      this.pendingRestarts.delete(key);
    }
    for (const task of this.options.tasks.ofService(service)) this.end(task, 'remove');
  }

  /** The node left the swarm: no task starts again, and every task's container is removed by force, as dockerd does. */
  abandon(): void {
    for (const task of this.options.tasks.ofAll()) {
      const { container } = task;
      if (container && this.options.containers.has(container)) {
        void this.options.lifecycle.remove(container, { force: true, volumes: true }).catch(() => {
          // removed meanwhile by someone else
        });
      }
    }
    this.clear();
  }

  /** Back to no tasks, without stopping anything: the engine's reset ends every process itself. */
  clear(): void {
    for (const timer of this.pendingRestarts.values()) this.options.scheduler.clearTimeout(timer);
    this.pendingRestarts.clear();
    for (const task of this.options.tasks.clear()) task.desiredState = 'remove';
  }

  private startTask(service: Service, slot: number | undefined): void {
    const { cluster, tasks, clock } = this.options;
    const task = new Task(cluster.newObject(), service, service.spec.TaskTemplate, slot, cluster.node.id, { timestamp: clock(), state: 'preparing', message: 'preparing', pid: 0, exitCode: 0 });
    tasks.add(task);
    if (this.hasImage(task)) {
      this.runTask(task);
      return;
    }
    void this.pullImage(task).then(
      // a task ended while its image came runs nothing
      () => task.desiredState === 'running' && this.runTask(task),
      (error: unknown) => task.desiredState === 'running' && this.reject(task, undefined, error as Error),
    );
  }

  private hasImage(task: Task): boolean {
    try {
      this.options.images.find(task.spec.ContainerSpec.Image);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  /** As dockerd's executor pulls a task's image, with the service's X-Registry-Auth. */
  private async pullImage(task: Task): Promise<void> {
    const reference = parseImageReference(task.spec.ContainerSpec.Image);
    if (reference === undefined) throw new NotFoundError(`No such image: ${task.spec.ContainerSpec.Image}`);
    const pull = await preparePull(this.options.registries, this.options.images, reference, task.service.registryCredentials);
    await pull.run(() => undefined);
  }

  private runTask(task: Task): void {
    const { containers, lifecycle } = this.options;
    let container: Container | undefined;
    try {
      container = containers.create({ name: task.name, config: containerConfigOf(task) });
      task.container = container;
      this.placeSecrets(task, container);
      lifecycle.start(container);
    } catch (error) {
      this.reject(task, container, error as Error);
      return;
    }
    this.record(task, { state: 'running', message: 'started', pid: container.state.Pid, exitCode: 0 });
    void lifecycle.wait(container).then((exitCode) => this.containerEnded(task, exitCode));
  }

  /** Each secret the template names, as a file of /run/secrets with the mode given (dockerd's default 0444). */
  private placeSecrets(task: Task, container: Container): void {
    const references = task.spec.ContainerSpec.Secrets ?? [];
    if (references.length === 0) return;
    container.filesystem.mkdir(SECRETS_DIRECTORY, { parents: true });
    for (const reference of references) {
      const data = this.options.secretData(reference.SecretID);
      if (data && reference.File) container.filesystem.writeFile(`${SECRETS_DIRECTORY}/${reference.File.Name}`, data, { mode: reference.File.Mode ?? DEFAULT_SECRET_MODE });
    }
  }

  /** The image is missing or the command cannot run: dockerd rejects the task (or fails it, once its container exists). */
  private reject(task: Task, container: Container | undefined, error: Error): void {
    this.record(task, { state: container ? 'failed' : 'rejected', message: container ? 'starting' : 'preparing', err: error.message, exitCode: container?.state.ExitCode ?? 0 });
    task.desiredState = 'shutdown';
    this.afterEnd(task, true);
  }

  /** The task's container stopped, by itself or because the orchestrator stopped it. */
  private containerEnded(task: Task, exitCode: number): void {
    if (task.desiredState !== 'running') {
      this.record(task, { state: 'shutdown', message: 'shutdown', exitCode });
      return;
    }
    const failed = exitCode !== 0;
    this.record(task, failed ? { state: 'failed', message: 'started', err: `task: non-zero exit (${exitCode})`, exitCode } : { state: 'complete', message: 'finished', exitCode });
    task.desiredState = 'shutdown';
    this.afterEnd(task, failed);
  }

  /** The restart condition of the task's template decides whether a new task takes its slot after the delay. */
  private afterEnd(task: Task, failed: boolean): void {
    const { service, slot } = task;
    this.pruneHistory(service, slot);
    const condition = restartConditionOf(task.spec);
    if (condition === 'none' || (condition === 'on-failure' && !failed) || this.retired.has(service)) return;
    const key = `${service.id}/${slot ?? 'global'}`;
    // One restart per slot: a later end (a rejected replacement) reschedules it rather than adding one.
    const pending = this.pendingRestarts.get(key);
    if (pending !== undefined) this.options.scheduler.clearTimeout(pending);
    this.pendingRestarts.set(
      key,
      this.options.scheduler.setTimeout(() => {
        this.pendingRestarts.delete(key);
        // An update or a scale-down since may have filled the slot or given it up.
        if (!this.retired.has(service)) this.reconcile(service);
      }, restartDelayMsOf(task.spec)),
    );
  }

  /** Stops the task's container (within the grace period) and, for `remove`, removes it and the task. */
  private end(task: Task, desired: DesiredState): void {
    task.desiredState = desired;
    this.options.cluster.touch(task.meta);
    if (desired === 'remove') this.options.tasks.delete(task);
    void this.stopContainer(task, desired === 'remove');
  }

  private async stopContainer(task: Task, remove: boolean): Promise<void> {
    const { container } = task;
    if (!container || !this.options.containers.has(container)) return;
    const { lifecycle } = this.options;
    try {
      if (container.state.Running) await lifecycle.stop(container, stopGracePeriodSOf(task.spec));
      if (remove) await lifecycle.remove(container, { force: true, volumes: true });
    } catch {
      // Stopped or removed meanwhile by someone else: what was wanted happened.
    }
  }

  /** A slot keeps its last few tasks (and their stopped containers); older ones go. */
  private pruneHistory(service: Service, slot: number | undefined): void {
    for (const task of this.options.tasks.expired(service, slot)) this.end(task, 'remove');
  }

  private record(task: Task, status: Omit<TaskStatus, 'timestamp' | 'containerId' | 'pid'> & { pid?: number }): void {
    task.status = { timestamp: this.options.clock(), containerId: task.container?.id, pid: 0, ...status };
    this.options.cluster.touch(task.meta);
  }
}

/** The container dockerd's executor makes for a task: Command is its entrypoint, Args its command. */
function containerConfigOf(task: Task) {
  const spec = task.spec.ContainerSpec;
  return {
    Image: spec.Image,
    ...(spec.Hostname && { Hostname: spec.Hostname }),
    ...(spec.TTY && { Tty: true }),
    ...(spec.Command && { Entrypoint: spec.Command }),
    Cmd: spec.Args ?? null,
    Env: spec.Env ?? null,
    WorkingDir: spec.Dir ?? '',
    User: spec.User ?? '',
    Labels: {
      ...spec.Labels,
      'com.docker.swarm.node.id': task.nodeId,
      'com.docker.swarm.service.id': task.service.id,
      'com.docker.swarm.service.name': task.service.name,
      'com.docker.swarm.task': '',
      'com.docker.swarm.task.id': task.id,
      'com.docker.swarm.task.name': task.name,
    },
  };
}
