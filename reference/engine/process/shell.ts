/**
 * The shell: runs command lines the way busybox ash does, as far as the fixture command contract
 * goes. The details that checks can see:
 * - `sh -c` runs its last command in place of itself (exec, no fork) when no trap is set, so
 *   `sh -c 'sleep 300'` is `sleep 300` in the process table and takes signals as `sleep` would;
 * - a trapped signal runs its trap after the foreground command completes (`trap … TERM; sleep 300`
 *   waits for the sleep), but interrupts `wait`, which then returns 128 + the signal;
 * - background jobs read /dev/null and ignore SIGINT and SIGQUIT (non-interactive shell);
 * - error messages and statuses: `sh: X: not found` 127, syntax errors 2, `exit 300` is 44;
 * - every command of a pipeline runs in a forked subshell, its output a pipe into the next, and the
 *   pipeline's status is the last one's; a command substitution runs in a forked subshell too;
 * - compound commands (`while`, `for`, `if`, `{ …; }`) run in the shell itself, so what their bodies assign stays.
 */
import { StringDecoder } from 'node:string_decoder';
import { forkTask, execProgram, spawnProgram } from './program-launch.ts';
import { InputPipe, NULL_INPUT, type ProgramIo } from './program-io.ts';
import type { ProgramContext } from './program.ts';
import { BUILTINS, ShellExit, trapConditionName, type ShellForBuiltins, type TrapCondition } from './shell-builtins.ts';
import { commandSubstitutions, expandToText, expandWords, ParameterNotSetError, type CommandPart, type ExpansionScope } from './shell-expansion.ts';
import { matchPathnames } from './shell-glob.ts';
import { ShellParser } from './shell-parser.ts';
import { applyRedirections, RedirectionError } from './shell-redirections.ts';
import {
  ShellSyntaxError,
  UnsupportedSyntaxError,
  type AndOrList,
  type Command,
  type CommandLine,
  type CompoundCommand,
  type Pipeline,
  type Redirection,
  type SimpleCommand,
  type Word,
  type WordPart,
} from './shell-syntax.ts';
import { ShellVariables } from './shell-variables.ts';
import { yieldToEventLoop } from './scheduler.ts';
import { SIGINT, SIGPIPE, SIGQUIT, SIGTERM } from './signals.ts';
import type { Task } from './task.ts';

/** Where the shell's commands come from: `-c SCRIPT`, a script file, or its standard input. */
export type ShellMode = 'command' | 'file' | 'stdin';

export interface ShellSettings {
  /** `$0`, and the name before the shell's messages */
  arg0: string;
  positional: string[];
  mode: ShellMode;
  /** ash numbers the lines in its messages for a script file and `-c SCRIPT NAME`; builtins' messages always */
  numberedMessages: boolean;
  interactive: boolean;
}

/** What a subshell copies from its parent. */
interface ShellState {
  variables: ShellVariables;
  cwd: string;
  positional: string[];
  status: number;
  shellPid: number;
  lastBackgroundPid: number | undefined;
}

/** ash's default PATH, set when the environment has none */
const DEFAULT_PATH = '/sbin:/usr/sbin:/bin:/usr/bin';

type Interruptible<T> = { value: T } | { signal: number };

export class Shell implements ShellForBuiltins, ExpansionScope {
  /** the streams change while a compound command with redirections runs */
  context: ProgramContext;
  cwd: string;
  positional: string[];
  readonly variables: ShellVariables;
  private status: number;
  private statusBeforeTrap: number | undefined;
  private lastBackgroundPid: number | undefined;
  private readonly shellPid: number;
  private readonly jobs = new Map<number, Task>();
  private readonly traps = new Map<TrapCondition, string>();
  private readonly pendingSignals: number[] = [];
  /** signals ignored when the shell started: POSIX lets a non-interactive shell not trap them */
  private readonly ignoredAtStart: ReadonlySet<number>;
  private interruptWait: ((signal: number) => void) | undefined;
  private runningTraps = false;
  private exiting = false;
  /** the line being run, 0-based, and where the current source starts in the whole input */
  private line = 0;
  private lineBase = 0;
  /** the outputs of the command substitutions of the command being expanded */
  private substituted = new Map<CommandPart, string>();

