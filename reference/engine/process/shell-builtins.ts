/**
 * The commands ash runs inside itself: they change the shell (cd, exit, export, read, trap, wait…)
 * or are too small to fork for (echo, printf, true). Builtins ash has beyond the contract answer that they are
 * outside it instead of "not found".
 */
import { runPrintf } from './printf-format.ts';
import { echoOutput } from './text-commands.ts';
import { resolvePath } from './paths.ts';
import type { ProgramIo } from './program-io.ts';
import type { ProgramContext } from './program.ts';
import type { ShellVariables } from './shell-variables.ts';
import { signalName, signalNumber, SIGTERM, UnknownSignalError } from './signals.ts';

/** `exit`, or an error that ends a non-interactive shell; carries the exit code. */
export class ShellExit {
  constructor(readonly code: number) {}
}

/** A trap condition: a signal number, or the shell's own exit. */
export type TrapCondition = number | 'EXIT';

/** What builtins may see and change of the shell running them. */
export interface ShellForBuiltins {
  readonly context: ProgramContext;
  cwd: string;
  readonly variables: ShellVariables;
  positional: string[];
  /** the status `exit` without an operand exits with (in a trap: the status before the trap) */
  readonly statusForExit: number;
  setTrap(condition: TrapCondition, action: string | undefined): void;
  /** `[condition name, action]` in the order `trap` lists them */
  listTraps(): Array<[string, string]>;
  /** waits for the given background jobs, or all; interrupted by a trapped signal (128 + it) */
  waitForJobs(pids: number[] | undefined): Promise<number>;
  /** `sh: NAME: line N: MESSAGE` on the given stderr */
  builtinError(io: ProgramIo, builtin: string, message: string): void;
  /** `sh: MESSAGE` on the given stderr */
  shellError(io: ProgramIo, message: string): void;
}

export interface Builtin {
  /** POSIX special builtins: their assignments stay, their errors end a non-interactive shell */
  special: boolean;
  run(shell: ShellForBuiltins, args: string[], io: ProgramIo): Promise<number> | number;
}

const echo: Builtin = {
  special: false,
  run: (_shell, args, io) => {
    io.stdout.write(echoOutput(args));
    return 0;
  },
};

const pwd: Builtin = {
  special: false,
  run: (shell, _args, io) => {
    io.stdout.write(`${shell.cwd}\n`);
    return 0;
  },
};

const cd: Builtin = {
  special: false,
  run: (shell, args, io) => {
    let operand = args[0] ?? shell.variables.get('HOME');
    if (operand === undefined) return 0;
    const back = operand === '-';
    if (back) operand = shell.variables.get('OLDPWD') ?? shell.cwd;
    const path = resolvePath(shell.cwd, operand);
    const stat = shell.context.fs.stat(path);
    if (stat?.kind !== 'directory') {
      shell.builtinError(io, 'cd', `can't cd to ${operand}: ${stat === undefined ? 'No such file or directory' : 'Not a directory'}`);
      return 2;
    }
    shell.variables.set('OLDPWD', shell.cwd, { export: true });
    shell.cwd = path;
    shell.variables.set('PWD', path, { export: true });
    if (back) io.stdout.write(`${path}\n`);
    return 0;
  },
};

const exit: Builtin = {
  special: true,
  run: (shell, args, io) => {
    const operand = args[0];
    if (operand === undefined) throw new ShellExit(shell.statusForExit);
    if (!/^\d+$/.test(operand)) {
      shell.builtinError(io, 'exit', `Illegal number: ${operand}`);
      throw new ShellExit(2);
    }
    throw new ShellExit(Number(BigInt(operand) % 256n));
  },
};

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const exportBuiltin: Builtin = {
  special: true,
  run: (shell, args, io) => {
    const operands = args.filter((arg) => arg !== '-p');
    if (operands.length === 0) {
      const lines = shell.variables
        .exported()
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => (value === undefined ? `export ${name}\n` : `export ${name}=${singleQuoted(value)}\n`));
      io.stdout.write(lines.join(''));
      return 0;
    }
    let status = 0;
    for (const operand of operands) {
      const equals = operand.indexOf('=');
      const name = equals < 0 ? operand : operand.slice(0, equals);
      if (!NAME.test(name)) {
        shell.builtinError(io, 'export', `${name}: bad variable name`);
        status = 1;
      } else if (equals < 0) shell.variables.export(name);
      else shell.variables.set(name, operand.slice(equals + 1), { export: true });
    }
    return status;
  },
};

