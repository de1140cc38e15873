import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffReports, renderDiff } from '../../harness/report/diff.ts';
import { changeTotalsByLevel } from '../../harness/report/diff-model.ts';
import type { CheckReport, ResultStatus } from '../../harness/report/types.ts';
import { STATUSES } from '../../harness/report/result-statuses.ts';
import { makeCheck, makeReport, sampleReport } from './sample-report.ts';

const at = (version: string, status: ResultStatus, message?: string) => ({ [version]: { status, ...(message ? { message } : {}) } });

function pairs(a: CheckReport[], b: CheckReport[], versions = ['1.24']) {
  const diff = diffReports(makeReport(a, versions), makeReport(b, versions));
  const version = diff.versions[0];
  const ids = (kind: 'regressions' | 'fixes' | 'changes' | 'added' | 'removed') => version?.[kind].map((change) => change.id) ?? [];
  return { diff, ids };
}

describe('diffReports', () => {
  it('finds nothing between a report and itself, and says so in every format', () => {
    const report = sampleReport();
    const diff = diffReports(report, structuredClone(report));
    expect(diff.empty).toBe(true);
    expect(diff.versions).toEqual([]);
    expect(renderDiff(diff, 'md')).toContain('No differences');
    expect(renderDiff(diff, 'html')).toContain('id="no-differences"');
    expect(JSON.parse(renderDiff(diff, 'json'))).toMatchObject({ empty: true, versions: [] });
  });

  it('sorts status changes into regressions, fixes and other changes', () => {
    const a = [
      makeCheck('system.r.passed-failed', at('1.24', 'passed')),
      makeCheck('system.r.expected-error', at('1.24', 'expected-failure')),
      makeCheck('system.r.xpass-failed', at('1.24', 'unexpected-pass')),
      makeCheck('system.f.failed-passed', at('1.24', 'failed')),
      makeCheck('system.f.error-xpass', at('1.24', 'error')),
      makeCheck('system.c.passed-skipped', at('1.24', 'passed')),
      makeCheck('system.c.passed-expected', at('1.24', 'passed')),
      makeCheck('system.c.failed-error', at('1.24', 'failed')),
      makeCheck('system.same.passed', at('1.24', 'passed')),
    ];
    const b = [
      makeCheck('system.r.passed-failed', at('1.24', 'failed', 'expected 200, got 500')),
      makeCheck('system.r.expected-error', at('1.24', 'error')),
      makeCheck('system.r.xpass-failed', at('1.24', 'failed')),
      makeCheck('system.f.failed-passed', at('1.24', 'passed')),
      makeCheck('system.f.error-xpass', at('1.24', 'unexpected-pass')),
      makeCheck('system.c.passed-skipped', at('1.24', 'skipped')),
      makeCheck('system.c.passed-expected', at('1.24', 'expected-failure')),
      makeCheck('system.c.failed-error', at('1.24', 'error')),
      makeCheck('system.same.passed', at('1.24', 'passed')),
    ];
    const { diff, ids } = pairs(a, b);
    expect(ids('regressions')).toEqual(['system.r.expected-error', 'system.r.passed-failed', 'system.r.xpass-failed']);
    expect(ids('fixes')).toEqual(['system.f.error-xpass', 'system.f.failed-passed']);
    expect(ids('changes')).toEqual(['system.c.failed-error', 'system.c.passed-expected', 'system.c.passed-skipped']);
    expect(diff.versions[0]?.regressions.find((change) => change.id === 'system.r.passed-failed')).toMatchObject({ from: 'passed', to: 'failed', detail: 'expected 200, got 500' });
    expect(diff.empty).toBe(false);
  });

  it('lists new and removed checks, and a result that appears or goes at a version', () => {
    const a = [makeCheck('system.old.gone', at('1.24', 'passed')), makeCheck('system.kept.one', at('1.24', 'passed'))];
    const b = [makeCheck('system.new.here', at('1.24', 'failed')), makeCheck('system.kept.one', {})];
    const { diff, ids } = pairs(a, b);
    expect(ids('added')).toEqual(['system.new.here']);
    expect(ids('removed')).toEqual(['system.old.gone']);
    expect(diff.versions[0]?.changes).toEqual([expect.objectContaining({ id: 'system.kept.one', from: 'passed', to: 'absent' })]);
  });

  it('names the versions only one report ran, and compares the rest', () => {
    const a = makeReport([makeCheck('system.a.b', { '1.23': { status: 'passed' }, '1.24': { status: 'passed' } })], ['1.23', '1.24']);
    const b = makeReport([makeCheck('system.a.b', { '1.24': { status: 'failed' }, '1.25': { status: 'passed' } })], ['1.24', '1.25']);
    const diff = diffReports(a, b);
    expect(diff).toMatchObject({ comparedVersions: ['1.24'], onlyInA: ['1.23'], onlyInB: ['1.25'], empty: false });
    expect(diff.versions.map((version) => version.version)).toEqual(['1.24']);
  });

  it('lists exactly the check × version pairs whose status differs', () => {
    const versions = ['1.23', '1.24', '1.25'];
    const status = fc.option(fc.constantFrom(...STATUSES), { nil: undefined });
    const side = fc.dictionary(fc.constantFrom('system.a.one', 'system.a.two', 'exec.b.three', 'images.c.four'), fc.tuple(status, status, status), { maxKeys: 4 });
    const build = (entries: Record<string, (ResultStatus | undefined)[]>) =>
      makeReport(Object.entries(entries).map(([id, statuses]) => makeCheck(id, Object.fromEntries(versions.flatMap((version, index) => {
        const s = statuses[index];
        return s ? [[version, { status: s }]] : [];
      })))), versions);
    fc.assert(fc.property(side, side, (left, right) => {
      const a = build(left);
      const b = build(right);
      const listed = diffReports(a, b).versions.flatMap((version) =>
        (['regressions', 'fixes', 'changes', 'added', 'removed'] as const).flatMap((kind) => version[kind].map((change) => `${change.id}@${version.version}`)));
      const differing = [...new Set([...a.checks, ...b.checks].map((check) => check.id))].flatMap((id) => versions
        .filter((version) => a.checks.find((check) => check.id === id)?.results[version]?.status !== b.checks.find((check) => check.id === id)?.results[version]?.status)
        .map((version) => `${id}@${version}`));
      expect(listed.sort()).toEqual(differing.sort());
    }));
  });
});

