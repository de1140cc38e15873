/**
 * A process as the container state machine and exec instances see it: started from an argv, with
 * stdin to write to, stdout/stderr to read, signals to send, an exit status to wait for, and the
 * process table of its container for `top`.
 */
import type { ContainerFilesystem } from '../filesystem/container-filesystem.ts';
import { appletCommands } from './applet-table.ts';
import { passwdEntries } from './identity-commands.ts';
import { OutputStream } from './output-stream.ts';
import { PidNamespace, type ProcessTableRow } from './pid-namespace.ts';
import { InputPipe, type OutputSink, type ProgramIo } from './program-io.ts';
import { LOOPBACK_ONLY, type NetworkView, type ProcessUser, type ProgramContext } from './program.ts';
import type { Scheduler } from './scheduler.ts';
import { signalNumber } from './signals.ts';
import type { ExitStatus, Task } from './task.ts';
import { translateInput, translateOutput } from './terminal.ts';

export interface StartProcessOptions {
  /** Entrypoint and Cmd joined */
  argv: string[];
  /** `NAME=value` entries, in order */
  env?: string[];
  /** default `/` */
  workingDir?: string;
  /** default `localhost` */
  hostname?: string;
  /** default root; the name comes from the container's /etc/passwd when not given */
  user?: { uid: number; gid?: number; name?: string; extraGroups?: readonly number[] };
  tty?: boolean;
  /**
   * Whether stdin is a pipe the caller writes to (Config.OpenStdin, exec AttachStdin). When false the
   * process reads /dev/null, as in a container without OpenStdin. Default true.
   */
  openStdin?: boolean;
  filesystem: ContainerFilesystem;
  /**
   * The container's processes. Omitted: a new namespace, in which this process is PID 1. Exec
   * instances pass their container's, and get the next pid.
   */
  namespace?: PidNamespace;
  /** the clock of a namespace created here; real time by default */
  scheduler?: Scheduler;
  /** what ping and nslookup reach; default loopback only */
  network?: NetworkView;
}

/** The argv names nothing that can run: the container or exec fails to start. */
export class ExecError extends Error {
  constructor(
    message: string,
    /** what the engine records as the exit code: 127 not found, 126 not executable */
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'ExecError';
  }
}

/** The writable end of a process's stdin. */
export class ProcessStdin {
  constructor(
    private readonly pipe: InputPipe,
    private readonly deliver: (action: () => void) => void,
    /** with a terminal: echoes what is typed to the terminal's output */
    private readonly echo: ((typed: Buffer) => void) | undefined,
  ) {}

  get ended(): boolean {
    return this.pipe.ended;
  }

  write(data: Buffer | string): void {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    let endOfInput = false;
    if (this.echo) {
      ({ data: chunk, endOfInput } = translateInput(chunk));
      this.echo(chunk);
    }
    this.deliver(() => this.pipe.push(chunk));
    if (endOfInput) this.end();
  }

  end(): void {
    this.deliver(() => this.pipe.end());
  }
}

export class SimulatedProcess {
  readonly stdin: ProcessStdin;
  readonly stdout = new OutputStream();
  /** with a tty, stderr joins stdout and this stream stays empty */
  readonly stderr = new OutputStream();
  readonly exited: Promise<ExitStatus>;
  readonly tty: boolean;
  readonly namespace: PidNamespace;
  private readonly task: Task;