const unset: Builtin = {
  special: true,
  run: (shell, args) => {
    for (const name of args.filter((arg) => arg !== '-v')) shell.variables.unset(name);
    return 0;
  },
};

const set: Builtin = {
  special: true,
  run: (shell, args, io) => {
    if (args[0] === '--') {
      shell.positional = args.slice(1);
      return 0;
    }
    shell.shellError(io, `set ${args.join(' ')}: outside the fixture command contract (Shipshape reference)`.trimEnd());
    return 2;
  },
};

/** `trap ACTION CONDITION...`, `trap - CONDITION...`, `trap '' CONDITION...`, `trap` to list. */
const trap: Builtin = {
  special: true,
  run: (shell, args, io) => {
    if (args.length === 0) {
      io.stdout.write(shell.listTraps().map(([condition, action]) => `trap -- ${singleQuoted(action)} ${condition}\n`).join(''));
      return 0;
    }
    // a lone number, or numbers only, means "reset these" (POSIX)
    const resetOnly = /^\d+$/.test(args[0] as string);
    const action = resetOnly || args[0] === '-' ? undefined : (args[0] as string);
    const conditions = resetOnly ? args : args.slice(1);
    let status = 0;
    for (const spec of conditions) {
      const condition = trapCondition(spec);
      if (condition === undefined) {
        shell.builtinError(io, 'trap', `${spec}: invalid signal specification`);
        status = 1;
      } else shell.setTrap(condition, action);
    }
    return status;
  },
};

export function trapCondition(spec: string): TrapCondition | undefined {
  if (spec === '0' || spec.toUpperCase() === 'EXIT') return 'EXIT';
  try {
    return signalNumber(spec);
  } catch (error) {
    if (error instanceof UnknownSignalError) return undefined;
    throw error;
  }
}

export function trapConditionName(condition: TrapCondition): string {
  return condition === 'EXIT' ? 'EXIT' : signalName(condition).slice(3);
}

const wait: Builtin = {
  special: false,
  run: async (shell, args, io) => {
    const pids: number[] = [];
    for (const arg of args) {
      if (!/^\d+$/.test(arg)) {
        shell.builtinError(io, 'wait', `${arg}: outside the fixture command contract (Shipshape reference)`);
        return 2;
      }
      pids.push(Number(arg));
    }
    return shell.waitForJobs(pids.length > 0 ? pids : undefined);
  },
};

/** `kill [-SIGNAL | -s SIGNAL] PID...` within the container's pid namespace. */
const kill: Builtin = {
  special: false,
  run: (shell, args, io) => {
    let signal = SIGTERM;
    let operands = args;
    const first = args[0];
    if (first === '-l') {
      shell.shellError(io, 'kill -l: outside the fixture command contract (Shipshape reference)');
      return 2;
    }
    const spec = first === '-s' ? args[1] : first?.startsWith('-') && first.length > 1 ? first.slice(1) : undefined;
    if (spec !== undefined) {
      try {
        signal = signalNumber(spec);
      } catch (error) {
        if (!(error instanceof UnknownSignalError)) throw error;
        shell.shellError(io, `bad signal name '${spec}'`);
        return 1;
      }
      operands = args.slice(first === '-s' ? 2 : 1);
    }
    if (operands.length === 0) {
      shell.shellError(io, 'you need to specify whom to kill');
      return 1;
    }
    let status = 0;
    for (const operand of operands) {
      if (!/^\d+$/.test(operand)) {
        shell.shellError(io, `invalid number '${operand}'`);
        status = 1;
      } else if (!shell.context.namespace.signal(Number(operand), signal)) {
        shell.shellError(io, `can't kill pid ${operand}: No such process`);
        status = 1;
      }
    }
    return status;
  },
};

/**
 * `read [-r] [NAME...]`: one line of stdin into the names (REPLY without any), split on IFS, the
 * last name taking the rest; 1 at the end of input. What it read past the line goes back to the input
 * for the next reader, as ash's byte-at-a-time read leaves it. Without -r a backslash escapes the next
 * character and a backslash-newline continues the line.
 */
const read: Builtin = {
  special: false,
  run: async (shell, args, io) => {
    let raw = false;
    let index = 0;
    for (; args[index]?.startsWith('-') && args[index] !== '-'; index++) {
      if (args[index] === '--') {
        index++;
        break;
      }
      if (args[index] !== '-r') {
        shell.builtinError(io, 'read', `${args[index]}: outside the fixture command contract (Shipshape reference)`);
        return 2;
      }
      raw = true;
    }
    const names = args.slice(index);
    const { text, ended } = await readLine(shell, io, raw);
    assignFields(shell, names.length > 0 ? names : ['REPLY'], text);
    return ended ? 1 : 0;
  },
};

