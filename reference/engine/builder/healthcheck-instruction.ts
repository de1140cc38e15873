/**
 * HEALTHCHECK as buildkit's parser reads it (parseHealthConfig, then parseHealthcheck): `NONE`, whose
 * flags are never read, or flags (`--interval`, `--timeout`, `--start-period` as Go durations of at
 * least 1ms, `--retries` a whole number of at least 1) then `CMD` and a command in exec or shell form.
 * The timings are nanoseconds, left out when not given.
 */
import { RuleError } from './buildfile-errors.ts';
import { goQuote } from './go-format.ts';
import { commandLine } from './json-form.ts';
import type { HealthConfig } from './run-config.ts';

const FLAGS = ['interval', 'timeout', 'start-period', 'retries'];
const MINIMUM_DURATION = 1_000_000;
const UNIT_NANOSECONDS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const WHITESPACE = /[\t\v\f\r ]+/;

/** @param flags the line's `--name=value` words; @param args what follows them */
export function parseHealthcheck(flags: readonly string[], args: string): HealthConfig {
  const rest = args.trim();
  if (rest === '') throw new RuleError('HEALTHCHECK requires at least one argument');
  const split = WHITESPACE.exec(rest);
  const type = (split ? rest.slice(0, split.index) : rest).toUpperCase();
  const command = commandLine(split ? rest.slice(split.index + split[0].length) : '');
  if (type === 'NONE') {
    if (command.words.length > 0) throw new RuleError('HEALTHCHECK NONE takes no arguments');
    return { Test: ['NONE'] };
  }
  const options = flagValues(flags);
  if (type !== 'CMD') throw new RuleError(`Unknown type ${goQuote(type)} in HEALTHCHECK (try CMD)`);
  if (command.words.length === 0) throw new RuleError('Missing command after HEALTHCHECK CMD');
  const interval = durationOption('interval', options.get('interval'));
  const timeout = durationOption('timeout', options.get('timeout'));
  const startPeriod = durationOption('start-period', options.get('start-period'));
  const retries = retriesOption(options.get('retries'));
  return {
    Test: [command.shell ? 'CMD-SHELL' : 'CMD', ...command.words],
    ...(interval !== 0 && { Interval: interval }),
    ...(timeout !== 0 && { Timeout: timeout }),
    ...(startPeriod !== 0 && { StartPeriod: startPeriod }),
    ...(retries !== 0 && { Retries: retries }),
  };
}

/** buildkit's BFlags for string flags: each known, given once, with `=` and a value. */
function flagValues(flags: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const flag of flags) {
    const word = flag.replace(/^--/, '');
    const separator = word.indexOf('=');
    const name = separator < 0 ? word : word.slice(0, separator);
    if (!FLAGS.includes(name)) throw new RuleError(`Unknown flag: ${name}`);
    if (values.has(name)) throw new RuleError(`Duplicate flag specified: ${name}`);
    if (separator < 0) throw new RuleError(`Missing a value on flag: ${name}`);
    values.set(name, word.slice(separator + 1));
  }
  return values;
}

/** A duration option in nanoseconds: 0 (the default) when not given, else at least 1ms. */
function durationOption(name: string, value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const nanoseconds = goParseDuration(value);
  if (nanoseconds < MINIMUM_DURATION) throw new RuleError(`Interval ${goQuote(name)} cannot be less than 1ms`);
  return nanoseconds;
}

/** `--retries`: 0 (the default) when not given, else a whole number of at least 1. */
function retriesOption(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const match = /^[+-]?\d+$/.test(value) ? Number(value) : undefined;
  if (match === undefined) throw new RuleError(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`);
  if (match < -(2 ** 31) || match >= 2 ** 31) throw new RuleError(`strconv.ParseInt: parsing ${goQuote(value)}: value out of range`);
  if (match < 1) throw new RuleError(`--retries must be at least 1 (not ${match})`);
  return match;
}

/** Go's time.ParseDuration in nanoseconds: `1h30m`, `1.5s`, `-500ms`, `0`; its errors in its words. */
function goParseDuration(text: string): number {
  const invalid = () => new RuleError(`time: invalid duration ${goQuote(text)}`);
  const sign = text.startsWith('-') || text.startsWith('+') ? text.slice(0, 1) : '';
  let rest = text.slice(sign.length);
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let total = 0;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest) as RegExpExecArray;
    const [whole, integer = '', fraction] = number;
    if (integer === '' && (fraction === undefined || fraction === '')) throw invalid();
    rest = rest.slice(whole.length);
    const unit = /^[^\d.]*/.exec(rest)?.[0] ?? '';
    if (unit === '') throw new RuleError(`time: missing unit in duration ${goQuote(text)}`);
    const scale = UNIT_NANOSECONDS[unit];
    if (scale === undefined) throw new RuleError(`time: unknown unit ${goQuote(unit)} in duration ${goQuote(text)}`);
    rest = rest.slice(unit.length);
    total += Number(integer || '0') * scale + Math.floor(Number(`0.${fraction ?? ''}`) * scale);
  }
  return sign === '-' ? -total : total;
}
