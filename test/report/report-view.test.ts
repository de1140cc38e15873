import { describe, expect, it } from 'vitest';
import { conformanceText, formatDuration, notesOf, reportView, resultDetail } from '../../harness/report/report-view.ts';
import { renderReportHtml } from '../../harness/report/render-html.ts';
import { escapeText } from '../../harness/report/markup-escape.ts';
import { renderSummaryMarkdown } from '../../harness/report/render-markdown.ts';
import { countResults } from '../../harness/report/summarize.ts';
import type { CutShort, ResultStatus } from '../../harness/report/types.ts';
import { makeCheck, makeReport, sampleReport } from './sample-report.ts';

const many = (n: number, status: ResultStatus) => Array.from({ length: n }, () => ({ status }));
const counts = (passed: number, failed: number, skipped = 0) => countResults([...many(passed, 'passed'), ...many(failed, 'failed'), ...many(skipped, 'skipped')]);

describe('conformanceText', () => {
  it('rounds to one decimal', () => {
    expect(conformanceText(counts(16, 2))).toBe('88.9%');
    expect(conformanceText(counts(1, 0))).toBe('100.0%');
    expect(conformanceText(counts(0, 3))).toBe('0.0%');
  });

  it('never shows 100.0% with a failure, nor 0.0% with a pass', () => {
    expect(conformanceText(counts(9999, 1))).toBe('99.9%');
    expect(conformanceText(counts(1, 9999))).toBe('0.1%');
  });

  it('shows – when nothing was judged', () => {
    expect(conformanceText(counts(0, 0, 5))).toBe('–');
  });
});

describe('reportView', () => {
  const view = reportView(sampleReport());

  it('groups checks by area, sorted, with per-version counts of the area', () => {
    expect(view.areas.map((area) => area.area)).toEqual(['containers', 'exec', 'images', 'streams', 'swarm', 'system']);
    const exec = view.areas.find((area) => area.area === 'exec');
    expect(exec?.byVersion.find((summary) => summary.version === '1.21')?.counts).toMatchObject({ passed: 0, error: 1 });
  });

  it('lists only what fails the gate, by version, and points repeats at their first version', () => {
    const at119 = view.problemsByVersion.find((group) => group.version === '1.19')?.problems ?? [];
    expect(at119.map((problem) => [problem.check.id, problem.result.status, problem.sameAs])).toEqual([
      ['containers.create.no-cmd', 'failed', '1.18'],
      ['containers.wait.exit-code', 'error', '1.18'],
    ]);
    expect(view.problemsByVersion.flatMap((group) => group.problems).some((problem) => problem.result.status === 'expected-failure')).toBe(false);
  });

  it('tells a message once for the versions where it differs only in the version it quotes', () => {
    const check = makeCheck('system.info.schema', {
      '1.23': { status: 'failed', message: 'no ClusterStore\nrequest: GET /v1.23/info → 200' },
      '1.24': { status: 'failed', message: 'no ClusterStore\nrequest: GET /v1.24/info → 200' },
      '1.25': { status: 'failed', message: 'no InitPath\nrequest: GET /v1.25/info → 200' },
    });
    expect(notesOf(check, ['1.23', '1.24', '1.25'])).toEqual([
      { status: 'failed', text: 'no ClusterStore\nrequest: GET /v1.23/info → 200', versions: ['1.23', '1.24'] },
      { status: 'failed', text: 'no InitPath\nrequest: GET /v1.25/info → 200', versions: ['1.25'] },
    ]);
    const problems = reportView(makeReport([check], ['1.23', '1.24', '1.25'])).problemsByVersion.map((group) => group.problems[0]?.sameAs);
    expect(problems).toEqual([undefined, '1.23', undefined]);
  });

  it('explains a result by its reason and message, without repeating a quoted reason', () => {
    expect(resultDetail({ status: 'expected-failure', reason: 'why', message: 'what' })).toBe('why\nwhat');
    expect(resultDetail({ status: 'unexpected-pass', reason: 'why', message: 'listed as expected to fail (why) but passed' })).toBe('listed as expected to fail (why) but passed');
    expect(resultDetail({ status: 'passed' })).toBeUndefined();
  });

  it('formats durations for people', () => {
    expect([formatDuration(12), formatDuration(12_345), formatDuration(90_500)]).toEqual(['12 ms', '12.3 s', '1 min 31 s']);
  });
});

describe('a report cut short (report.json\'s cutShort)', () => {
  const cutShort: CutShort = {
    reason: 'target-unreachable', at: '2026-01-01T10:00:02.000Z', cause: 'connect ECONNREFUSED /tmp/x.sock', running: [{ id: 'streams.logs.follow', version: '1.25' }], notRun: 57,
    message: 'target unreachable since 10:00:02 (connect ECONNREFUSED /tmp/x.sock), during streams.logs.follow at 1.25',
  };
  const sentence = "This run was cut short: target unreachable since 10:00:02 (connect ECONNREFUSED /tmp/x.sock), during streams.logs.follow at 1.25 (2026-01-01T10:00:02.000Z). 57 results were not run, so its figures are not a whole run's.";

  it('says so in one sentence above everything else, in report.html and summary.md', () => {
    const report = { ...sampleReport(), cutShort };
    expect(reportView(report).cutShort).toBe(sentence);
    const html = renderReportHtml(report);
    const banner = html.indexOf(`<p id="cut-short" class="badge s-error" role="alert"><strong>${escapeText(sentence)}</strong></p>`);
    expect(banner).toBeGreaterThan(html.indexOf('</h1>'));
    expect(banner).toBeLessThan(html.indexOf('<dl class="facts">'));
    expect(renderSummaryMarkdown(report).split('\n').slice(0, 3)).toEqual([expect.stringMatching(/^# /), '', `> **${sentence}**`]);
  });

  it('says nothing of it for a whole run', () => {
    expect(reportView(sampleReport()).cutShort).toBeUndefined();
    expect(renderReportHtml(sampleReport())).not.toContain('cut-short');
    expect(renderSummaryMarkdown(sampleReport())).not.toContain('cut short');
  });
});
