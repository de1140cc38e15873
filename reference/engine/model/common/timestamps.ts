/** Go's zero time: what the engine shows for "never", e.g. StartedAt of a container never started. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** RFC 3339 as Go's RFC3339Nano prints it: the fraction loses its trailing zeros (and the dot when nothing is left). */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\.?0+Z$/, 'Z');
}

export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** Go's RFC3339NanoFixed, which log timestamps use: always nine fraction digits, so lines line up. */
export function formatFixedNanoTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}
