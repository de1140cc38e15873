/**
 * The filters clients' test scripts put in pipelines — `head`, `tail`, `wc`, `grep`, `cut`, `sort` —
 * with busybox 1.35's output formats, messages and exit codes for the options they use. Each reads
 * its files (or stdin, for none or `-`) to the end, then prints: enough for the pipelines of a test.
 */
import { complain, errnoText, parseOptions, usageError, type AppletUsage } from './applet-support.ts';
import { resolvePath } from './paths.ts';
import type { Applet, ProgramContext } from './program.ts';

/** Everything on stdin, until its end. */
export async function readStdin(context: ProgramContext): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (;;) {
    const pending = context.io.stdin.read();
    const chunk = await context.task.waitFor(pending.result, pending.cancel);
    if (chunk === null) return Buffer.concat(chunks);
    chunks.push(chunk);
  }
}

interface Input {
  /** as given; `-` for stdin */
  name: string;
  data: Buffer;
}

/** The inputs named (stdin for none); a missing one is reported as `APPLET: NAME: strerror` and skipped. */
async function readInputs(context: ProgramContext, applet: string, operands: readonly string[], quiet = false, cantOpen = false): Promise<{ inputs: Input[]; failed: boolean }> {
  const inputs: Input[] = [];
  let failed = false;
  for (const name of operands.length > 0 ? operands : ['-']) {
    if (name === '-') {
      inputs.push({ name, data: await readStdin(context) });
      continue;
    }
    const path = resolvePath(context.cwd, name);
    const stat = context.fs.stat(path);
    try {
      if (stat === undefined) throw Object.assign(new Error(), { text: 'No such file or directory' });
      if (stat.kind === 'directory') throw Object.assign(new Error(), { text: 'Is a directory' });
      inputs.push({ name, data: context.fs.readFile(path) });
    } catch (error) {
      failed = true;
      const text = (error as { text?: string }).text ?? errnoText(error);
      if (!quiet) complain(context, cantOpen ? `${applet}: can't open '${name}': ${text}` : `${applet}: ${name}: ${text}`);
    }
  }
  return { inputs, failed };
}

