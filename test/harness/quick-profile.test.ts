import { describe, expect, it } from 'vitest';
import type { CheckDescriptor } from '../../harness/check.ts';
import { readCheckList } from '../../harness/check-list.ts';
import { readInventory } from '../../harness/coverage/spec-inventory.ts';
import { REPO_ROOT } from '../../harness/repo-root.ts';
import { quickProfile } from '../../harness/run/quick-profile.ts';
import { renderReportHtml } from '../../harness/report/render-html.ts';
import { renderSummaryMarkdown } from '../../harness/report/render-markdown.ts';
import { makeCheck, makeReport } from '../report/sample-report.ts';
import { appliesAt } from '../../protocol/versions.ts';

function check(id: string, covers: string[], meta: Partial<CheckDescriptor> = {}): CheckDescriptor {
  return { id, area: 'containers', level: 'spec', spec: '1 §4.1', since: '1.18', tags: ['state'], title: id, covers, ...meta };
}

const inventory = [
  { id: '1:GET /containers/json', section: '1 §4.1' },
  { id: '1:GET /containers/json:status:200', section: '1 §4.1' },
  { id: '1:GET /containers/json:status:400', section: '1 §4.1' },
  { id: '1:GET /containers/json:status:404', section: '1 §4.1' },
  { id: '1:GET /containers/json:query:all', section: '1 §4.1' },
];

describe('quickProfile', () => {
  it('takes one check per endpoint and outcome class, the cheapest that applies at the version', () => {
    const checks = [
      check('containers.list.property', ['1:GET /containers/json:status:200'], { tags: ['property'] }),
      check('containers.list.ok', ['1:GET /containers/json:status:200']),
      check('containers.list.swarm-only', ['1:GET /containers/json:status:400'], { requires: ['swarm'] }),
      check('containers.list.bad-filter', ['1:GET /containers/json:status:400']),
      check('containers.list.bad-filter-old', ['1:GET /containers/json:status:400'], { until: '1.24' }),
      check('containers.list.endpoint', ['1:GET /containers/json']),
      check('containers.list.query-all', ['1:GET /containers/json:query:all']),
    ];
    expect(quickProfile(checks, inventory, '1.25')).toEqual(['containers.list.bad-filter', 'containers.list.endpoint', 'containers.list.ok']);
  });

  it("from this release's data: every endpoint class a check covers at 1.25, each check applying there", async () => {
    const [{ checks }, items] = await Promise.all([readCheckList(), readInventory(REPO_ROOT)]);
    const quick = quickProfile(checks, items, '1.25');
    expect(quick.length).toBeGreaterThan(60);
    expect(quick.length).toBeLessThan(checks.length / 4);
    for (const id of quick) {
      const listed = checks.find((entry) => entry.id === id)!;
      expect(appliesAt('1.25', listed.since, listed.until), id).toBe(true);
    }
  });

  it('a quick run says so at the top of summary.md and report.html', () => {
    const report = { ...makeReport([makeCheck('system.ping.ok', { '1.25': { status: 'passed' } })], ['1.25']), profile: 'quick' as const };
    const note = 'A quick run (run --profile quick): 1 check, about one per endpoint and outcome class, at 1.25. A sample of the suite: it certifies nothing.';
    expect(renderSummaryMarkdown(report)).toContain(`> ${note}`);
    expect(renderReportHtml(report)).toContain(`<p id="quick-run" class="badge s-skipped">${note}</p>`);
  });
});
