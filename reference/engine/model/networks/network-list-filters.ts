/**
 * The filters of the network list as dockerd applies them: `name` and `id` are patterns matched
 * anywhere in the value (Go regular expressions there; a pattern that does not compile matches
 * nothing), `driver` and `scope` are exact, `label` is `key` or `key=value`, `type` is `custom` or
 * `builtin`, `dangling` whether no container is on the network (a predefined one never dangles).
 * Every filter given must hold; a filter's values are alternatives.
 */
import { EngineError, InvalidParameterError } from '../common/errors.ts';
import { matchesLabels } from '../common/label-match.ts';
import { isPredefinedName } from '../containers/host-config.ts';
import type { Network } from './network.ts';

export interface NetworkListFilters {
  driver?: string[];
  id?: string[];
  label?: string[];
  name?: string[];
  scope?: string[];
  type?: string[];
  dangling?: string[];
}

const DANGLING_VALUES: Record<string, boolean> = { true: true, 1: true, false: false, 0: false };

/** dockerd's reading of dangling (its GetBoolOrDefault): every value a boolean word, else a 400 in its words. */
export function danglingFilter(values: string[] | undefined): boolean | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const read = values.map((value) => DANGLING_VALUES[value.toLowerCase()]);
  if (read.includes(undefined)) throw new InvalidParameterError(`invalid value for filter 'dangling', must be "true" (or "1"), or "false" (or "0")`);
  return read.includes(true);
}

const NETWORK_TYPES = ['custom', 'builtin'];

/** dockerd refuses a type it does not know, as a plain error (500). */
export function checkNetworkTypes(types: string[] | undefined): void {
  const unknown = types?.find((type) => !NETWORK_TYPES.includes(type));
  if (unknown !== undefined) throw new EngineError(`invalid filter: 'type'='${unknown}'`);
}

export function matchesNetworkFilters(network: Network, filters: NetworkListFilters): boolean {
  const dangling = danglingFilter(filters.dangling);
  return (
    (dangling === undefined || dangling === (!isPredefinedName(network.name) && network.endpoints.size === 0)) &&
    matchesPattern(filters.name, network.name) &&
    matchesPattern(filters.id, network.id) &&
    matchesExactly(filters.driver, network.driver) &&
    matchesExactly(filters.scope, network.scope) &&
    (filters.label === undefined || matchesLabels(network.settings.labels, filters.label)) &&
    matchesExactly(filters.type, network.builtin ? 'builtin' : 'custom')
  );
}

function matchesExactly(wanted: string[] | undefined, value: string): boolean {
  return wanted === undefined || wanted.length === 0 || wanted.includes(value);
}

function matchesPattern(wanted: string[] | undefined, value: string): boolean {
  if (wanted === undefined || wanted.length === 0) return true;
  return wanted.some((pattern) => {
    if (pattern === value) return true;
    try {
      return new RegExp(pattern).test(value);
    } catch {
      return false;
    }
  });
}