/** Lines without their newline; a last line without one counts too. */
function linesOf(data: Buffer): string[] {
  const text = data.toString('utf8');
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** busybox's count: `N`, `-N` (head: all but the last N), `+N` (tail: from line N). */
function countArgument(text: string): { count: number; sign: '' | '-' | '+' } | undefined {
  const match = /^([+-]?)(\d+)$/.exec(text);
  if (!match) return undefined;
  return { count: Number(match[2]), sign: match[1] as '' | '-' | '+' };
}

/** `-3` as head and tail take it: the old form of `-n 3`. */
function oldStyleCount(args: readonly string[]): string[] {
  const first = args[0];
  return first !== undefined && /^-\d+$/.test(first) ? ['-n', first.slice(1), ...args.slice(1)] : [...args];
}

const HEAD_USAGE: AppletUsage = { synopsis: 'head [OPTIONS] [FILE]...', summary: 'Print first 10 lines of FILEs (or stdin) to stdout.' };
const TAIL_USAGE: AppletUsage = { synopsis: 'tail [OPTIONS] [FILE]...', summary: 'Print last 10 lines of FILEs (or stdin) to stdout.' };

/** `head [-n [-]N] [-c [-]N] [-qv] [FILE]...` and `tail [-n [+]N] [-c [+]N] [-qv] [FILE]...` */
function headOrTail(which: 'head' | 'tail'): Applet {
  const usage = which === 'head' ? HEAD_USAGE : TAIL_USAGE;
  return async (context) => {
    const options = parseOptions(context, oldStyleCount(context.argv.slice(1)), which === 'tail' ? { supported: 'ncqvf', unsupported: 'Fs', withValue: 'nc' } : { supported: 'ncqv', withValue: 'nc' }, usage);
    if (typeof options === 'number') return options;
    const bytes = options.values.has('c');
    const given = (bytes ? options.values.get('c') : options.values.get('n'))?.at(-1) ?? '10';
    const count = countArgument(given);
    if (count === undefined) {
      complain(context, `${which}: invalid number '${given}'`);
      return 1;
    }
    // `head -n N` of stdin alone stops reading after N lines, so that an endless writer gets SIGPIPE
    if (which === 'head' && !bytes && count.sign === '' && options.operands.length === 0 && !options.flags.has('v')) {
      await headOfStdin(context, count.count);
      return 0;
    }
    const { inputs, failed } = await readInputs(context, which, options.operands, false, which === 'tail');
    if (which === 'tail' && inputs.length === 0) {
      complain(context, 'tail: no files');
      return 1;
    }
    const headers = options.flags.has('v') || (inputs.length + (failed ? 1 : 0) > 1 && !options.flags.has('q'));
    let out = '';
    for (const [index, input] of inputs.entries()) {
      if (headers) out += `${index > 0 ? '\n' : ''}==> ${input.name === '-' ? 'standard input' : input.name} <==\n`;
      out += bytes ? pickBytes(input.data, count, which).toString('latin1') : pickLines(input.data, count, which);
    }
    context.io.stdout.write(Buffer.from(out, bytes ? 'latin1' : 'utf8'));
    if (options.flags.has('f')) return followFiles(context, inputs.filter((input) => input.name !== '-'));
    return failed ? 1 : 0;
  };
}

/** How often `tail -f` looks at its files again (busybox sleeps a second between looks). */
const FOLLOW_INTERVAL_MS = 1000;

/** `tail -f`: passes on what is written to the files after their end, until killed. */
async function followFiles(context: ProgramContext, inputs: readonly Input[]): Promise<number> {
  const seen = new Map(inputs.map((input) => [input.name, input.data.length]));
  for (;;) {
    await context.task.sleep(FOLLOW_INTERVAL_MS);
    for (const [name, length] of seen) {
      let data: Buffer;
      try {
        data = context.fs.readFile(resolvePath(context.cwd, name));
      } catch {
        continue;
      }
      // a file cut shorter is read again from its start, as busybox does after a truncation
      const from = data.length < length ? 0 : length;
      if (data.length > from) context.io.stdout.write(data.subarray(from));
      seen.set(name, data.length);
    }
  }
}

/** Passes on stdin's first `count` lines as they come, and stops reading there. */
async function headOfStdin(context: ProgramContext, count: number): Promise<void> {
  let left = count;
  while (left > 0) {
    const pending = context.io.stdin.read();
    const chunk = await context.task.waitFor(pending.result, pending.cancel);
    if (chunk === null) return;
    let end = 0;
    while (left > 0 && end < chunk.length) {
      const newline = chunk.indexOf(0x0a, end);
      end = newline < 0 ? chunk.length : newline + 1;
      if (newline >= 0) left--;
    }
    context.io.stdout.write(chunk.subarray(0, end));
  }
}

function pickLines(data: Buffer, { count, sign }: { count: number; sign: string }, which: 'head' | 'tail'): string {
  const text = data.toString('utf8');
  const pieces = text.split(/(?<=\n)/).filter((piece) => piece !== '');
  let kept: string[];
  if (which === 'head') kept = sign === '-' ? pieces.slice(0, Math.max(0, pieces.length - count)) : pieces.slice(0, count);
  else kept = sign === '+' ? pieces.slice(Math.max(0, count - 1)) : count === 0 ? [] : pieces.slice(-count);
  return kept.join('');
}

function pickBytes(data: Buffer, { count, sign }: { count: number; sign: string }, which: 'head' | 'tail'): Buffer {
  if (which === 'head') return sign === '-' ? data.subarray(0, Math.max(0, data.length - count)) : data.subarray(0, count);
  return sign === '+' ? data.subarray(Math.max(0, count - 1)) : count === 0 ? Buffer.alloc(0) : data.subarray(-count);
}

export const head = headOrTail('head');
export const tail = headOrTail('tail');

const WC_USAGE: AppletUsage = { synopsis: 'wc [-cmlwL] [FILE]...', summary: 'Count lines, words, and bytes for FILEs (or stdin)' };

/**
 * `wc [-lwcmL] [FILE]...`: lines, words, bytes by default. One count of one input prints bare;
 * otherwise each count takes 9 columns, and several inputs end with a `total` line.
 */
export const wc: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'lwcmL' }, WC_USAGE);
  if (typeof options === 'number') return options;
  const chosen = ['l', 'w', 'c', 'm', 'L'].filter((letter) => options.flags.has(letter));
  const columns = chosen.length > 0 ? chosen : ['l', 'w', 'c'];
  const { inputs, failed } = await readInputs(context, 'wc', options.operands);
  const totals = new Map<string, number>();
  const bare = columns.length === 1 && options.operands.length <= 1;
  const line = (counts: Map<string, number>, name: string) => {
    const numbers = columns.map((column) => String(counts.get(column) ?? 0));
    const text = bare ? numbers.join(' ') : numbers.map((number) => number.padStart(9)).join(' ');
    return `${text}${name === '-' ? '' : ` ${name}`}\n`;
  };
  let out = '';
  for (const input of inputs) {
    const text = input.data.toString('utf8');
    const counts = new Map<string, number>([
      ['l', input.data.filter((byte) => byte === 0x0a).length],
      ['w', text.split(/[ \t\n\r\v\f]+/).filter(Boolean).length],
      ['c', input.data.length],
      ['m', [...text].length],
      ['L', Math.max(0, ...text.split('\n').map((piece) => [...piece].length))],
    ]);
    for (const [column, value] of counts) totals.set(column, column === 'L' ? Math.max(totals.get(column) ?? 0, value) : (totals.get(column) ?? 0) + value);
    out += line(counts, input.name);
  }
  if (options.operands.length > 1) out += line(totals, 'total');
  context.io.stdout.write(out);
  return failed ? 1 : 0;
};