  private constructor(
    context: ProgramContext,
    private readonly settings: ShellSettings,
    state: ShellState,
  ) {
    this.context = context;
    this.variables = state.variables;
    this.cwd = state.cwd;
    this.positional = state.positional;
    this.status = state.status;
    this.shellPid = state.shellPid;
    this.lastBackgroundPid = state.lastBackgroundPid;
    this.ignoredAtStart = new Set(context.task.ignoredSignals);
    context.task.signalHandler = (signal) => this.onSignal(signal);
  }

  /** A new shell process: its variables come from the environment, plus PWD, SHLVL and PATH as ash sets them. */
  static start(context: ProgramContext, settings: ShellSettings): Shell {
    const variables = ShellVariables.fromEnvironment(context.env);
    const level = Number.parseInt(variables.get('SHLVL') ?? '0', 10);
    variables.set('SHLVL', String(Number.isNaN(level) ? 1 : level + 1), { export: true });
    if (variables.get('PATH') === undefined) variables.set('PATH', DEFAULT_PATH, { export: true });
    variables.set('PWD', context.cwd, { export: true });
    return new Shell(context, settings, {
      variables,
      cwd: context.cwd,
      positional: settings.positional,
      status: 0,
      shellPid: context.task.pid,
      lastBackgroundPid: undefined,
    });
  }

  /** `sh -c SCRIPT`: the last command is exec'd when it can be. */
  runCommandString(script: string): Promise<number> {
    return this.main(() => this.runSource(script, true));
  }

  /** `sh FILE` */
  runFile(source: string): Promise<number> {
    return this.main(() => this.runSource(source, false));
  }

  /** `sh` reading commands from its standard input, running each line as soon as it is complete. */
  runStdin(): Promise<number> {
    return this.main(async () => {
      const decoder = new StringDecoder('utf8');
      let unread = '';
      let incomplete = '';
      let linesRead = 0;
      this.prompt('PS1');
      for (;;) {
        const chunk = await this.readInputIdle();
        const ended = chunk === null;
        unread += ended ? decoder.end() : decoder.write(chunk);
        // line by line, so that an error on one line comes after the lines before it have run
        for (let newline = unread.indexOf('\n'); newline >= 0 || (ended && unread); newline = unread.indexOf('\n')) {
          const end = newline >= 0 ? newline + 1 : unread.length;
          incomplete += unread.slice(0, end);
          unread = unread.slice(end);
          const lines = this.parseInput(incomplete, ended && unread === '');
          if (lines === 'incomplete') {
            this.prompt('PS2');
            continue;
          }
          this.lineBase = linesRead;
          linesRead += incomplete.split('\n').length - 1;
          incomplete = '';
          for (const line of lines) await this.runCommandLine(line, false);
          if (!ended) this.prompt('PS1');
        }
        if (ended) {
          // what is left stopped inside a command: at the end of input, that is a syntax error
          if (incomplete.trim()) for (const line of this.parseInput(incomplete, true) as CommandLine[]) await this.runCommandLine(line, false);
          return;
        }
      }
    });
  }

  // ----- ExpansionScope

  lookup(name: string): string | undefined {
    switch (name) {
      case '?':
        return String(this.status);
      case '$':
        return String(this.shellPid);
      case '!':
        return this.lastBackgroundPid === undefined ? '' : String(this.lastBackgroundPid);
      case '#':
        return String(this.positional.length);
      case '-':
        return this.settings.mode === 'command' ? 'c' : this.settings.mode === 'stdin' ? (this.settings.interactive ? 'is' : 's') : '';
      case '0':
        return this.settings.arg0;
    }
    if (/^\d+$/.test(name)) return this.positional[Number(name) - 1];
    return this.variables.get(name);
  }

  positionalParameters(): readonly string[] {
    return this.positional;
  }

  assign(name: string, value: string): void {
    this.variables.set(name, value);
  }

  home(): string | undefined {
    return this.variables.get('HOME');
  }

  glob(pattern: string): string[] {
    return matchPathnames(pattern, this.cwd, this.context.fs);
  }

  commandOutput(part: CommandPart): string {
    return this.substituted.get(part) ?? '';
  }

  // ----- ShellForBuiltins

  get statusForExit(): number {
    return this.statusBeforeTrap ?? this.status;
  }

  setTrap(condition: TrapCondition, action: string | undefined): void {
    if (condition !== 'EXIT' && this.ignoredAtStart.has(condition) && !this.settings.interactive) return;
    const ignored = this.context.task.ignoredSignals;
    if (action === undefined) {
      this.traps.delete(condition);
      if (condition !== 'EXIT') ignored.delete(condition);
      return;
    }
    this.traps.set(condition, action);
    if (condition === 'EXIT') return;
    if (action === '') ignored.add(condition);
    else ignored.delete(condition);
  }

