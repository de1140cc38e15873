/**
 * What the applets share: busybox-style option parsing and messages, and the error texts of the
 * filesystem's error codes. Options busybox has but the fixture command contract leaves out are
 * refused with a message saying so, rather than silently ignored.
 */
import { FilesystemError } from '../filesystem/container-filesystem.ts';
import type { ProgramContext } from './program.ts';

const ERRNO_TEXT: Record<FilesystemError['code'], string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  ENOTEMPTY: 'Directory not empty',
  EROFS: 'Read-only file system',
};

/** strerror of a filesystem error; anything else is a bug and is rethrown. */
export function errnoText(error: unknown): string {
  if (error instanceof FilesystemError) return ERRNO_TEXT[error.code];
  throw error;
}

export function say(context: ProgramContext, text: string): void {
  context.io.stdout.write(text);
}

export function complain(context: ProgramContext, text: string): void {
  context.io.stderr.write(`${text}\n`);
}

/** The name an applet was called by, without its directory: what busybox puts before its messages. */
export function appletName(context: ProgramContext): string {
  const invoked = context.argv[0] ?? '';
  return invoked.slice(invoked.lastIndexOf('/') + 1);
}

export interface AppletUsage {
  /** the usage line after `Usage: ` */
  synopsis: string;
  summary: string;
}

/** busybox's answer to bad usage: its banner and the applet's usage, on stderr; exit code 1. */
export function usageError(context: ProgramContext, usage: AppletUsage): number {
  context.io.stderr.write(`BusyBox v1.35.0 (Shipshape reference) multi-call binary.\n\nUsage: ${usage.synopsis}\n\n${usage.summary}\n`);
  return 1;
}

export interface OptionSpec {
  /** single-letter flags the reference implements */
  supported: string;
  /** letters busybox also accepts, left out of the contract */
  unsupported?: string;
  /** letters that take a value (`-s SEP`), among the supported ones */
  withValue?: string;
  /** stop at the first operand (`echo`-like programs, and programs that run a command) */
  stopAtOperand?: boolean;
}

export interface ParsedOptions {
  flags: Set<string>;
  /** every value given, in order (`env -u A -u B`) */
  values: Map<string, string[]>;
  operands: string[];
}

/**
 * getopt as busybox (glibc) runs it: clustered flags (`-rf`), options after operands too unless
 * `stopAtOperand`, `--` ends the options, `-` alone is an operand. Writes the message and returns
 * the exit code when the options are wrong.
 */
export function parseOptions(context: ProgramContext, args: readonly string[], spec: OptionSpec, usage: AppletUsage): ParsedOptions | number {
  const parsed: ParsedOptions = { flags: new Set(), values: new Map(), operands: [] };
  const name = appletName(context);
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') {
      parsed.operands.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-' || arg.startsWith('--')) {
      if (arg.startsWith('--') && arg !== '--') {
        complain(context, `${name}: option ${arg} is outside the fixture command contract (Shipshape reference)`);
        return 1;
      }
      if (spec.stopAtOperand) {
        parsed.operands.push(...args.slice(index));
        break;
      }
      parsed.operands.push(arg);
      continue;
    }
    for (let position = 1; position < arg.length; position++) {
      const letter = arg[position] as string;
      if (spec.supported.includes(letter)) {
        if (spec.withValue?.includes(letter)) {
          const value = position + 1 < arg.length ? arg.slice(position + 1) : args[++index];
          if (value === undefined) {
            complain(context, `${name}: option requires an argument -- '${letter}'`);
            return usageError(context, usage);
          }
          parsed.values.set(letter, [...(parsed.values.get(letter) ?? []), value]);
          break;
        }
        parsed.flags.add(letter);
      } else if (spec.unsupported?.includes(letter)) {
        complain(context, `${name}: option -${letter} is outside the fixture command contract (Shipshape reference)`);
        return 1;
      } else {
        complain(context, `${name}: invalid option -- '${letter}'`);
        return usageError(context, usage);
      }
    }
  }
  return parsed;
}
