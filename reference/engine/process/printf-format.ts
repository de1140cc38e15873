/**
 * busybox printf: the format's escapes and `%` conversions (`s b c d i u o x X f e E g G %` with
 * flags, width and precision, `*` taking them from the arguments), reused while arguments remain.
 * Shared by the `printf` applet and ash's builtin, which differ only in the name before messages.
 */
import type { ProgramIo } from './program-io.ts';
import type { Applet } from './program.ts';
import { interpretEscapes } from './text-commands.ts';

export interface PrintfResult {
  output: Buffer;
  /** 1 when an argument was not a number (it printed as 0), as busybox */
  status: number;
}

const CONVERSION = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([hlLqjzt]*)(.)?/y;

/** The output of `printf FORMAT ARGS...`; `complain` gets each message (without the name). */
export function printfOutput(format: string, args: readonly string[], complain: (message: string) => void): PrintfResult | 'invalid-format' {
  const chunks: Buffer[] = [];
  let status = 0;
  let next = 0;
  const take = () => args[next++];
  const number = (text: string | undefined): number => {
    if (text === undefined || text === '') return 0;
    if (/^['"]/.test(text)) return text.codePointAt(1) ?? 0;
    const trimmed = text.trim();
    const value = /^[+-]?0[xX][0-9a-fA-F]+$/.test(trimmed)
      ? Number.parseInt(trimmed, 16)
      : /^[+-]?0[0-7]+$/.test(trimmed)
        ? Number.parseInt(trimmed, 8)
        : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)
          ? Number(trimmed)
          : Number.NaN;
    if (Number.isNaN(value)) {
      complain(`invalid number '${text}'`);
      status = 1;
      return 0;
    }
    return value;
  };
  do {
    const consumedBefore = next;
    let literal = '';
    const flushLiteral = () => {
      if (!literal) return false;
      const { bytes, stop } = interpretEscapes(literal);
      chunks.push(bytes);
      literal = '';
      return stop;
    };
    for (let index = 0; index < format.length; ) {
      const char = format[index] as string;
      if (char !== '%') {
        literal += char;
        if (char === '\\' && index + 1 < format.length) literal += format[++index];
        index++;
        continue;
      }
      if (flushLiteral()) return { output: Buffer.concat(chunks), status };
      CONVERSION.lastIndex = index;
      const match = CONVERSION.exec(format) as RegExpExecArray;
      index = CONVERSION.lastIndex;
      const [, flags = '', widthText, precisionText, , conversion] = match;
      if (conversion === '%') {
        chunks.push(Buffer.from('%'));
        continue;
      }
      if (conversion === undefined || !'sbcdiuoxXfeEgG'.includes(conversion)) return 'invalid-format';
      const width = widthText === '*' ? number(take()) : widthText === undefined ? undefined : Number(widthText);
      const precision = precisionText === '*' ? number(take()) : precisionText === undefined ? undefined : Number(precisionText || '0');
      const argument = take();
      chunks.push(Buffer.from(pad(convert(conversion, flags, precision, argument, number), flags, width)));
      if (conversion === 'b' && argument !== undefined && interpretEscapes(argument).stop) return { output: Buffer.concat(chunks), status };
    }
    if (flushLiteral()) break;
    if (next === consumedBefore) break;
  } while (next < args.length);
  return { output: Buffer.concat(chunks), status };
}

function convert(conversion: string, flags: string, precision: number | undefined, argument: string | undefined, number: (text: string | undefined) => number): string {
  switch (conversion) {
    case 's':
      return precision === undefined ? (argument ?? '') : (argument ?? '').slice(0, precision);
    case 'b': {
      const text = interpretEscapes(argument ?? '').bytes.toString('latin1');
      return precision === undefined ? text : text.slice(0, precision);
    }
    case 'c':
      return (argument ?? '').slice(0, 1);
    case 'd':
    case 'i': {
      const value = Math.trunc(number(argument));
      const digits = String(Math.abs(value)).padStart(precision ?? 0, '0');
      return `${value < 0 ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : ''}${digits}`;
    }
    case 'u': {
      const value = BigInt(Math.trunc(number(argument)));
      return BigInt.asUintN(64, value).toString().padStart(precision ?? 0, '0');
    }
    case 'o':
    case 'x':
    case 'X': {
      const value = BigInt.asUintN(64, BigInt(Math.trunc(number(argument))));
      let digits = value.toString(conversion === 'o' ? 8 : 16).padStart(precision ?? 0, '0');
      if (conversion === 'X') digits = digits.toUpperCase();
      if (flags.includes('#') && value !== 0n) digits = conversion === 'o' ? `0${digits}` : `${conversion === 'x' ? '0x' : '0X'}${digits}`;
      return digits;
    }
    default: {
      const value = number(argument);
      const sign = value < 0 || Object.is(value, -0) ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
      return sign + floatText(Math.abs(value), conversion, precision ?? 6);
    }
  }
}

function floatText(value: number, conversion: string, precision: number): string {
  const lower = conversion.toLowerCase();
  let text: string;
  if (lower === 'f') text = fixed(value, precision);
  else if (lower === 'e') text = cExponent(value.toExponential(precision));
  else {
    // %g: %e or %f by the exponent, trailing zeros removed
    const significant = precision === 0 ? 1 : precision;
    const exponent = value === 0 ? 0 : Math.floor(Math.log10(value));
    text = exponent < -4 || exponent >= significant ? cExponent(value.toExponential(significant - 1)) : value.toFixed(Math.max(0, significant - 1 - exponent));
    text = text.replace(/\.?0+(?=e|$)/, (zeros) => (zeros.startsWith('.') || text.includes('.') ? '' : zeros));
  }
  return conversion === conversion.toUpperCase() ? text.toUpperCase() : text;
}

/**
 * `value.toFixed(precision)` with glibc's rounding: an exact tie (2.25 to one decimal) goes to the
 * even digit, where JavaScript rounds it up. Other values round alike: both use the exact binary value.
 */
function fixed(value: number, precision: number): string {
  const exact = value.toFixed(Math.min(100, precision + 60));
  const point = exact.indexOf('.');
  const cut = point + precision + (precision > 0 ? 1 : 0);
  const rest = exact.slice(point + 1 + precision);
  if (!/^50*$/.test(rest)) return value.toFixed(precision);
  const kept = precision > 0 ? exact.slice(0, cut) : exact.slice(0, point);
  const lastDigit = Number(kept.replace('.', '').slice(-1));
  return lastDigit % 2 === 0 ? kept : value.toFixed(precision);
}

/** `1e+3` as C writes it: `1e+03`. */
function cExponent(text: string): string {
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function pad(text: string, flags: string, width: number | undefined): string {
  if (width === undefined || text.length >= Math.abs(width)) return text;
  if (flags.includes('-') || width < 0) return text.padEnd(Math.abs(width));
  if (flags.includes('0') && /^[+\- ]?[0-9]/.test(text)) {
    const sign = /^[+\- ]/.test(text) ? (text[0] as string) : '';
    return sign + text.slice(sign.length).padStart(width - sign.length, '0');
  }
  return text.padStart(width);
}

/** `printf FORMAT [ARGUMENT]...` writing to `io`; `complain` writes a message with the name before it (`sh: ` for ash's builtin). */
export function runPrintf(args: readonly string[], io: ProgramIo, complain: (message: string) => void): number {
  const [format, ...rest] = args;
  if (format === undefined) {
    complain('usage: printf FORMAT [ARGUMENT...]');
    return 2;
  }
  const result = printfOutput(format, rest, complain);
  if (result === 'invalid-format') {
    complain(`${format.slice(format.lastIndexOf('%'))}: invalid format`);
    return 1;
  }
  io.stdout.write(result.output);
  return result.status;
}

export const printf: Applet = async (context) => runPrintf(context.argv.slice(1), context.io, (message) => context.io.stderr.write(`printf: ${message}\n`));