describe('diff by check level', () => {
  const a = makeReport([
    makeCheck('system.ping.body', at('1.24', 'passed'), { level: 'spec' }),
    makeCheck('system.ping.header', at('1.24', 'passed'), { level: 'docker', seen: 'dockerd 20.10.24' }),
    makeCheck('system.info.wording', at('1.24', 'passed'), { level: 'docker', seen: 'dockerd 20.10.24' }),
    makeCheck('system.info.schema', at('1.24', 'failed')),
  ], ['1.24']);
  const b = makeReport([
    makeCheck('system.ping.body', at('1.24', 'passed'), { level: 'spec' }),
    makeCheck('system.ping.header', at('1.24', 'failed', 'no Docker-Experimental'), { level: 'docker', seen: 'dockerd 20.10.24' }),
    makeCheck('system.info.wording', at('1.24', 'error'), { level: 'docker', seen: 'dockerd 20.10.24' }),
    makeCheck('system.info.schema', at('1.24', 'passed')),
  ], ['1.24']);
  const diff = diffReports(a, b);

  it('gives each change its check\'s level (a report without levels is spec) and each version both figures', () => {
    const version = diff.versions[0];
    expect(version?.regressions.map(({ id, level }) => [id, level])).toEqual([['system.info.wording', 'docker'], ['system.ping.header', 'docker']]);
    expect(version?.fixes.map(({ id, level }) => [id, level])).toEqual([['system.info.schema', 'spec']]);
    expect(version?.summary.a.levels).toMatchObject({ spec: { passed: 1, failed: 1 }, docker: { passed: 2 } });
    expect(version?.summary.b.levels).toMatchObject({ spec: { passed: 2, failed: 0 }, docker: { failed: 1, error: 1, passed: 0 } });
    expect(changeTotalsByLevel(diff)).toEqual({
      spec: { regressions: 0, fixes: 1, changes: 0, added: 0, removed: 0 },
      docker: { regressions: 2, fixes: 0, changes: 0, added: 0, removed: 0 },
    });
  });

  it('md: the counts per level overall and per version, the figures per level, and the level of each change', () => {
    const md = renderDiff(diff, 'md');
    expect(md).toContain('- **spec checks**: regressions: 0, fixes: 1, other status changes: 0, new checks: 0, removed checks: 0');
    expect(md).toContain('- **docker checks**: regressions: 2, fixes: 0, other status changes: 0, new checks: 0, removed checks: 0');
    expect(md).toContain('- **spec checks**: conformance 50.0% → 100.0%; regressions: 0, fixes: 1,');
    expect(md).toContain('- **docker checks**: Docker compatibility 100.0% → 0.0%; regressions: 2,');
    expect(md).toContain('| `system.ping.header` | docker | ✓ passed | ✗ failed | no Docker-Experimental |');
  });

  it('html: the same, with data-level on the rows', () => {
    const html = renderDiff(diff, 'html');
    expect(html).toMatch(/<table data-kind="regressions">.*<tr data-check="system\.info\.wording" data-level="docker"><td><code>system\.info\.wording<\/code><\/td><td>docker<\/td>/);
    expect(html).toContain('<li data-level="spec">conformance (spec checks) 50.0% → 100.0%</li><li data-level="docker">Docker compatibility (docker checks) 100.0% → 0.0%</li>');
    expect(html).toContain('<tr data-level="docker"><th>docker checks</th><td>Regressions: 2 · Fixes: 0');
  });

  it('json: each change with its level', () => {
    const json = JSON.parse(renderDiff(diff, 'json')) as { versions: { regressions: { level: string }[] }[] };
    expect(json.versions[0]?.regressions.map(({ level }) => level)).toEqual(['docker', 'docker']);
  });
});

