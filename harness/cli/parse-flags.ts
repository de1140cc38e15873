/**
 * A command's arguments, parsed by node:util parseArgs from the command's table of flags (the same
 * table `--help` prints): `--help` recognised, and parseArgs's errors turned into one-line usage
 * errors that point to the help.
 */
import { parseArgs } from 'node:util';
import { closestName, HelpRequested, type CommandSpec, type FlagTable } from './command-help.ts';
import { UsageError } from './usage-error.ts';

/** `--help` or `-h` as a flag of its own: not the value of another flag (`--password -h`), nor after `--`. */
function asksForHelp(args: string[], flags: FlagTable): boolean {
  const { tokens } = parseArgs({ args, options: { ...flags, help: { type: 'boolean', short: 'h' } }, strict: false, allowPositionals: true, tokens: true });
  return tokens.some((token) => token.kind === 'option' && token.name === 'help');
}

function explain(error: Error & { code?: string }, command: CommandSpec): string {
  const pointer = `shipshape ${command.name} --help lists every flag`;
  const unknown = /^Unknown option '(-{1,2}[^'=]+)/.exec(error.message);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const typed = unknown[1]!;
    const nearest = closestName(typed.replace(/^-+/, ''), Object.keys(command.flags));
    return `unknown flag ${typed}${nearest ? `; did you mean --${nearest}?` : ''} (${pointer})`;
  }
  return `${error.message.replace(/\. To specify a positional argument.*$/s, '')} (${pointer})`;
}

export function parseFlags<const F extends FlagTable>(args: string[], command: CommandSpec<F>) {
  if (asksForHelp(args, command.flags)) throw new HelpRequested(command);
  try {
    return parseArgs({ args, options: command.flags, strict: true, allowPositionals: command.arguments !== undefined });
  } catch (error) {
    throw new UsageError(explain(error as Error & { code?: string }, command));
  }
}
