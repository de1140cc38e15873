import { describe, expect, it } from 'vitest';
import { diffReports, renderDiff } from '../../harness/report/diff.ts';
import { renderReportHtml } from '../../harness/report/render-html.ts';
import { renderSummaryMarkdown } from '../../harness/report/render-markdown.ts';
import { formatSummaryTable } from '../../harness/run/console-summary.ts';
import { makeReport, sampleReport } from './sample-report.ts';

// Three figures, one name each, in every output: overall (all checks), conformance (spec checks), Docker compatibility (docker checks).
describe('the figures\' names', () => {
  const report = sampleReport();
  const outputs = {
    'summary.md': renderSummaryMarkdown(report),
    'report.html': renderReportHtml(report),
    'the console table': formatSummaryTable(report),
    'diff md': renderDiff(diffReports(report, makeReport(report.checks.slice(1))), 'md'),
    'diff html': renderDiff(diffReports(report, makeReport(report.checks.slice(1))), 'html'),
  };

  for (const [name, text] of Object.entries(outputs)) {
    it(`${name} never calls the figure over all checks conformance`, () => {
      // "conformance" stands only as the spec checks' figure: "spec" is named beside it.
      // (The HTML's embedded report data keeps the schema's field names.)
      const shown = text.replace(/<script[\s\S]*?<\/script>/g, '');
      for (const match of shown.matchAll(/(.{0,40})conformance(.{0,40})/gis)) expect(match[0]).toMatch(/spec/);
    });
  }

  it('a diff heads each version with the overall figure', () => {
    expect(outputs['diff md']).toMatch(/^## 1\.18: overall \(all checks\) /m);
    expect(outputs['diff html']).toMatch(/<h2>1\.18: overall \(all checks\) /);
  });

  it('summary.md, report.html and the console table name all three', () => {
    for (const name of ['summary.md', 'report.html', 'the console table'] as const) {
      for (const head of ['overall (all checks)', 'conformance (spec checks)', 'Docker compatibility (docker checks)']) expect(outputs[name], `${name}: ${head}`).toContain(head);
    }
  });
});