  constructor(options: StartProcessOptions) {
    this.namespace = options.namespace ?? new PidNamespace({ scheduler: options.scheduler });
    this.tty = options.tty ?? false;
    const env = options.env ?? [];
    const cwd = options.workingDir || '/';
    const fs = options.filesystem;
    const program = appletCommands.resolve(options.argv, { cwd, env, fs });
    if (program.kind !== 'program') throw execError(options.argv[0] ?? '', program.kind);
    const user = processUser(options.user, fs);
    const freezer = this.namespace.freezer;

    // Output is held while the container is frozen; with a terminal it is one stream, with \r\n.
    const stdoutSink = this.outputSink(this.stdout);
    const stderrSink = this.tty ? stdoutSink : this.outputSink(this.stderr);
    const pipe = new InputPipe();
    const echo = this.tty ? (typed: Buffer) => this.stdout.write(translateOutput(typed)) : undefined;
    this.stdin = new ProcessStdin(pipe, (action) => freezer.run(action), echo);
    if (options.openStdin === false) pipe.end();

    this.task = this.namespace.spawn({ argv: program.commandLine, uid: user.uid, user: user.name, tty: this.tty });
    const io: ProgramIo = { stdin: pipe, stdout: stdoutSink, stderr: stderrSink };
    const context: ProgramContext = {
      task: this.task,
      namespace: this.namespace,
      argv: program.argv,
      env,
      cwd,
      hostname: options.hostname ?? 'localhost',
      user,
      fs,
      io,
      tty: this.tty,
      commands: appletCommands,
      network: options.network ?? LOOPBACK_ONLY,
    };
    this.task.run(() => program.applet(context), stderrSink);
    this.exited = this.task.exited.then((status) => {
      this.stdout.end();
      this.stderr.end();
      return status;
    });
  }

  /** in the container's pid namespace */
  get pid(): number {
    return this.task.pid;
  }

  /** PID 1 of its namespace: the container's main process, spared the signals it does not handle */
  get isInit(): boolean {
    return this.task.pid === 1;
  }

  /** as the host sees it: State.Pid */
  get hostPid(): number {
    return this.task.hostPid;
  }

  get running(): boolean {
    return this.task.alive;
  }

  /** once exited */
  get exitStatus(): ExitStatus | undefined {
    return this.task.exitStatus;
  }

  /**
   * Sends a signal (`SIGTERM`, `term`, `15`…); throws UnknownSignalError for a name or number that is
   * none. PID 1 ignores the signals it has no handler for, SIGKILL aside.
   */
  signal(spec: string | number): void {
    this.task.deliver(signalNumber(spec));
  }

  /** Freezes the whole container (the freezer works on the cgroup), not only this process. */
  freeze(): void {
    this.namespace.freeze();
  }

  thaw(): void {
    this.namespace.thaw();
  }

  get frozen(): boolean {
    return this.namespace.frozen;
  }

  /** The container's live processes (this one, its children, other exec instances). */
  processTable(): ProcessTableRow[] {
    return this.namespace.processTable();
  }

  private outputSink(stream: OutputStream): OutputSink {
    const freezer = this.namespace.freezer;
    return {
      write: (data) => {
        let chunk = typeof data === 'string' ? Buffer.from(data) : data;
        if (this.tty) chunk = translateOutput(chunk);
        freezer.run(() => stream.write(chunk));
      },
    };
  }
}

/** Starts a simulated process; throws ExecError when argv[0] names nothing that runs. */
export function startProcess(options: StartProcessOptions): SimulatedProcess {
  return new SimulatedProcess(options);
}

/** Worded as runc words exec failures, which dockerd passes on. */
function execError(command: string, kind: 'not-found' | 'not-executable'): ExecError {
  if (kind === 'not-executable') return new ExecError(`exec: "${command}": permission denied`, 126);
  if (command.includes('/')) return new ExecError(`exec: "${command}": stat ${command}: no such file or directory`, 127);
  return new ExecError(`exec: "${command}": executable file not found in $PATH`, 127);
}

function processUser(given: StartProcessOptions['user'], fs: ContainerFilesystem): ProcessUser {
  const uid = given?.uid ?? 0;
  const entry = given?.name === undefined || given.gid === undefined ? passwdEntries(fs).find((candidate) => candidate.uid === uid) : undefined;
  return {
    uid,
    gid: given?.gid ?? entry?.gid ?? (uid === 0 ? 0 : uid),
    name: given?.name ?? entry?.name ?? (uid === 0 ? 'root' : String(uid)),
    extraGroups: given?.extraGroups ?? [],
  };
}