describe('renderDiff', () => {
  const a = makeReport([makeCheck('system.ping.body', at('1.24', 'passed')), makeCheck('system.info.schema', at('1.24', 'failed'))], ['1.24']);
  const b = makeReport([makeCheck('system.ping.body', at('1.24', 'failed', 'got <b>500</b> | oops')), makeCheck('system.info.schema', at('1.24', 'passed'))], ['1.24']);
  const diff = diffReports(a, b);

  it('md: a section per version with a table per kind of change', () => {
    const md = renderDiff(diff, 'md');
    expect(md).toContain('## 1.24: overall (all checks) 50.0% → 50.0%');
    expect(md).toContain('### Regressions (1)');
    expect(md).toContain('| `system.ping.body` | spec | ✓ passed | ✗ failed | got &lt;b>500&lt;/b> \\| oops |');
    expect(md).toContain('### Fixes (1)');
    expect(md).toContain('regressions: 1, fixes: 1, other status changes: 0, new checks: 0, removed checks: 0');
  });

  it('html: the same sections, escaped, in a self-contained page', () => {
    const html = renderDiff(diff, 'html');
    expect(html).toMatch(/<section data-version="1.24">[\s\S]*<table data-kind="regressions">[\s\S]*<tr data-check="system.ping.body" data-level="spec">/);
    expect(html).toContain('got &lt;b&gt;500&lt;/b&gt; | oops');
    expect(html).not.toMatch(/\bsrc=|<link\b/);
  });

  it('json: the diff itself', () => {
    expect(JSON.parse(renderDiff(diff, 'json'))).toEqual(diff);
  });
});
