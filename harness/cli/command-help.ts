/**
 * What `--help` says about a command, from the same table of flags that parses its arguments: a flag
 * cannot be added without the help line that explains it (the types require one).
 */

interface FlagHelp {
  /** one line: what the flag does */
  help: string;
  /** the default in words where it is not a constant (DOCKER_HOST, a random seed, every check) */
  defaultText?: string;
  short?: string;
}

/** One flag: what node:util parseArgs needs, and what --help prints. */
export type FlagSpec =
  | (FlagHelp & { type: 'string'; default?: string; /** the value's name in usage: `--report-dir DIR` */ value: string })
  | (FlagHelp & { type: 'boolean'; default?: boolean });

export type FlagTable = Readonly<Record<string, FlagSpec>>;

export interface CommandSpec<F extends FlagTable = FlagTable> {
  name: string;
  /** the positional arguments as the usage line shows them (`A.json B.json`); absent: the command takes none */
  arguments?: string;
  /** lines printed under the usage line: the arguments, what the command prints and exits with */
  description?: readonly string[];
  flags: F;
  /** whole command lines, each one a user could paste */
  examples: readonly string[];
}

/** `--help` or `-h` among a command's arguments: main prints the command's help and exits 0. */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
  constructor(readonly command: CommandSpec) {
    super(`help for ${command.name}`);
  }
}

const WIDTH = 100;

function wrap(text: string, indent: number, first: string): string[] {
  const lines: string[] = [];
  let line = first.padEnd(indent);
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(indent);
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

function flagLabel(name: string, flag: FlagSpec): string {
  const short = flag.short ? `-${flag.short}, ` : '';
  return `${short}--${name}${flag.type === 'string' ? ` ${flag.value}` : ''}`;
}

function defaultOf(flag: FlagSpec): string {
  if (flag.defaultText !== undefined) return flag.defaultText;
  if (flag.default !== undefined) return String(flag.default);
  return 'none';
}

export function renderCommandHelp(command: CommandSpec, summary: string): string {
  const entries = Object.entries(command.flags).map(([name, flag]) => ({ label: flagLabel(name, flag), text: `${flag.help} (default: ${defaultOf(flag)})` }));
  entries.push({ label: '-h, --help', text: 'this help' });
  const column = Math.min(28, Math.max(...entries.map((entry) => entry.label.length)) + 4);
  return [
    `shipshape ${command.name}: ${summary}`,
    '',
    `usage: shipshape ${command.name}${command.arguments ? ` ${command.arguments}` : ''} [flags]`,
    ...(command.description ?? []).flatMap((line) => wrap(line, 2, '')),
    '',
    'flags:',
    ...entries.flatMap(({ label, text }) => (label.length + 4 > column ? [`  ${label}`, ...wrap(text, column, '')] : wrap(text, column, `  ${label}`))),
    '',
    'examples:',
    ...command.examples.map((example) => `  ${example}`),
    '',
  ].join('\n');
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name nearest to what was typed: one that begins with it first (`--report` → `report-dir`), else the fewest edits. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const prefixed = known.find((name) => typed.length >= 3 && name.startsWith(typed));
  if (prefixed) return prefixed;
  return [...known].sort((a, b) => editDistance(typed, a) - editDistance(typed, b))[0];
}
