/**
 * Boolean query parameters as dockerd reads them (its BoolValueOrDefault): absent takes the default;
 * present, `""`, `0`, `false`, `no`, `none` (any case) are false and any other value is true — so a
 * bare `?stream` or `?stream=` turns a default-true parameter off, as on dockerd.
 */
const FALSE_WORDS = new Set(['', '0', 'false', 'no', 'none']);

export function parseBooleanQuery(value: string | null | undefined, fallback: boolean): boolean {
  if (value === null || value === undefined) return fallback;
  return !FALSE_WORDS.has(value.trim().toLowerCase());
}
