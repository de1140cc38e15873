/** `echo`, `true`, `false`, `seq`: the applets that only print. */
import { parseOptions, usageError, type AppletUsage } from './applet-support.ts';
import type { Applet } from './program.ts';
import { yieldToEventLoop } from './scheduler.ts';

/**
 * busybox echo: leading arguments made only of `n`, `e`, `E` flags are options (`-x` or `--` are
 * words); `-e` interprets backslash escapes, `\c` stops all output.
 */
export function echoOutput(args: readonly string[]): Buffer {
  let index = 0;
  let newline = true;
  let escapes = false;
  for (; index < args.length; index++) {
    const arg = args[index] as string;
    if (!/^-[neE]+$/.test(arg)) break;
    for (const flag of arg.slice(1)) {
      if (flag === 'n') newline = false;
      else escapes = flag === 'e';
    }
  }
  const chunks: Buffer[] = [];
  const words = args.slice(index);
  for (let word = 0; word < words.length; word++) {
    if (word > 0) chunks.push(Buffer.from(' '));
    if (!escapes) {
      chunks.push(Buffer.from(words[word] as string));
      continue;
    }
    const { bytes, stop } = interpretEscapes(words[word] as string);
    chunks.push(bytes);
    if (stop) return Buffer.concat(chunks);
  }
  if (newline) chunks.push(Buffer.from('\n'));
  return Buffer.concat(chunks);
}

const SIMPLE_ESCAPES: Record<string, number> = { '\\': 0x5c, a: 0x07, b: 0x08, e: 0x1b, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

export function interpretEscapes(text: string): { bytes: Buffer; stop: boolean } {
  const out: Buffer[] = [];
  let literal = '';
  const flush = () => {
    if (literal) out.push(Buffer.from(literal));
    literal = '';
  };
  const byte = (value: number) => {
    flush();
    out.push(Buffer.from([value & 0xff]));
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    const next = text[index + 1];
    if (char !== '\\' || next === undefined) {
      literal += char;
      continue;
    }
    index++;
    if (next === 'c') {
      flush();
      return { bytes: Buffer.concat(out), stop: true };
    }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      byte(simple);
    } else if (/[0-7]/.test(next)) {
      // \0NNN, and \NNN as busybox also takes it: up to three octal digits (after the 0 of \0)
      const start = next === '0' ? index + 1 : index;
      const digits = /^[0-7]{0,3}/.exec(text.slice(start))?.[0] ?? '';
      index = start + digits.length - 1;
      byte(parseInt(digits || '0', 8));
    } else if (next === 'x' && /[0-9a-fA-F]/.test(text[index + 1] ?? '')) {
      const digits = /^[0-9a-fA-F]{1,2}/.exec(text.slice(index + 1))?.[0] ?? '';
      index += digits.length;
      byte(parseInt(digits, 16));
    } else literal += `\\${next}`;
  }
  flush();
  return { bytes: Buffer.concat(out), stop: false };
}

export const echo: Applet = async (context) => {
  context.io.stdout.write(echoOutput(context.argv.slice(1)));
  return 0;
};

export const trueCommand: Applet = async () => 0;

export const falseCommand: Applet = async () => 1;

const SEQ_USAGE: AppletUsage = {
  synopsis: 'seq [-w] [-s SEP] [FIRST [INC]] LAST',
  summary: 'Print numbers from FIRST to LAST, in steps of INC.\nFIRST, INC default to 1.',
};
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** lines between two yields, so that `seq 100000000` does not hold the event loop */
const LINES_PER_CHUNK = 4096;

/** `seq [-w] [-s SEP] [FIRST [INC]] LAST` */
export const seq: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'ws', withValue: 's', stopAtOperand: true }, SEQ_USAGE);
  if (typeof options === 'number') return options;
  const operands = options.operands;
  // busybox answers a wrong number as it answers a wrong count: with its usage
  if (operands.length < 1 || operands.length > 3 || !operands.every((operand) => NUMBER.test(operand))) return usageError(context, SEQ_USAGE);
  const numbers = operands.map(Number);
  const [first, increment, last] =
    numbers.length === 1 ? [1, 1, numbers[0] as number] : numbers.length === 2 ? [numbers[0] as number, 1, numbers[1] as number] : (numbers as [number, number, number]);
  // as busybox: the precision of FIRST and INC, whatever LAST's
  const decimals = Math.max(0, ...operands.slice(0, -1).map((operand) => (operand.includes('.') ? operand.length - operand.indexOf('.') - 1 : 0)));
  const separator = options.values.get('s')?.at(-1) ?? '\n';
  const format = (value: number) => value.toFixed(decimals);
  const width = options.flags.has('w') ? Math.max(format(first).length, format(last).length) : 0;
  const pad = (text: string) => (text.startsWith('-') ? `-${text.slice(1).padStart(width - 1, '0')}` : text.padStart(width, '0'));
  if (increment === 0) return 0;
  let lines: string[] = [];
  let printed = 0;
  for (let step = 0; ; step++) {
    const value = first + step * increment;
    if (increment > 0 ? value > last + 1e-9 : value < last - 1e-9) break;
    lines.push(pad(format(value)));
    if (lines.length === LINES_PER_CHUNK) {
      context.io.stdout.write((printed > 0 ? separator : '') + lines.join(separator));
      printed += lines.length;
      lines = [];
      await yieldToEventLoop();
      await context.task.checkpoint();
    }
  }
  if (lines.length > 0) context.io.stdout.write((printed > 0 ? separator : '') + lines.join(separator));
  if (printed + lines.length > 0) context.io.stdout.write('\n');
  return 0;
};
