import { describe, expect, it } from 'vitest';
import { renderVersionChanges, versionChanges } from '../../harness/coverage/version-changes.ts';

const INVENTORY = [
  { id: '1:version-rule:1.23:pids-limit', section: '1 §9.4' },
  { id: '1:version-rule:1.24:json-errors', section: '1 §7.1' },
  { id: '2:version-rule:1.24:events-daemon-filter', section: '2 §6' },
  { id: '1:version-rule:1.25:auto-remove', section: '1 §9.4' },
  { id: '1:POST /containers/create', section: '1 §4.1' },
];
const CHECKS = [
  { id: 'system.errors.body-format', title: 'bodies', since: '1.18' as const, covers: ['1:version-rule:1.24:json-errors'] },
  { id: 'containers.create.sysctls', title: 'sysctls', since: '1.24' as const },
  { id: 'archive.copy.resource', title: 'copy', since: '1.18' as const, until: '1.23' as const },
  { id: 'containers.create.auto-remove', title: 'auto remove', since: '1.25' as const },
];

describe('versionChanges', () => {
  it('takes the rules after the older version up to the newer one, and the checks applying at one side only', () => {
    const changes = versionChanges('1.23', '1.24', INVENTORY, CHECKS);
    expect(changes.rules.map((rule) => [rule.id, rule.checks])).toEqual([
      ['1:version-rule:1.24:json-errors', ['system.errors.body-format']],
      ['2:version-rule:1.24:events-daemon-filter', []],
    ]);
    expect(changes.starting.map((check) => check.id)).toEqual(['containers.create.sysctls']);
    expect(changes.ending).toEqual([{ id: 'archive.copy.resource', title: 'copy', since: '1.18', until: '1.23' }]);
  });

  it('reads the two versions in either order and spans several versions', () => {
    const changes = versionChanges('1.25', '1.22', INVENTORY, CHECKS);
    expect([changes.older, changes.newer]).toEqual(['1.22', '1.25']);
    expect(changes.rules.map((rule) => rule.version)).toEqual(['1.23', '1.24', '1.24', '1.25']);
    expect(changes.starting.map((check) => check.id)).toEqual(['containers.create.sysctls', 'containers.create.auto-remove']);
  });

  it('renders each rule with its checks, or says it has none', () => {
    const text = renderVersionChanges(versionChanges('1.23', '1.24', INVENTORY, CHECKS));
    expect(text).toContain('1.24  json-errors  (1 §7.1; checked by system.errors.body-format)');
    expect(text).toContain('1.24  events-daemon-filter  (2 §6; no check)');
    expect(text).toContain('  + containers.create.sysctls [1.24+]  sysctls');
    expect(text).toContain('  - archive.copy.resource [1.18–1.23]  copy');
  });
});
