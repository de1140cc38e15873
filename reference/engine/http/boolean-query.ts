/**
 * Boolean query parameters as dockerd reads them (its BoolValue): `0`, `false`, `no`, `none` (any
 * case) are false and any other non-empty value is true; absent or empty takes the default.
 */
const FALSE_WORDS = new Set(['0', 'false', 'no', 'none']);

export function parseBooleanQuery(value: string | null | undefined, fallback: boolean): boolean {
  const word = value?.trim().toLowerCase();
  if (word === undefined || word === '') return fallback;
  return !FALSE_WORDS.has(word);
}
