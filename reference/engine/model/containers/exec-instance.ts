/**
 * One exec instance (spec/1 §2.5): a command to run beside a container's main process, created
 * first and started once. Plain data; the exec store applies the rules and runs it.
 */
import type { SimulatedProcess } from '../../process/index.ts';
import type { Container } from './container.ts';

export interface ExecSpec {
  /** the command: its first word is the entrypoint dockerd shows, the rest the arguments */
  cmd: string[];
  attachStdin: boolean;
  attachStdout: boolean;
  attachStderr: boolean;
  tty: boolean;
  /** the bytes that detach an attached start; default ctrl-p ctrl-q */
  detachKeys?: Buffer;
  /** `NAME=value` entries that replace or follow the container's environment */
  env?: string[];
  /** Config.User syntax; '' runs it as the container's user */
  user?: string;
  privileged?: boolean;
}

export class ExecInstance {
  running = false;
  /** once the command has ended (or failed to start) */
  exitCode: number | undefined;
  /** the host pid while it runs, and after; 0 until it starts */
  pid = 0;
  /** the process while it runs */
  process: SimulatedProcess | undefined;

  constructor(
    readonly id: string,
    readonly container: Container,
    readonly spec: ExecSpec,
  ) {}

  get entrypoint(): string {
    return this.spec.cmd[0] ?? '';
  }

  get args(): string[] {
    return this.spec.cmd.slice(1);
  }

  /** The user it runs as: its own, else the container's. */
  get user(): string {
    return this.spec.user || this.container.config.User;
  }

  get started(): boolean {
    return this.running || this.exitCode !== undefined;
  }
}
