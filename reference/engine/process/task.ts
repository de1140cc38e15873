/**
 * One entry of a container's process table: pid, command line, signal disposition and lifetime. The
 * program running in it (an applet, the shell) does all its waiting through the task, so that a kill
 * stops it wherever it is and the freezer holds it wherever it is.
 */
import type { Freezer } from './freezer.ts';
import type { OutputSink } from './program-io.ts';
import type { Scheduler, TimerHandle } from './scheduler.ts';
import { defaultActionOf, SIGKILL, signalName } from './signals.ts';

export interface ExitStatus {
  exitCode: number;
  /** set when a signal ended the process (`SIGKILL`); its exit code is then 128 + the number */
  signal?: string;
}

/** Thrown into the program of a task that has ended, to unwind it. Programs let it through. */
export class TaskEndedError extends Error {
  constructor() {
    super('the process has ended');
    this.name = 'TaskEndedError';
  }
}

/** What a task needs from the namespace it lives in. */
export interface TaskHost {
  readonly scheduler: Scheduler;
  readonly freezer: Freezer;
  taskEnded(task: Task): void;
}

export interface TaskIdentity {
  pid: number;
  hostPid: number;
  ppid: number;
  hostPpid: number;
  argv: string[];
  uid: number;
  user: string;
  tty: boolean;
  startedAt: Date;
  /** signals set to be ignored: inherited by children and kept across exec, as in Unix */
  ignoredSignals: Iterable<number>;
}

export class Task {
  readonly pid: number;
  readonly hostPid: number;
  readonly ppid: number;
  readonly hostPpid: number;
  /** changes when the program execs another (the shell running its last command in place) */
  argv: string[];
  readonly uid: number;
  readonly user: string;
  readonly tty: boolean;
  readonly startedAt: Date;
  readonly ignoredSignals: Set<number>;
  /** The running program's own handling of signals; returns true when it took the signal. */
  signalHandler: ((signal: number) => boolean) | undefined;
  readonly exited: Promise<ExitStatus>;

  private status: ExitStatus | undefined;
  private resolveExited!: (status: ExitStatus) => void;
  private readonly cancellations = new Set<(error: Error) => void>();

  constructor(
    private readonly host: TaskHost,
    identity: TaskIdentity,
  ) {
    this.pid = identity.pid;
    this.hostPid = identity.hostPid;
    this.ppid = identity.ppid;
    this.hostPpid = identity.hostPpid;
    this.argv = identity.argv;
    this.uid = identity.uid;
    this.user = identity.user;
    this.tty = identity.tty;
    this.startedAt = identity.startedAt;
    this.ignoredSignals = new Set(identity.ignoredSignals);
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
  }

  get alive(): boolean {
    return this.status === undefined;
  }

  get exitStatus(): ExitStatus | undefined {
    return this.status;
  }

  /** Starts `program` on a later tick (so that whoever started the task can subscribe to it first). */
  run(program: () => Promise<number>, stderr: OutputSink): void {
    void Promise.resolve()
      .then(() => (this.alive ? program() : 0))
      .then(
        (code) => this.exit(code),
        (error: unknown) => {
          if (error instanceof TaskEndedError) return;
          // A bug of the interpreter: say so where the output goes instead of dying silently.
          stderr.write(`${this.argv[0] ?? 'process'}: reference interpreter error: ${error instanceof Error ? error.message : String(error)}\n`);
          this.exit(255);
        },
      );
  }

  /** Sends a signal: what a kill(2) aimed at this process does. */
  deliver(signal: number): void {
    if (!this.alive) return;
    if (signal === SIGKILL) {
      this.kill(SIGKILL);
      return;
    }
    // A frozen task takes its signals at thaw; SIGKILL goes through, as with the cgroup v2 freezer.
    if (this.host.freezer.isFrozen) {
      this.host.freezer.run(() => this.deliver(signal));
      return;
    }
    if (this.ignoredSignals.has(signal)) return;
    if (this.signalHandler?.(signal)) return;
    this.applyDefaultAction(signal);
  }

  /**
   * What the kernel does with a signal the program does not handle. The init of a pid namespace is
   * spared: signals without a handler never kill it (SIGKILL aside, which only comes from outside).
   */
  applyDefaultAction(signal: number): void {
    if (!this.alive || defaultActionOf(signal) !== 'terminate') return;
    if (this.pid === 1 && signal !== SIGKILL) return;
    this.kill(signal);
  }

  /** Ends the task as killed by `signal`. */
  kill(signal: number): void {
    this.finish({ exitCode: 128 + signal, signal: signalName(signal) });
  }

  /** Ends the task with an exit code, as exit(2) does. */
  exit(code: number): void {
    this.finish({ exitCode: code & 0xff });
  }

  throwIfEnded(): void {
    if (!this.alive) throw new TaskEndedError();
  }

  /**
   * Waits for `promise` as this task: rejects with TaskEndedError if the task ends first (calling
   * `cancel` to release what it waited on), and holds the result while the container is frozen.
   */
  waitFor<T>(promise: Promise<T>, cancel?: () => void): Promise<T> {
    if (!this.alive) {
      cancel?.();
      return Promise.reject(new TaskEndedError());
    }
    return new Promise<T>((resolve, reject) => {
      const abort = (error: Error) => {
        cancel?.();
        reject(error);
      };
      this.cancellations.add(abort);
      promise.then(
        (value) => this.host.freezer.run(() => {
          this.cancellations.delete(abort);
          if (this.alive) resolve(value);
        }),
        (error: unknown) => {
          this.cancellations.delete(abort);
          reject(error);
        },
      );
    });
  }

  /** Sleeps on the container's clock. */
  sleep(ms: number): Promise<void> {
    let timer: TimerHandle;
    const done = new Promise<void>((resolve) => {
      timer = this.host.scheduler.setTimeout(resolve, ms);
    });
    return this.waitFor(done, () => this.host.scheduler.clearTimeout(timer));
  }

  /** Blocks forever (until the task ends). */
  waitForever(): Promise<never> {
    return this.waitFor(new Promise<never>(() => {}));
  }

  /** A point where a busy program gives way: to the freezer, to a kill. */
  async checkpoint(): Promise<void> {
    this.throwIfEnded();
    await this.waitFor(this.host.freezer.whenThawed());
  }

  private finish(status: ExitStatus): void {
    if (!this.alive) return;
    this.status = status;
    this.signalHandler = undefined;
    const ended = new TaskEndedError();
    for (const abort of [...this.cancellations]) abort(ended);
    this.cancellations.clear();
    this.host.taskEnded(this);
    this.resolveExited(status);
  }
}
