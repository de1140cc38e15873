/**
 * The shell: runs command lines the way busybox ash does, as far as the fixture command contract
 * goes. The details that checks can see:
 * - `sh -c` runs its last command in place of itself (exec, no fork) when no trap is set, so
 *   `sh -c 'sleep 300'` is `sleep 300` in the process table and takes signals as `sleep` would;
 * - a trapped signal runs its trap after the foreground command completes (`trap … TERM; sleep 300`
 *   waits for the sleep), but interrupts `wait`, which then returns 128 + the signal;
 * - background jobs read /dev/null and ignore SIGINT and SIGQUIT (non-interactive shell);
 * - error messages and statuses: `sh: X: not found` 127, syntax errors 2, `exit 300` is 44.
 */
import { StringDecoder } from 'node:string_decoder';
import { forkTask, execProgram, spawnProgram } from './program-launch.ts';
import { NULL_INPUT, type ProgramIo } from './program-io.ts';
import type { ProgramContext } from './program.ts';
import { BUILTINS, ShellExit, trapConditionName, type ShellForBuiltins, type TrapCondition } from './shell-builtins.ts';
import { expandToText, expandWords, ParameterNotSetError, type ExpansionScope } from './shell-expansion.ts';
import { matchPathnames } from './shell-glob.ts';
import { ShellParser } from './shell-parser.ts';
import { applyRedirections, RedirectionError } from './shell-redirections.ts';
import { ShellSyntaxError, UnsupportedSyntaxError, type AndOrList, type CommandLine, type Pipeline, type SimpleCommand } from './shell-syntax.ts';
import { ShellVariables } from './shell-variables.ts';
import { SIGINT, SIGQUIT, SIGTERM } from './signals.ts';
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

  private constructor(
    readonly context: ProgramContext,
    private readonly settings: ShellSettings,
    state: ShellState,
  ) {
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
    if (!pipeline.negated) return this.runSimple(pipeline.command, execLast);
    const status = await this.runSimple(pipeline.command, false);
    this.status = status === 0 ? 1 : 0;
    return this.status;
  }

  private async runSimple(command: SimpleCommand, execLast: boolean): Promise<number> {
    this.line = this.lineBase + command.line;
    await this.context.task.checkpoint();
    let status: number;
    try {
      status = await this.execute(command, execLast);
    } catch (error) {
      if (error instanceof RedirectionError) {
        this.shellError(this.context.io, error.message);
        status = 1;
      } else if (error instanceof UnsupportedSyntaxError) {
        this.shellError(this.context.io, error.message);
        status = 2;
      } else if (error instanceof ParameterNotSetError) {
        this.context.io.stderr.write(`${this.prefix()}${error.message}\n`);
        if (!this.settings.interactive) throw new ShellExit(2);
        status = 2;
      } else throw error;
    }
    this.status = status;
    this.context.task.throwIfEnded(); // `kill $$` without a trap
    await this.runPendingTraps();
    return this.status;
  }

  private async execute(command: SimpleCommand, execLast: boolean): Promise<number> {
    const fields = expandWords(command.words, this);
    const assignments = command.assignments.map(({ name, value }) => [name, expandToText(value, this)] as const);
    const redirect = () =>
      applyRedirections(command.redirections, this.context.io, (redirection) => expandToText(redirection.target.parts, this), this.context.fs, this.cwd);
    const name = fields[0];
    if (name === undefined) {
      for (const [variable, value] of assignments) this.variables.set(variable, value);
      redirect();
      return 0;
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
    const task = forkTask(this.context, [...this.context.task.argv], interactive ? [] : [SIGINT, SIGQUIT]);
    const io: ProgramIo = { ...this.context.io, stdin: interactive ? this.context.io.stdin : NULL_INPUT };
    const subshell = new Shell({ ...this.context, task, io }, { ...this.settings, interactive: false }, {
      variables: this.variables.clone(),
      cwd: this.cwd,
      positional: [...this.positional],
      status: this.status,
      shellPid: this.shellPid,
      lastBackgroundPid: this.lastBackgroundPid,
    });
    subshell.line = this.line;
    task.run(() => subshell.main(async () => void (await subshell.runAndOr(list, true))), io.stderr);
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
