/**
 * Times in a query (`since` and `until` of logs and events) as the daemon reads them: Unix seconds
 * with an optional fraction (Go's timetypes.ParseTimestamps). Clients turn dates and durations into
 * this form before they send them.
 */
import { InvalidParameterError } from '../model/common/errors.ts';

/** Absent or empty: undefined. The fraction counts to the millisecond, the clock's resolution. */
export function parseUnixTime(text: string | null): Date | undefined {
  if (text === null || text === '') return undefined;
  const match = /^(-?\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new InvalidParameterError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const milliseconds = Number((match[2] ?? '').padEnd(3, '0').slice(0, 3));
  return new Date(Number(match[1]) * 1000 + milliseconds);
}