/** The next line, its escapes resolved (unless raw); `ended` when the input ended before a newline. */
async function readLine(shell: ShellForBuiltins, io: ProgramIo, raw: boolean): Promise<{ text: string; ended: boolean }> {
  const bytes: number[] = [];
  let escaped = false;
  for (;;) {
    const pending = io.stdin.read();
    const chunk = await shell.context.task.waitFor(pending.result, pending.cancel);
    if (chunk === null) return { text: escapedText(bytes), ended: true };
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at] as number;
      if (escaped) {
        escaped = false;
        if (byte !== 0x0a) bytes.push(byte | ESCAPED);
      } else if (byte === 0x5c && !raw) escaped = true;
      else if (byte === 0x0a) {
        io.stdin.unread?.(chunk.subarray(at + 1));
        return { text: escapedText(bytes), ended: false };
      } else bytes.push(byte);
    }
  }
}

/** Marks a byte that a backslash escaped: it is never a field separator. */
const ESCAPED = 0x100;
const ESCAPE_MARK = '\u0000';

function escapedText(bytes: number[]): string {
  return bytes.map((byte) => (byte & ESCAPED ? ESCAPE_MARK + String.fromCharCode(byte & 0xff) : String.fromCharCode(byte))).join('');
}

/** Splits `line` on IFS into the names as read does; escaped characters (marked) are kept literally. */
function assignFields(shell: ShellForBuiltins, names: string[], line: string): void {
  const ifs = shell.variables.get('IFS') ?? ' \t\n';
  const whitespace = (char: string) => ifs.includes(char) && ' \t\n'.includes(char);
  const separator = (char: string) => ifs.includes(char);
  const chars: Array<{ char: string; literal: boolean }> = [];
  for (let at = 0; at < line.length; at++) {
    if (line[at] === ESCAPE_MARK) chars.push({ char: line[++at] as string, literal: true });
    else chars.push({ char: line[at] as string, literal: false });
  }
  const text = (list: typeof chars) => Buffer.from(list.map(({ char }) => char.charCodeAt(0))).toString('utf8');
  let at = 0;
  const skipWhitespace = () => {
    while (at < chars.length && !chars[at]?.literal && whitespace(chars[at]?.char as string)) at++;
  };
  skipWhitespace();
  for (const [index, name] of names.entries()) {
    if (index === names.length - 1) {
      let end = chars.length;
      while (end > at && !chars[end - 1]?.literal && whitespace(chars[end - 1]?.char as string)) end--;
      shell.variables.set(name, text(chars.slice(at, end)));
      return;
    }
    const start = at;
    while (at < chars.length && (chars[at]?.literal || !separator(chars[at]?.char as string))) at++;
    shell.variables.set(name, text(chars.slice(start, at)));
    skipWhitespace();
    if (at < chars.length && !chars[at]?.literal && separator(chars[at]?.char as string)) {
      at++;
      skipWhitespace();
    }
  }
}

const noop: Builtin = { special: true, run: () => 0 };

function outsideContract(name: string): Builtin {
  return {
    special: false,
    run: (shell, _args, io) => {
      shell.shellError(io, `${name}: builtin outside the fixture command contract (Shipshape reference)`);
      return 2;
    },
  };
}

const UNSUPPORTED_BUILTINS = [
  '.', 'alias', 'bg', 'break', 'command', 'continue', 'eval', 'exec', 'fg', 'getopts', 'hash', 'jobs', 'let', 'local',
  'readonly', 'return', 'shift', 'source', 'test', '[', '[[', 'times', 'type', 'ulimit', 'umask', 'unalias',
];

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  [':', noop],
  ['true', { special: false, run: () => 0 }],
  ['false', { special: false, run: () => 1 }],
  ['echo', echo],
  ['pwd', pwd],
  ['cd', cd],
  ['exit', exit],
  ['export', exportBuiltin],
  ['unset', unset],
  ['set', set],
  ['trap', trap],
  ['wait', wait],
  ['kill', kill],
  ['read', read],
  ['printf', { special: false, run: (shell, args, io) => runPrintf(args, io, (message) => shell.shellError(io, message)) }],
  ...UNSUPPORTED_BUILTINS.map((name): [string, Builtin] => [name, outsideContract(name)]),
]);

/** `'…'` with embedded quotes as `'"'"'`, the way ash prints values back. */
function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'"'"'`)}'`;
}
