/**
 * What a program (an applet such as `cat`, or the shell) runs with: its arguments, environment,
 * working directory, identity, filesystem, standard streams, and the task it runs as.
 */
import type { ContainerFilesystem } from '../filesystem/container-filesystem.ts';
import type { PidNamespace } from './pid-namespace.ts';
import type { ProgramIo } from './program-io.ts';
import type { Task } from './task.ts';

export interface ProcessUser {
  uid: number;
  gid: number;
  /** the name `ps` shows; the uid in decimal when the container's /etc/passwd does not know it */
  name: string;
  /** groups given besides those /etc/group lists the user in (HostConfig.GroupAdd, resolved) */
  extraGroups: readonly number[];
}

/** What a DNS server answers for a name: its address, that it has none, or nothing (it cannot be reached). */
export type DnsAnswer = { kind: 'address'; address: string } | { kind: 'no-such-name' } | { kind: 'unreachable' };

/** The container's network as its programs meet it: the DNS servers it can ask, the addresses that answer a ping. */
export interface NetworkView {
  askDns(server: string, name: string): DnsAnswer;
  answersPing(address: string): boolean;
}

/** A process outside any network: loopback only. */
export const LOOPBACK_ONLY: NetworkView = {
  askDns: () => ({ kind: 'unreachable' }),
  answersPing: (address) => address.startsWith('127.'),
};

export interface ProgramContext {
  readonly task: Task;
  readonly namespace: PidNamespace;
  /** as the program sees them: argv[0] is the name it was called by */
  readonly argv: readonly string[];
  /** `NAME=value` entries, in order */
  readonly env: readonly string[];
  readonly cwd: string;
  readonly hostname: string;
  readonly user: ProcessUser;
  readonly fs: ContainerFilesystem;
  readonly io: ProgramIo;
  /** whether the standard streams are a terminal */
  readonly tty: boolean;
  readonly commands: CommandLookup;
  readonly network: NetworkView;
}

/** A program: its exit code when it returns. It lets TaskEndedError through. */
export type Applet = (context: ProgramContext) => Promise<number>;

export type CommandResolution =
  | {
      kind: 'program';
      applet: Applet;
      /** what the program gets as argv (`busybox sh -c x` runs `sh` with `sh -c x`) */
      argv: string[];
      /** what the process table shows (a script's interpreter line replaces its name) */
      commandLine: string[];
    }
  | { kind: 'not-found' }
  /** the path exists but is no program we can run (a directory, a file without an x bit) */
  | { kind: 'not-executable' };

export interface CommandLookupContext {
  cwd: string;
  env: readonly string[];
  fs: ContainerFilesystem;
}

/** Finds the program an argv names, the way execvp and the shell's PATH search would. */
export interface CommandLookup {
  resolve(argv: readonly string[], where: CommandLookupContext): CommandResolution;
}

/** The value of NAME in an env list, the last one winning as in getenv of a duplicated entry. */
export function envValue(env: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  const prefix = `${name}=`;
  for (const entry of env) if (entry.startsWith(prefix)) value = entry.slice(prefix.length);
  return value;
}
