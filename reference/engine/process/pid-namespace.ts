/**
 * The processes of one container: its pid namespace (PID 1 first, then its children and exec
 * instances), its clock and its freezer. When PID 1 ends, the kernel kills everything else in the
 * namespace; the same happens here.
 */
import { Freezer } from './freezer.ts';
import { realScheduler, type Scheduler } from './scheduler.ts';
import { SIGKILL } from './signals.ts';
import { Task, type TaskHost } from './task.ts';

/** One row of the process table, as `ps`/`top` would show it. */
export interface ProcessTableRow {
  /** inside the container */
  pid: number;
  ppid: number;
  /** as the host sees it: what `GET /containers/{id}/top` reports */
  hostPid: number;
  hostPpid: number;
  uid: number;
  user: string;
  startedAt: Date;
  /** `pts/0` when the process has a terminal, else `?` */
  tty: string;
  /** CPU time: a simulated process uses none */
  time: string;
  /** the command line, words joined by spaces */
  command: string;
  argv: string[];
}

export interface SpawnOptions {
  argv: string[];
  parent?: Task;
  uid: number;
  user: string;
  tty: boolean;
  ignoredSignals?: Iterable<number>;
}

/** A source of host pids; one shared counter by default, so that containers do not share pids. */
export type HostPidSource = () => number;

let lastHostPid = 12_000;
const sharedHostPids: HostPidSource = () => ++lastHostPid;

export interface PidNamespaceOptions {
  scheduler?: Scheduler;
  hostPids?: HostPidSource;
}

export class PidNamespace implements TaskHost {
  readonly scheduler: Scheduler;
  readonly freezer = new Freezer();
  private readonly hostPids: HostPidSource;
  /** the container shim's pid: the host parent of PID 1 */
  private readonly shimPid: number;
  private readonly tasks = new Map<number, Task>();
  private lastPid = 0;

  constructor(options: PidNamespaceOptions = {}) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.hostPids = options.hostPids ?? sharedHostPids;
    this.shimPid = this.hostPids();
  }

  /** Creates a process entry; the caller gives it its program with `task.run`. */
  spawn(options: SpawnOptions): Task {
    const pid = ++this.lastPid;
    const task = new Task(this, {
      pid,
      hostPid: this.hostPids(),
      ppid: options.parent?.pid ?? 0,
      hostPpid: options.parent?.hostPid ?? this.shimPid,
      argv: options.argv,
      uid: options.uid,
      user: options.user,
      tty: options.tty,
      startedAt: new Date(this.scheduler.now()),
      ignoredSignals: options.ignoredSignals ?? [],
    });
    this.tasks.set(pid, task);
    return task;
  }

  find(pid: number): Task | undefined {
    return this.tasks.get(pid);
  }

  /** Sends a signal to a live process; false when there is none with that pid. */
  signal(pid: number, signal: number): boolean {
    const task = this.tasks.get(pid);
    if (task === undefined) return false;
    task.deliver(signal);
    return true;
  }

  /** The live processes, by pid. */
  processTable(): ProcessTableRow[] {
    return [...this.tasks.values()]
      .sort((a, b) => a.pid - b.pid)
      .map((task) => ({
        pid: task.pid,
        ppid: task.ppid,
        hostPid: task.hostPid,
        hostPpid: task.hostPpid,
        uid: task.uid,
        user: task.user,
        startedAt: task.startedAt,
        tty: task.tty ? 'pts/0' : '?',
        time: '00:00:00',
        command: task.argv.join(' '),
        argv: [...task.argv],
      }));
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Kills every live process (what the kernel does when PID 1 dies, and `docker kill` of the rest). */
  killAll(signal = SIGKILL): void {
    for (const task of [...this.tasks.values()]) task.deliver(signal);
  }

  get frozen(): boolean {
    return this.freezer.isFrozen;
  }

  freeze(): void {
    this.freezer.freeze();
  }

  thaw(): void {
    this.freezer.thaw();
  }

  taskEnded(task: Task): void {
    this.tasks.delete(task.pid);
    if (task.pid === 1) this.killAll(SIGKILL);
  }
}
