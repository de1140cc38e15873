/** `shipshape compare`: support levels per area and target, and the matrix of checks × target × version. */
import { describe, expect, test } from 'vitest';
import { compareReports } from '../../harness/report/compare-model.ts';
import { renderCompareHtml } from '../../harness/report/render-compare-html.ts';
import { renderCompareMarkdown } from '../../harness/report/render-compare-markdown.ts';
import type { Report } from '../../harness/report/types.ts';
import { everywhere, makeCheck, makeReport, sampleReport } from './sample-report.ts';

const PASS = { status: 'passed' } as const;
const FAIL = { status: 'failed', message: 'expected 200, got 500' } as const;

function reportOf(url: string, checks: Parameters<typeof makeReport>[0], versions?: string[]): Report {
  const report = makeReport(checks, versions);
  return { ...report, target: { ...report.target, url } };
}

describe('compareReports', () => {
  const reference = reportOf('reference', [makeCheck('volumes.create.schema', everywhere(PASS)), makeCheck('volumes.remove.in-use', everywhere(PASS)), makeCheck('swarm.services.create', everywhere({ status: 'skipped', reason: 'no swarm' }))]);
  const podman = reportOf('unix:///run/podman.sock', [
    makeCheck('volumes.create.schema', everywhere(PASS)),
    makeCheck('volumes.remove.in-use', { ...everywhere(PASS), '1.25': { status: 'expected-failure', reason: 'answers 500' } }),
    makeCheck('swarm.services.create', everywhere(FAIL)),
  ]);
  const comparison = compareReports([reference, podman]);

  test('a support level per area and target: full, partial naming the checks and versions, none, not run', () => {
    expect(comparison.areas.map(({ area, support }) => [area, support.map(({ level }) => level)])).toEqual([
      ['swarm', ['not-run', 'none']],
      ['volumes', ['full', 'partial']],
    ]);
    expect(comparison.areas[1]?.support[1]?.failing).toEqual([{ id: 'volumes.remove.in-use', versions: ['1.25'] }]);
  });

  test('rows keep each target\'s status per version; a check one run lacks is absent there', () => {
    const only = compareReports([reference, reportOf('tcp://127.0.0.1:2375', [makeCheck('volumes.create.schema', everywhere(PASS, ['1.24']))], ['1.24'])]);
    const row = only.areas.find(({ area }) => area === 'volumes')?.checks.find(({ id }) => id === 'volumes.remove.in-use');
    expect(row?.results[1]).toEqual({ '1.24': 'absent' });
    expect(only.targets.map(({ versions }) => versions.length)).toEqual([8, 1]);
  });

  test('two runs of one target are told apart', () => {
    expect(compareReports([reference, reference]).targets.map(({ label }) => label)).toEqual(['reference (docker 20.10.24)', 'reference (docker 20.10.24) #2']);
  });
});

describe('rendering', () => {
  const comparison = compareReports([sampleReport(), reportOf('reference', sampleReport().checks)]);

  test('Markdown: support table and one matrix column per target and version', () => {
    const markdown = renderCompareMarkdown(comparison);
    expect(markdown).toContain('| area | T1 | T2 |');
    expect(markdown).toMatch(/\| containers \| partial: not `containers\.create\.no-cmd` \(1\.18, /);
    expect(markdown.split('\n').find((line) => line.startsWith('| check |'))?.split('|').length).toBe(16 + 3);
  });

  test('HTML: escapes messages and names, and holds every target × version column', () => {
    const html = renderCompareHtml(comparison);
    expect(html).not.toMatch(/<b>&amp;<\/b>/);
    expect(html.match(/<th class="num" data-target="\d+" data-version="/g)?.length).toBe(16);
    expect(html).toContain('data-level="partial"');
  });
});