  listTraps(): Array<[string, string]> {
    const order = (condition: TrapCondition) => (condition === 'EXIT' ? 0 : condition);
    return [...this.traps]
      .sort(([a], [b]) => order(a) - order(b))
      .map(([condition, action]) => [trapConditionName(condition), action]);
  }

  async waitForJobs(pids: number[] | undefined): Promise<number> {
    const wanted = pids ?? [...this.jobs.keys()];
    let status = pids === undefined ? 0 : 127;
    for (const pid of wanted) {
      const job = this.jobs.get(pid);
      if (job === undefined) {
        status = 127;
        continue;
      }
      const outcome = await this.interruptible(this.context.task.waitFor(job.exited));
      if ('signal' in outcome) return 128 + outcome.signal;
      this.jobs.delete(pid);
      if (pids !== undefined) status = outcome.value.exitCode;
    }
    return status;
  }

  builtinError(io: ProgramIo, builtin: string, message: string): void {
    io.stderr.write(`${this.settings.arg0}: ${builtin}: line ${this.displayLine()}: ${message}\n`);
  }

  shellError(io: ProgramIo, message: string): void {
    io.stderr.write(`${this.settings.arg0}: ${message}\n`);
  }

  // ----- running

  /** Runs `body`, then the EXIT trap; `exit` anywhere ends up here. */
  private async main(body: () => Promise<void>): Promise<number> {
    let code: number;
    try {
      await body();
      code = this.status;
    } catch (error) {
      if (!(error instanceof ShellExit)) throw error;
      code = error.code;
    }
    return this.finish(code);
  }

  private async finish(code: number): Promise<number> {
    const action = this.traps.get('EXIT');
    if (action === undefined || action === '' || this.exiting) return code;
    this.exiting = true;
    this.traps.delete('EXIT');
    this.status = code;
    this.statusBeforeTrap = code;
    try {
      await this.runSource(action, false);
    } catch (error) {
      if (error instanceof ShellExit) return error.code;
      throw error;
    }
    return code;
  }

  /** Runs a script line by line: a line that does not parse fails after the lines before it ran. */
  private async runSource(source: string, execLast: boolean): Promise<void> {
    const parser = new ShellParser(source);
    for (;;) {
      const line = this.parseOrExit(() => parser.nextCommandLine());
      if (line === undefined) return;
      const last = execLast && this.isLastLine(parser);
      await this.runCommandLine(line, last);
    }
  }

  private isLastLine(parser: ShellParser): boolean {
    try {
      return parser.atEnd();
    } catch {
      return false; // the next line does not parse: it is reported when it is reached
    }
  }

