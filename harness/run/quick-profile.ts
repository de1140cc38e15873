/**
 * `run --profile quick` (Sonobuoy's quick mode is the anchor): about one check per endpoint and outcome
 * class at one version, for a fast look at a daemon. The list is derived from data, never kept by hand:
 * the spec inventory's endpoints and status rows (fixtures/spec-inventory.json), grouped per endpoint
 * into outcome classes (its 2xx, 4xx, 5xx rows; an endpoint without status rows is a class of its
 * own), and for each class the first check that covers one of its rows and applies at the version
 * (one without properties or requirements before one with, then by id). A quick run certifies nothing.
 */
import type { CheckDescriptor } from '../check.ts';
import type { InventoryItem } from '../coverage/spec-inventory.ts';
import { appliesAt, type ApiVersion } from '../../protocol/versions.ts';

/** `1:GET /containers/json:status:404` → `1:GET /containers/json 4xx`; `1:GET /containers/json` → itself. */
function outcomeClassOf(id: string): string | undefined {
  const status = /^(\d+:[A-Z]+ [^:]+):status:(\d)\d\d$/.exec(id);
  if (status) return `${status[1]} ${status[2]}xx`;
  return /^\d+:[A-Z]+ [^:]+$/.test(id) ? id : undefined;
}

/** Cheapest first: a plain check before a property, fewer requirements before more. */
function cost(check: CheckDescriptor): [number, number, string] {
  return [check.tags.includes('property') ? 1 : 0, check.requires?.length ?? 0, check.id];
}

function cheaper(a: CheckDescriptor, b: CheckDescriptor): number {
  const [x, y] = [cost(a), cost(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2].localeCompare(y[2]);
}

/** The quick profile's check ids at `version`, sorted. */
export function quickProfile(checks: readonly CheckDescriptor[], inventory: readonly InventoryItem[], version: ApiVersion): string[] {
  const classes = new Map<string, Set<string>>();
  for (const item of inventory) {
    const outcome = outcomeClassOf(item.id);
    if (outcome !== undefined) classes.set(outcome, (classes.get(outcome) ?? new Set()).add(item.id));
  }
  const applying = checks.filter((check) => appliesAt(version, check.since, check.until)).sort(cheaper);
  const picked = new Set<string>();
  for (const rows of classes.values()) {
    const first = applying.find((check) => check.covers?.some((row) => rows.has(row)));
    if (first) picked.add(first.id);
  }
  return [...picked].sort((a, b) => a.localeCompare(b));
}
