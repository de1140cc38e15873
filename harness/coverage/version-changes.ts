/**
 * What a client sees change between two API versions: the version rules of the spec inventory that
 * take effect after the older version and up to the newer one, and the checks whose since/until
 * make them apply at one of the two versions only. `shipshape changes` prints it.
 */
import { appliesAt, compareVersions, type ApiVersion } from '../../protocol/versions.ts';
import type { CoveringCheck } from './coverage-map.ts';
import type { InventoryItem } from './spec-inventory.ts';

const VERSION_RULE = /^(\d+):version-rule:(\d+\.\d+):(.+)$/;
/** spec/3's token service and accounts API have no API versions: which version's project runs one of their checks is the run's choice, not a change a client sees */
const UNVERSIONED_AREAS = new Set(['token', 'accounts']);

export interface VersionRuleChange extends InventoryItem {
  /** the version the rule takes effect at */
  version: string;
  /** the checks that cover the rule */
  checks: string[];
}

export interface ChangedCheck {
  id: string;
  title: string;
  since: ApiVersion;
  until?: ApiVersion;
}

export interface VersionChanges {
  older: ApiVersion;
  newer: ApiVersion;
  rules: VersionRuleChange[];
  /** checks that apply at the newer version and not at the older one */
  starting: ChangedCheck[];
  /** checks that apply at the older version and not at the newer one */
  ending: ChangedCheck[];
}

type TitledCheck = CoveringCheck & { title: string };

export function versionChanges(a: ApiVersion, b: ApiVersion, inventory: InventoryItem[], checks: TitledCheck[]): VersionChanges {
  const [older, newer] = compareVersions(a, b) <= 0 ? [a, b] : [b, a];
  const rules = inventory.flatMap((item): VersionRuleChange[] => {
    const version = VERSION_RULE.exec(item.id)?.[2];
    if (version === undefined || compareVersions(version, older) <= 0 || compareVersions(version, newer) > 0) return [];
    const covering = checks.filter((check) => check.covers?.includes(item.id)).map((check) => check.id);
    return [{ ...item, version, checks: covering }];
  });
  rules.sort((x, y) => compareVersions(x.version, y.version) || x.id.localeCompare(y.id));
  const described = ({ id, title, since, until }: TitledCheck): ChangedCheck => ({ id, title, since, ...(until && { until }) });
  const at = (check: TitledCheck, version: ApiVersion) => appliesAt(version, check.since, check.until);
  const versioned = checks.filter((check) => !UNVERSIONED_AREAS.has(check.id.split('.')[0] ?? ''));
  return {
    older,
    newer,
    rules,
    starting: versioned.filter((check) => at(check, newer) && !at(check, older)).map(described),
    ending: versioned.filter((check) => at(check, older) && !at(check, newer)).map(described),
  };
}

export function renderVersionChanges(changes: VersionChanges): string {
  const { older, newer, rules, starting, ending } = changes;
  const range = (check: ChangedCheck) => (check.until ? `${check.since}–${check.until}` : `${check.since}+`);
  const lines = [`What a client sees change from API ${older} to ${newer}`, '', `Version rules of the spec (${rules.length}):`];
  for (const rule of rules) {
    const checked = rule.checks.length > 0 ? `checked by ${rule.checks.join(', ')}` : 'no check';
    lines.push(`  ${rule.version}  ${rule.id.replace(/^\d+:version-rule:[\d.]+:/, '')}  (${rule.section}; ${checked})`);
  }
  lines.push('', `Checks that apply at ${newer} and not at ${older} (${starting.length}):`, ...starting.map((check) => `  + ${check.id} [${range(check)}]  ${check.title}`));
  lines.push('', `Checks that apply at ${older} and no longer at ${newer} (${ending.length}):`, ...ending.map((check) => `  - ${check.id} [${range(check)}]  ${check.title}`));
  return `${lines.join('\n')}\n`;
}