  private parseOrExit<T>(parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      this.reportSyntaxError(error);
      throw new ShellExit(2);
    }
  }

  private reportSyntaxError(error: unknown): void {
    if (error instanceof ShellSyntaxError) this.context.io.stderr.write(`${this.prefix()}syntax error: ${error.message}\n`);
    else if (error instanceof UnsupportedSyntaxError) this.context.io.stderr.write(`${this.settings.arg0}: ${error.message}\n`);
    else throw error;
  }

  /** All the lines of some standard input; 'incomplete' when the text stops inside a command. */
  private parseInput(text: string, ended: boolean): CommandLine[] | 'incomplete' {
    const parser = new ShellParser(text);
    const lines: CommandLine[] = [];
    try {
      for (let line = parser.nextCommandLine(); line !== undefined; line = parser.nextCommandLine()) lines.push(line);
      return lines;
    } catch (error) {
      if (error instanceof ShellSyntaxError && error.atEndOfInput && !ended) return 'incomplete';
      this.reportSyntaxError(error);
      if (!this.settings.interactive) throw new ShellExit(2);
      this.status = 2;
      return [];
    }
  }

  private async runCommandLine(items: CommandLine, execLast: boolean): Promise<void> {
    for (const [index, item] of items.entries()) {
      if (item.background) {
        this.startBackgroundJob(item.andOr);
        this.status = 0;
        await this.runPendingTraps();
      } else {
        await this.runAndOr(item.andOr, execLast && index === items.length - 1);
      }
    }
  }

  private async runAndOr(list: AndOrList, execLast: boolean): Promise<number> {
    let status = await this.runPipeline(list.first, execLast && list.rest.length === 0);
    for (const [index, { operator, pipeline }] of list.rest.entries()) {
      if ((operator === '&&') !== (status === 0)) continue;
      status = await this.runPipeline(pipeline, execLast && index === list.rest.length - 1);
    }
    return status;
  }

  private async runPipeline(pipeline: Pipeline, execLast: boolean): Promise<number> {
    const [only] = pipeline.commands;
    const single = pipeline.commands.length === 1 && only !== undefined;
    if (!pipeline.negated) return single ? this.runCommand(only, execLast) : this.runPipe(pipeline.commands);
    const status = single ? await this.runCommand(only, false) : await this.runPipe(pipeline.commands);
    this.status = status === 0 ? 1 : 0;
    return this.status;
  }

  private runCommand(command: Command, execLast: boolean): Promise<number> {
    return command.kind === 'simple' ? this.runSimple(command, execLast) : this.runCompound(command);
  }

  /**
   * `a | b | c`: each in a forked subshell, stdout into the next one's stdin; the status is the last
   * one's. A write into a pipe whose reader has exited kills the writer with SIGPIPE, as the kernel
   * does, so that `while true; do echo; done | head -1` ends.
   */
  private async runPipe(commands: readonly Command[]): Promise<number> {
    const tasks: Task[] = [];
    let input = this.context.io.stdin;
    let readerOfPrevious: { gone: boolean } | undefined;
    for (const [index, command] of commands.entries()) {
      const pipe = index < commands.length - 1 ? new InputPipe() : undefined;
      const reader = { gone: false };
      const writer: { task?: Task } = {};
      const stdout = pipe
        ? {
            write: (data: Buffer | string) => {
              if (reader.gone) writer.task?.deliver(SIGPIPE);
              else pipe.push(Buffer.from(data));
            },
          }
        : this.context.io.stdout;
      const task = this.forkSubshell({ ...this.context.io, stdin: input, stdout }, (subshell) => subshell.runCommand(command, true));
      writer.task = task;
      void task.exited.then(() => pipe?.end());
      const previous = readerOfPrevious;
      if (previous) void task.exited.then(() => (previous.gone = true));
      readerOfPrevious = reader;
      tasks.push(task);
      if (pipe) input = pipe;
    }
    let status = 0;
    for (const task of tasks) status = (await this.context.task.waitFor(task.exited)).exitCode;
    this.status = status;
    await this.runPendingTraps();
    return status;
  }

  /** A forked copy of this shell running `body` with `io`; the task's status is the subshell's. */
  private forkSubshell(io: ProgramIo, body: (subshell: Shell) => Promise<unknown>, alsoIgnored: number[] = []): Task {
    const task = forkTask(this.context, [...this.context.task.argv], alsoIgnored);
    const subshell = new Shell({ ...this.context, task, io }, { ...this.settings, interactive: false }, {
      variables: this.variables.clone(),
      cwd: this.cwd,
      positional: [...this.positional],
      status: this.status,
      shellPid: this.shellPid,
      lastBackgroundPid: this.lastBackgroundPid,
    });
    subshell.line = this.line;
    subshell.lineBase = this.lineBase;
    task.run(() => subshell.main(async () => void (await body(subshell))), io.stderr);
    return task;
  }

  /** `while`, `until`, `for`, `if`: in this shell, with the command's redirections over its streams. */
  private async runCompound(command: CompoundCommand): Promise<number> {
    this.line = this.lineBase + command.line;
    const saved = this.context;
    try {
      await this.substitute(command.redirections.flatMap((redirection) => redirection.target.parts));
      const io = this.redirected(command.redirections, saved.io);
      this.context = { ...saved, io };
    } catch (error) {
      return this.commandFailed(error);
    }
    try {
      this.status = await this.compoundBody(command);
    } finally {
      this.context = saved;
    }
    return this.status;
  }

  private async compoundBody(command: CompoundCommand): Promise<number> {
    switch (command.kind) {
      case 'loop': {
        let status = 0;
        for (;;) {
          const condition = await this.runList(command.condition);
          if ((condition === 0) === command.until) return status;
          status = await this.runList(command.body);
          await yieldToEventLoop(); // an endless loop must not starve the daemon
        }
      }
      case 'for': {
        let values = [...this.positional];
        if (command.words !== undefined) {
          try {
            values = await this.expandFields(command.words);
          } catch (error) {
            return this.commandFailed(error);
          }
        }
        let status = 0;
        for (const value of values) {
          this.variables.set(command.name, value);
          status = await this.runList(command.body);
          await yieldToEventLoop();
        }
        return status;
      }
      case 'if':
        for (const branch of command.branches) if ((await this.runList(branch.condition)) === 0) return this.runList(branch.body);
        return command.otherwise ? this.runList(command.otherwise) : 0;
      case 'group':
        return this.runList(command.body);
    }
  }

  private async runList(items: CommandLine): Promise<number> {
    await this.runCommandLine(items, false);
    return this.status;
  }

    private async runSimple(command: SimpleCommand, execLast: boolean): Promise<number> {
    this.line = this.lineBase + command.line;
    await this.context.task.checkpoint();
    let status: number;
    try {
      status = await this.execute(command, execLast);
    } catch (error) {
      status = this.commandFailed(error);
    }
    this.status = status;
    this.context.task.throwIfEnded(); // `kill $$` without a trap
    await this.runPendingTraps();
    return this.status;
  }

  /** The status of a command that could not be expanded or redirected, its message written; some errors end the shell. */
  private commandFailed(error: unknown): number {
    if (error instanceof RedirectionError) {
      this.shellError(this.context.io, error.message);
      return 1;
    }
    if (error instanceof UnsupportedSyntaxError) {
      this.shellError(this.context.io, error.message);
      return 2;
    }
    if (error instanceof ParameterNotSetError) {
      this.context.io.stderr.write(`${this.prefix()}${error.message}\n`);
      if (!this.settings.interactive) throw new ShellExit(2);
      return 2;
    }
    throw error;
  }

  /**
   * Runs the command substitutions in `parts` (each in a forked subshell, its output collected) for
   * the expansion that follows; returns the status of the last one, undefined when there was none.
   */
  private async substitute(parts: readonly WordPart[]): Promise<number | undefined> {
    this.substituted = new Map();
    let status: number | undefined;
    for (const part of commandSubstitutions(parts)) {
      const chunks: Buffer[] = [];
      const io = { ...this.context.io, stdout: { write: (data: Buffer | string) => void chunks.push(Buffer.from(data)) } };
      const task = this.forkSubshell(io, (subshell) => subshell.runSource(part.source, true));
      status = (await this.context.task.waitFor(task.exited)).exitCode;
      this.substituted.set(part, Buffer.concat(chunks).toString('utf8').replace(/\n+$/, ''));
    }
    return status;
  }

  private async expandFields(words: readonly Word[]): Promise<string[]> {
    await this.substitute(words.flatMap((word) => word.parts));
    return expandWords(words, this);
  }

  private redirected(redirections: readonly Redirection[], io: ProgramIo): ProgramIo {
    return applyRedirections(redirections, io, (redirection) => expandToText(redirection.target.parts, this), this.context.fs, this.cwd);
  }

  private async execute(command: SimpleCommand, execLast: boolean): Promise<number> {
    const substitutedStatus = await this.substitute([
      ...command.assignments.flatMap(({ value }) => value),
      ...command.words.flatMap((word) => word.parts),
      ...command.redirections.flatMap((redirection) => redirection.target.parts),
    ]);
    const fields = expandWords(command.words, this);
    const assignments = command.assignments.map(({ name, value }) => [name, expandToText(value, this)] as const);
    const redirect = () => this.redirected(command.redirections, this.context.io);
    const name = fields[0];
    if (name === undefined) {
      for (const [variable, value] of assignments) this.variables.set(variable, value);
      redirect();
      // `X=$(cmd)` has the substitution's status
      return substitutedStatus ?? 0;
    }
    const builtin = BUILTINS.get(name);
    if (builtin) {
      const io = redirect();
      if (builtin.special) {
        for (const [variable, value] of assignments) this.variables.set(variable, value);
        return builtin.run(this, fields.slice(1), io);
      }
      return this.withTemporaryVariables(assignments, () => builtin.run(this, fields.slice(1), io));
    }
    const env = this.variables.environment(assignments);
    const io = redirect();
    const program = this.context.commands.resolve(fields, { cwd: this.cwd, env, fs: this.context.fs });
    if (program.kind !== 'program') {
      io.stderr.write(`${this.prefix()}${name}: ${program.kind === 'not-found' ? 'not found' : 'Permission denied'}\n`);
      return program.kind === 'not-found' ? 127 : 126;
    }
    const settings = { env, cwd: this.cwd, io };
    if (execLast && this.traps.size === 0 && !this.settings.interactive) return execProgram(this.context, program, settings);
    const child = spawnProgram(this.context, program, settings);
    // not interruptible: a trapped signal waits for the foreground command to finish
    const exit = await this.context.task.waitFor(child.exited);
    return exit.exitCode;
  }

  private async withTemporaryVariables(assignments: ReadonlyArray<readonly [string, string]>, run: () => Promise<number> | number): Promise<number> {
    const saved = assignments.map(([name]) => [name, this.variables.get(name)] as const);
    for (const [name, value] of assignments) this.variables.set(name, value);
    try {
      return await run();
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) this.variables.unset(name);
        else this.variables.set(name, value);
      }
    }
  }

  /** `LIST &`: a forked subshell runs it; its last command is exec'd, as ash's child does. */
  private startBackgroundJob(list: AndOrList): void {
    const interactive = this.settings.interactive;
    const io: ProgramIo = { ...this.context.io, stdin: interactive ? this.context.io.stdin : NULL_INPUT };
    const task = this.forkSubshell(io, (subshell) => subshell.runAndOr(list, true), interactive ? [] : [SIGINT, SIGQUIT]);
    this.jobs.set(task.pid, task);
    this.lastBackgroundPid = task.pid;
  }

  // ----- signals and traps

  private onSignal(signal: number): boolean {
    const action = this.traps.get(signal);
    if (action !== undefined && action !== '') {
      this.pendingSignals.push(signal);
      this.interruptWait?.(signal);
      return true;
    }
    // an interactive shell does not die of these (PID 1 or not)
    return this.settings.interactive && (signal === SIGTERM || signal === SIGINT || signal === SIGQUIT);
  }

  /** Runs the traps of the signals that came, each with `$?` put back afterwards. */
  private async runPendingTraps(): Promise<void> {
    if (this.runningTraps) return;
    this.runningTraps = true;
    try {
      for (let signal = this.pendingSignals.shift(); signal !== undefined; signal = this.pendingSignals.shift()) {
        const action = this.traps.get(signal);
        if (!action) continue;
        const saved = this.status;
        const savedLine = this.line;
        this.statusBeforeTrap = saved;
        try {
          await this.runSource(action, false);
        } finally {
          this.statusBeforeTrap = undefined;
          this.line = savedLine;
        }
        this.status = saved;
      }
    } finally {
      this.runningTraps = false;
    }
  }

  /** Waits for `promise` unless a trapped signal comes first. */
  private interruptible<T>(promise: Promise<T>): Promise<Interruptible<T>> {
    const pending = this.pendingSignals[0];
    if (pending !== undefined && !this.runningTraps) return Promise.resolve({ signal: pending });
    return new Promise<Interruptible<T>>((resolve, reject) => {
      this.interruptWait = (signal) => resolve({ signal });
      promise.then((value) => resolve({ value }), reject);
    }).finally(() => {
      this.interruptWait = undefined;
    });
  }

  /** The next chunk of input; traps that come while the shell waits for it run at once. */
  private async readInputIdle(): Promise<Buffer | null> {
    const pending = this.context.io.stdin.read();
    const result = this.context.task.waitFor(pending.result, pending.cancel);
    for (;;) {
      const outcome = await this.interruptible(result);
      if ('value' in outcome) return outcome.value;
      await this.runPendingTraps();
    }
  }

  // ----- messages

  private displayLine(): number {
    return this.settings.mode === 'command' ? this.line : this.line + 1;
  }

  /** `sh: ` or `sh: line 3: ` */
  private prefix(): string {
    return this.settings.numberedMessages ? `${this.settings.arg0}: line ${this.displayLine()}: ` : `${this.settings.arg0}: `;
  }

  /** ash's default prompts: `\w \$ ` (the directory with ~ for HOME, then # for root) and `> `. */
  private prompt(which: 'PS1' | 'PS2'): void {
    if (!this.settings.interactive) return;
    if (which === 'PS2') {
      this.context.io.stderr.write('> ');
      return;
    }
    const home = this.variables.get('HOME');
    const where = home && (this.cwd === home || this.cwd.startsWith(`${home}/`)) ? `~${this.cwd.slice(home.length)}` : this.cwd;
    this.context.io.stderr.write(`${where} ${this.context.user.uid === 0 ? '#' : '$'} `);
  }
}