const GREP_USAGE: AppletUsage = { synopsis: 'grep [-HhnlLoqvsrRiwFExz] [-m N] [-A|B|C N] { PATTERN | -e PATTERN... | -f FILE... } [FILE]...', summary: 'Search for PATTERN in FILEs (or stdin)' };

/**
 * `grep [-ivcnlqsHhowxEF] [-e PATTERN]... PATTERN [FILE]...`: basic regular expressions, or
 * extended ones with -E, or fixed strings with -F. Status 0 on a match, 1 on none, 2 on an error.
 */
export const grep: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'ivcnlqsHhowxEFe', unsupported: 'LrRzfmABC', withValue: 'e' }, GREP_USAGE);
  if (typeof options === 'number') return options === 1 ? 2 : options;
  const flags = options.flags;
  const patterns = options.values.get('e') ?? [];
  const operands = [...options.operands];
  if (patterns.length === 0) {
    const pattern = operands.shift();
    if (pattern === undefined) return usageError(context, GREP_USAGE) + 1;
    patterns.push(pattern);
  }
  let matcher: RegExp;
  try {
    const sources = patterns.flatMap((pattern) => pattern.split('\n')).map((pattern) => (flags.has('F') ? escapeRegExp(pattern) : posixToJs(pattern, flags.has('E'))));
    const alternatives = sources.map((source) => (flags.has('x') ? `^(?:${source})$` : flags.has('w') ? `(?<![\\w])(?:${source})(?![\\w])` : `(?:${source})`));
    matcher = new RegExp(alternatives.join('|'), flags.has('i') ? 'gi' : 'g');
  } catch {
    complain(context, `grep: bad regex '${patterns[0]}'`);
    return 2;
  }
  const { inputs, failed } = await readInputs(context, 'grep', operands, flags.has('s'));
  const prefixNames = flags.has('H') || (operands.length > 1 && !flags.has('h'));
  let matched = false;
  let out = '';
  for (const input of inputs) {
    const name = input.name === '-' ? '(standard input)' : input.name;
    let count = 0;
    for (const [index, line] of linesOf(input.data).entries()) {
      const hits = [...line.matchAll(matcher)];
      if (hits.length > 0 === flags.has('v')) continue;
      count++;
      matched = true;
      if (flags.has('q')) return 0;
      if (flags.has('l') || flags.has('c')) continue;
      const prefix = `${prefixNames ? `${name}:` : ''}${flags.has('n') ? `${index + 1}:` : ''}`;
      if (flags.has('o') && !flags.has('v')) for (const piece of hits) out += piece[0] ? `${prefix}${piece[0]}\n` : '';
      else out += `${prefix}${line}\n`;
    }
    if (flags.has('c')) out += `${prefixNames ? `${name}:` : ''}${count}\n`;
    else if (flags.has('l') && count > 0) out += `${name}\n`;
  }
  context.io.stdout.write(out);
  if (failed && !(flags.has('q') && matched)) return 2;
  return matched ? 0 : 1;
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

