/**
 * fork and exec for programs: starting a program as a child process, and replacing the current
 * program by another in the same process (the shell's last command, `env CMD`).
 */
import type { ProgramIo } from './program-io.ts';
import type { CommandResolution, ProgramContext } from './program.ts';
import type { Task } from './task.ts';

export type ResolvedProgram = Extract<CommandResolution, { kind: 'program' }>;

export interface LaunchSettings {
  env: readonly string[];
  cwd: string;
  io: ProgramIo;
}

/**
 * A child of the context's process (fork), showing `commandLine` in the process table. It inherits
 * the ignored signals; `alsoIgnored` adds some (a background job ignores SIGINT and SIGQUIT).
 */
export function forkTask(parent: ProgramContext, commandLine: string[], alsoIgnored: number[] = []): Task {
  return parent.namespace.spawn({
    argv: commandLine,
    parent: parent.task,
    uid: parent.user.uid,
    user: parent.user.name,
    tty: parent.tty,
    ignoredSignals: [...parent.task.ignoredSignals, ...alsoIgnored],
  });
}

/** Starts `program` as a child process; its exit status comes with the returned task. */
export function spawnProgram(parent: ProgramContext, program: ResolvedProgram, settings: LaunchSettings): Task {
  const task = forkTask(parent, program.commandLine);
  const context: ProgramContext = { ...parent, task, argv: program.argv, env: settings.env, cwd: settings.cwd, io: settings.io };
  task.run(() => program.applet(context), settings.io.stderr);
  return task;
}

/**
 * Runs `program` in place of the current one (exec): same pid, new command line; signal handlers go
 * back to their defaults while ignored signals stay ignored.
 */
export function execProgram(context: ProgramContext, program: ResolvedProgram, settings: LaunchSettings): Promise<number> {
  context.task.argv = program.commandLine;
  context.task.signalHandler = undefined;
  return program.applet({ ...context, argv: program.argv, env: settings.env, cwd: settings.cwd, io: settings.io });
}
