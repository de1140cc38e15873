/** `shipshape compare`: support levels per area and target, and the matrix of checks × target × version. */
import { describe, expect, test } from 'vitest';
import { compareReports } from '../../harness/report/compare-model.ts';
import { renderCompareHtml } from '../../harness/report/render-compare-html.ts';
import { renderCompareMarkdown } from '../../harness/report/render-compare-markdown.ts';
import type { Report } from '../../harness/report/types.ts';
import { API_VERSIONS } from '../../protocol/versions.ts';
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

  test('a support level per area, target and check level: conformance and Docker compatibility apart', () => {
    const docker = { level: 'docker', seen: 'dockerd 20.10.24' } as const;
    const strict = reportOf('strict', [
      makeCheck('volumes.create.schema', everywhere(PASS)),
      makeCheck('volumes.list.null-or-empty', everywhere(PASS), { level: 'spec' }),
      makeCheck('volumes.create.warning-null', everywhere(FAIL), docker),
      makeCheck('volumes.remove.message', { ...everywhere(PASS), '1.18': FAIL }, docker),
      makeCheck('system.ping.body', everywhere(PASS)),
    ]);
    const dockerd = reportOf('unix:///tmp/d.sock', [
      makeCheck('volumes.create.schema', everywhere(PASS)),
      makeCheck('volumes.list.null-or-empty', { ...everywhere(PASS), '1.24': { status: 'expected-failure', reason: 'answers []' } }, { level: 'spec' }),
      makeCheck('volumes.create.warning-null', everywhere(PASS), docker),
      makeCheck('volumes.remove.message', everywhere(PASS), docker),
      makeCheck('system.ping.body', everywhere(PASS)),
    ]);
    const both = compareReports([strict, dockerd]);
    const volumes = both.areas.find(({ area }) => area === 'volumes');
    expect(volumes?.checks.map(({ id, level }) => [id, level])).toEqual([
      ['volumes.create.schema', 'spec'], ['volumes.create.warning-null', 'docker'], ['volumes.list.null-or-empty', 'spec'], ['volumes.remove.message', 'docker'],
    ]);
    expect(volumes?.levels.spec.map(({ level }) => level)).toEqual(['full', 'partial']);
    expect(volumes?.levels.docker.map(({ level }) => level)).toEqual(['partial', 'full']);
    expect(volumes?.levels.docker[0]?.failing).toEqual([{ id: 'volumes.create.warning-null', versions: [...API_VERSIONS] }, { id: 'volumes.remove.message', versions: ['1.18'] }]);
    expect(volumes?.levels.spec[1]?.failing).toEqual([{ id: 'volumes.list.null-or-empty', versions: ['1.24'] }]);
    expect(volumes?.support.map(({ level }) => level)).toEqual(['partial', 'partial']);
    // an area without docker-level checks: not run at that level, whatever the target did
    expect(both.areas.find(({ area }) => area === 'system')?.levels).toEqual({ spec: [{ level: 'full', failing: [] }, { level: 'full', failing: [] }], docker: [{ level: 'not-run', failing: [] }, { level: 'not-run', failing: [] }] });

    const markdown = renderCompareMarkdown(both);
    expect(markdown).toContain('| area | T1 conformance | T1 Docker compatibility | T2 conformance | T2 Docker compatibility |');
    expect(markdown).toContain('| volumes | full | partial: not `volumes.create.warning-null` (1.18, 1.19, 1.20, 1.21, 1.22, 1.23, 1.24, 1.25), `volumes.remove.message` (1.18) | partial: not `volumes.list.null-or-empty` (1.24) | full |');
    expect(markdown).toContain('| system | full | not run | full | not run |');
    const html = renderCompareHtml(both);
    expect(html).toMatch(/<tr data-area="volumes"><th>volumes<\/th><td class="support-full" data-target="0" data-check-level="spec" data-level="full">.*?<td class="support-partial" data-target="0" data-check-level="docker" data-level="partial">/);
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
    expect(markdown.split('\n').find((line) => line.startsWith('| check |'))?.split('|').length).toBe(16 + 4);
    expect(markdown).toContain('| `exec.start.detach` | docker | ');
  });

  test('HTML: escapes messages and names, and holds every target × version column', () => {
    const html = renderCompareHtml(comparison);
    expect(html).not.toMatch(/<b>&amp;<\/b>/);
    expect(html.match(/<th class="num" data-target="\d+" data-version="/g)?.length).toBe(16);
    expect(html).toContain('data-level="partial"');
  });
});