const CHARACTER_CLASSES: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f\\x7f',
};

/**
 * A POSIX regular expression as a JavaScript one: in a basic one `\(`, `\)`, `\{`, `\}`, `\|`, `\+`
 * and `\?` are the operators and the bare characters literal (GNU's extensions, which busybox has
 * through glibc); in an extended one they are operators bare. Bracket expressions take `[:class:]`.
 */
function posixToJs(pattern: string, extended: boolean): string {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '[') {
      const { source, end } = bracket(pattern, index);
      out += source;
      index = end;
    } else if (char === '\\') {
      const next = pattern[++index];
      if (next === undefined) throw new Error('trailing backslash');
      if (!extended && '(){}|+?'.includes(next)) out += next;
      else if (/[1-9]/.test(next)) out += `\\${next}`;
      else if ('wWsSbB<>'.includes(next)) out += next === '<' || next === '>' ? '\\b' : `\\${next}`;
      else out += escapeRegExp(next);
    } else if ('(){}|+?'.includes(char)) {
      out += extended ? char : `\\${char}`;
    } else if (char === '*' && (out === '' || out.endsWith('(') || out === '^')) {
      out += '\\*'; // a leading * is literal
    } else if (char === '/') out += '\\/';
    else out += char;
  }
  return out;
}

function bracket(pattern: string, open: number): { source: string; end: number } {
  let index = open + 1;
  let source = '[';
  if (pattern[index] === '^') {
    source += '^';
    index++;
  }
  if (pattern[index] === ']') {
    source += '\\]';
    index++;
  }
  for (; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === ']') return { source: `${source}]`, end: index };
    const classMatch = /^\[:([a-z]+):\]/.exec(pattern.slice(index));
    if (classMatch) {
      const name = classMatch[1] as string;
      const members = CHARACTER_CLASSES[name];
      if (members === undefined) throw new Error(`unknown class ${name}`);
      source += members;
      index += classMatch[0].length - 1;
    } else if (char === '\\' || char === '[') source += `\\${char}`;
    else source += char;
  }
  throw new Error('unterminated bracket expression');
}

const CUT_USAGE: AppletUsage = { synopsis: 'cut [OPTIONS] [FILE]...', summary: 'Print selected fields from FILEs to stdout' };

/** `cut -f LIST [-d DELIM] [-s] | -c LIST | -b LIST [FILE]...`; LIST is `N`, `N-M`, `N-`, `-M`, comma-separated. */
export const cut: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'fcbds', unsupported: 'nFDO', withValue: 'fcbd' }, CUT_USAGE);
  if (typeof options === 'number') return options;
  const mode = (['f', 'c', 'b'] as const).filter((letter) => options.values.has(letter));
  if (mode.length !== 1) {
    complain(context, 'cut: expected a list of bytes, characters, or fields');
    return 1;
  }
  const which = mode[0] as 'f' | 'c' | 'b';
  const ranges = parseRanges(options.values.get(which)?.at(-1) ?? '');
  if (ranges === undefined) {
    complain(context, 'cut: invalid byte, character or field list');
    return 1;
  }
  const delimiter = options.values.get('d')?.at(-1) ?? '\t';
  if (which === 'f' && [...delimiter].length !== 1) {
    complain(context, 'cut: the delimiter must be a single character');
    return 1;
  }
  const selected = (position: number) => ranges.some(([from, to]) => position >= from && position <= to);
  const { inputs, failed } = await readInputs(context, 'cut', options.operands);
  let out = '';
  for (const input of inputs) {
    for (const line of linesOf(input.data)) {
      if (which === 'f') {
        if (!line.includes(delimiter)) {
          if (!options.flags.has('s')) out += `${line}\n`;
          continue;
        }
        out += `${selectedFields(line.split(delimiter), ranges, delimiter)}\n`;
      } else {
        const units = which === 'c' ? [...line] : [...Buffer.from(line)].map((byte) => String.fromCharCode(byte));
        const kept = units.filter((_unit, index) => selected(index + 1)).join('');
        out += `${which === 'b' ? Buffer.from(kept, 'latin1').toString('utf8') : kept}\n`;
      }
    }
  }
  context.io.stdout.write(out);
  return failed ? 1 : 0;
};

