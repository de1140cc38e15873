/**
 * The `filters` query parameter: a JSON map from filter name to values, `{"name": ["value"]}`, or
 * the form clients send from API 1.22, `{"name": {"value": true}}`; both come out as lists of values.
 * In the map form a value counts whatever its boolean says, as on dockerd; JSON `null` is no filter.
 */
import { InvalidParameterError } from '../model/common/errors.ts';

export type Filters = Record<string, string[]>;

export function parseFiltersQuery(text: string | null): Filters {
  if (text === null || text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidParameterError(`invalid filters: not a JSON object: ${text}`);
  }
  if (parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidParameterError(`invalid filters: not a JSON object: ${text}`);
  }
  return Object.fromEntries(Object.entries(parsed).map(([name, values]) => [name, filterValues(name, values)]));
}

function filterValues(name: string, values: unknown): string[] {
  if (Array.isArray(values) && values.every((value) => typeof value === 'string')) return values;
  if (typeof values === 'object' && values !== null && !Array.isArray(values) && Object.values(values).every((on) => typeof on === 'boolean')) {
    return Object.keys(values);
  }
  throw new InvalidParameterError(`invalid filters: the values of '${name}' are neither a list of strings nor a map of strings to booleans`);
}

/** Refuses filter names the endpoint does not apply: 400, dockerd's "Invalid filter" naming it. */
export function checkFilterNames(filters: Filters, applied: readonly string[]): void {
  for (const name of Object.keys(filters)) {
    if (!applied.includes(name)) throw new InvalidParameterError(`Invalid filter '${name}'`);
  }
}
