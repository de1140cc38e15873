/**
 * HEALTHCHECK as dockerd reads it: `NONE`, or options (`--interval`, `--timeout`, `--start-period`
 * as Go durations, `--retries`) then `CMD` and a command in exec or shell form.
 */
import { InvalidParameterError } from '../common/errors.ts';
import type { HealthConfig } from './image.ts';

const OPTIONS = ['interval', 'timeout', 'start-period', 'retries'] as const;
const MINIMUM_DURATION = 1_000_000;
const UNIT_NANOSECONDS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

export function parseHealthcheck(args: string): HealthConfig {
  const options = new Map<string, string>();
  let rest = args;
  for (let flag = /^--([a-z-]+)=(\S*)\s*/.exec(rest); flag; flag = /^--([a-z-]+)=(\S*)\s*/.exec(rest)) {
    const [whole, name = '', value = ''] = flag;
    if (!(OPTIONS as readonly string[]).includes(name)) throw new InvalidParameterError(`Unknown flag: ${name}`);
    options.set(name, value);
    rest = rest.slice(whole.length);
  }
  const type = (rest.split(/\s+/)[0] ?? '').toUpperCase();
  const command = rest.slice(type.length).trim();
  if (type === 'NONE') {
    if (command !== '') throw new InvalidParameterError('HEALTHCHECK NONE takes no arguments');
    return { Test: ['NONE'] };
  }
  if (type !== 'CMD') throw new InvalidParameterError(`Unknown type ${JSON.stringify(type)} in HEALTHCHECK (try CMD)`);
  if (command === '') throw new InvalidParameterError('Missing command after HEALTHCHECK CMD');
  const exec = jsonStrings(command);
  const retries = options.get('retries');
  if (retries !== undefined && !(Number(retries) >= 1)) throw new InvalidParameterError(`--retries must be at least 1 (not ${retries})`);
  const interval = durationOption('interval', options.get('interval'));
  const timeout = durationOption('timeout', options.get('timeout'));
  const startPeriod = durationOption('start-period', options.get('start-period'));
  return {
    Test: exec ? ['CMD', ...exec] : ['CMD-SHELL', command],
    ...(interval && { Interval: interval }),
    ...(timeout && { Timeout: timeout }),
    ...(startPeriod && { StartPeriod: startPeriod }),
    ...(retries !== undefined && { Retries: Number(retries) }),
  };
}

function jsonStrings(text: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A duration option in nanoseconds: 0 (the default) or at least 1ms. */
function durationOption(name: string, value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const nanoseconds = goDuration(value);
  if (nanoseconds === undefined) throw new InvalidParameterError(`time: invalid duration ${JSON.stringify(value)}`);
  if (nanoseconds !== 0 && nanoseconds < MINIMUM_DURATION) throw new InvalidParameterError(`Interval ${JSON.stringify(`--${name}`)} cannot be less than 1ms`);
  return nanoseconds;
}

/** Go's time.ParseDuration: `1h30m`, `1.5s`, `500ms`; undefined when malformed. */
function goDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return undefined;
  return Math.round(parts.reduce((sum, part) => sum + Number(part[1]) * (UNIT_NANOSECONDS[part[2] ?? ''] ?? 0), 0));
}