/**
 * The fields of the ranges, in order, as busybox joins them: each range after something printed
 * starts with the delimiter, even when none of its fields exist (`d:e` with `-f1,4` gives `d:`).
 */
function selectedFields(fields: readonly string[], ranges: ReadonlyArray<[number, number]>, delimiter: string): string {
  let out = '';
  let printed = false;
  for (const [from, to] of [...ranges].sort(([a], [b]) => a - b)) {
    if (printed) out += delimiter;
    for (let position = from; position <= Math.min(to, fields.length); position++) {
      if (position > from) out += delimiter;
      out += fields[position - 1] as string;
      printed = true;
    }
  }
  return out;
}

function parseRanges(list: string): Array<[number, number]> | undefined {
  const ranges: Array<[number, number]> = [];
  for (const piece of list.split(',')) {
    const match = /^(\d*)(-?)(\d*)$/.exec(piece);
    if (!match || piece === '' || piece === '-') return undefined;
    const from = match[1] ? Number(match[1]) : 1;
    const to = match[2] ? (match[3] ? Number(match[3]) : Infinity) : from;
    if (from < 1 || to < from) return undefined;
    ranges.push([from, to]);
  }
  return ranges;
}

const SORT_USAGE: AppletUsage = { synopsis: 'sort [-nrugMcszbdfiokt] [-o FILE] [-k START[.OFS][OPTS][,END[.OFS][OPTS]] [-t CHAR] [FILE]...', summary: 'Sort lines of text' };

/**
 * `sort [-nrufb] [-t SEP] [-k N[,M]] [FILE]...`: bytewise (the C locale) or numerically by the
 * leading number; lines equal by the key fall back to a bytewise comparison of the whole line, as
 * busybox does without -s; -u keeps the first of lines equal by the key.
 */
export const sort: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'nrufbtk', unsupported: 'gMcszdio', withValue: 'tk' }, SORT_USAGE);
  if (typeof options === 'number') return options;
  const { inputs, failed } = await readInputs(context, 'sort', options.operands);
  if (failed) return 2;
  const flags = options.flags;
  const separator = options.values.get('t')?.at(-1);
  const keySpec = options.values.get('k')?.at(-1);
  const keyFields = keySpec === undefined ? undefined : /^(\d+)(?:,(\d+))?$/.exec(keySpec);
  if (keySpec !== undefined && !keyFields) {
    complain(context, `sort: key '${keySpec}' is outside the fixture command contract (Shipshape reference)`);
    return 1;
  }
  const keyOf = (line: string): string => {
    let key = line;
    if (keyFields) {
      const from = Number(keyFields[1]) - 1;
      const to = keyFields[2] === undefined ? Infinity : Number(keyFields[2]);
      if (separator !== undefined) key = line.split(separator).slice(from, to).join(separator);
      else {
        // without -t a field is its leading blanks and the text up to the next blank
        const fields = line.match(/[ \t]*[^ \t]+/g) ?? [];
        key = fields.slice(from, to).join('');
      }
    }
    if (flags.has('b')) key = key.replace(/^[ \t]+/, '');
    return flags.has('f') ? key.toUpperCase() : key;
  };
  const compareKeys = (a: string, b: string): number => {
    if (flags.has('n')) {
      const difference = leadingNumber(a) - leadingNumber(b);
      if (difference !== 0) return Math.sign(difference);
      return 0;
    }
    return Buffer.compare(Buffer.from(a), Buffer.from(b));
  };
  const lines = inputs.flatMap((input) => linesOf(input.data));
  const compare = (a: string, b: string) => {
    const byKey = compareKeys(keyOf(a), keyOf(b));
    const order = byKey !== 0 || flags.has('u') ? byKey : Buffer.compare(Buffer.from(a), Buffer.from(b));
    return flags.has('r') ? -order : order;
  };
  const sorted = lines.sort(compare);
  const kept = flags.has('u') ? sorted.filter((line, index) => index === 0 || compare(sorted[index - 1] as string, line) !== 0) : sorted;
  context.io.stdout.write(kept.map((line) => `${line}\n`).join(''));
  return 0;
};

/** The number a line starts with (after blanks), as strtod reads it; 0 when there is none. */
function leadingNumber(text: string): number {
  const match = /^[ \t]*(-?(\d+\.?\d*|\.\d+))/.exec(text);
  return match ? Number(match[1]) : 0;
}
