import { describe, expect, it } from 'vitest';
import { renderSummaryMarkdown } from '../../harness/report/render-markdown.ts';
import { everywhere, makeCheck, makeReport, sampleReport } from './sample-report.ts';

describe('summary.md', () => {
  const report = sampleReport();
  const markdown = renderSummaryMarkdown(report);

  it('names the target and has a per-version row with the counts and conformance', () => {
    expect(markdown).toContain('**target**: unix:///var/run/docker.sock');
    expect(markdown).toContain('| 1.18 | 55.6% | 5 | 2 | 1 | 2 | 1 | 0 |');
    expect(markdown).toContain('| 1.24 | 77.8% | 7 | 0 | 1 | 2 | 1 | 1 |');
  });

  it('puts conformance (spec checks) and Docker compatibility (docker checks) side by side after the columns it always had', () => {
    expect(markdown).toContain('| version | overall (all checks) | passed | failed | error | skipped | expected failures | unexpected passes | conformance (spec checks) | Docker compatibility (docker checks) |');
    expect(markdown).toContain('| 1.18 | 55.6% | 5 | 2 | 1 | 2 | 1 | 0 | 57.1% | 50.0% |');
    expect(markdown).toContain('| 1.21 | 50.0% | 4 | 1 | 2 | 3 | 1 | 0 | 66.7% | 0.0% |');
  });

  it('has a row per area and level, with the level\'s checks and figure per version', () => {
    const section = markdown.slice(markdown.indexOf('## Per area and level'), markdown.indexOf('## Failures'));
    expect(section).toContain('| exec | conformance (spec checks) | 0 | – | – | – | – | – | – | – | – |');
    expect(section).toContain('| exec | Docker compatibility (docker checks) | 1 | 100.0% | 100.0% | 100.0% | 0.0% | 100.0% | 100.0% | 100.0% | 100.0% |');
    expect(section).toContain('| system | conformance (spec checks) | 3 |');
    expect(section).toContain('| system | Docker compatibility (docker checks) | 1 | 0.0% |');
    expect(section.split('\n').filter((line) => /^\| [a-z]+ \| (conformance|Docker)/.test(line))).toHaveLength(2 * 6);
  });

  it('has a per-area row, with – where nothing was judged', () => {
    expect(markdown).toContain('| swarm | 1 | – | – | – | – | – | – | – | – |');
    expect(markdown).toContain('| exec | 1 | 100.0% | 100.0% | 100.0% | 0.0% |');
  });

  it('lists failures, errors and unexpected passes by version, with their messages', () => {
    const section = markdown.slice(markdown.indexOf('## Failures'));
    expect(section.indexOf('### 1.18 (3)')).toBeLessThan(section.indexOf('### 1.21 (3)'));
    expect(section).toContain('✗ **failed** `system.info.bool-flags`');
    expect(section).toContain('⚠ **error** `exec.start.detach`');
    expect(section).toContain('XP **unexpected pass** `system.errors.json-body`');
    expect(section).not.toContain('system.version.schema');
    expect(section).toContain('socket hang up');
    expect(section).toContain('(same as at 1.18)');
  });

  it('truncates long messages and keeps control characters visible', () => {
    expect(markdown).toMatch(/… \(\d+ more characters\)/);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the file
    expect(markdown).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  it('fences a message that holds backticks with a longer fence', () => {
    const check = makeCheck('system.fence.break', everywhere({ status: 'failed', message: 'body:\n```\nnot the end\n```' }, ['1.24']));
    const text = renderSummaryMarkdown(makeReport([check], ['1.24']));
    expect(text).toContain('  ````text\n  body:\n  ```\n  not the end\n  ```\n  ````');
  });

  it('says so when nothing failed', () => {
    const text = renderSummaryMarkdown(makeReport([makeCheck('system.all.good', everywhere({ status: 'passed' }))]));
    expect(text).toContain('None: every check passed, was skipped, or failed as expected.');
  });
});
