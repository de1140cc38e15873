/**
 * junit.xml for CI test tabs: one <testsuite> per API version (`v1.24`), one <testcase> per check at
 * that version. An expected failure is a pass with a note, since the gate accepts it; an unexpected
 * pass is a failure, since the gate rejects it until the expectation is removed. Each testcase has a
 * `level` property (spec or docker), and each testsuite the conformance and Docker compatibility of
 * its version as properties.
 */
import { escapeAttribute, escapeText } from './markup-escape.ts';
import { compareVersions } from '../../protocol/versions.ts';
import { countResults, resultsAt, summaryAt } from './summarize.ts';
import { CHECK_LEVELS, levelOf } from './check-levels.ts';
import { conformanceText } from './report-view.ts';
import { firstLine, truncate } from './truncate-text.ts';
import type { CheckLevel, CheckReport, Report, ResultCounts, VersionResult } from './types.ts';

/** The testsuite properties that give a version's figure per level (`–` where no check of the level was judged). */
const SUITE_PROPERTY: Record<CheckLevel, string> = { spec: 'conformance', docker: 'docker-compatibility' };

/** CI tools show the message attribute as a one-line headline; the element's text has it all. */
const HEADLINE_CHARS = 300;

export function renderJunit(report: Report): string {
  const versions = [...report.versions].sort(compareVersions);
  const checks = [...report.checks].sort((a, b) => a.id.localeCompare(b.id));
  const suites = versions.map((version) => testSuite(report, checks, version));
  const totals = countResults(versions.flatMap((version) => resultsAt(checks, version)));
  const attributes = junitCounts(totals, sumDurations(versions.flatMap((version) => resultsAt(checks, version))));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="shipshape" ${attributes}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function testSuite(report: Report, checks: CheckReport[], version: string): string {
  const results = resultsAt(checks, version);
  const { levels } = summaryAt(checks, version);
  const cases = checks.flatMap((check) => {
    const result = check.results[version];
    return result ? [testCase(check, result)] : [];
  });
  return [
    `  <testsuite name="v${escapeAttribute(version)}" ${junitCounts(countResults(results), sumDurations(results))} timestamp="${escapeAttribute(report.startedAt)}">`,
    '    <properties>',
    `      <property name="target" value="${escapeAttribute(report.target.url)}"/>`,
    `      <property name="seed" value="${report.seed}"/>`,
    ...CHECK_LEVELS.map((level) => `      <property name="${SUITE_PROPERTY[level]}" value="${conformanceText(levels[level])}"/>`),
    '    </properties>',
    ...cases,
    '  </testsuite>',
  ].join('\n');
}

function testCase(check: CheckReport, result: VersionResult): string {
  const open = `    <testcase classname="${escapeAttribute(check.area)}" name="${escapeAttribute(check.id)}" time="${seconds(result.durationMs ?? 0)}"`;
  // properties come first in a testcase, as pytest and the JUnit plugins that read them expect
  const properties = `      <properties><property name="level" value="${levelOf(check)}"/>${check.seen ? `<property name="seen" value="${escapeAttribute(check.seen)}"/>` : ''}</properties>`;
  const ended = outcome(result);
  return `${open}>\n${properties}\n${ended ? `      ${ended}\n` : ''}    </testcase>`;
}

/** The element that tells how the testcase ended; none for a pass. */
function outcome(result: VersionResult): string {
  const message = result.message ?? '';
  switch (result.status) {
    case 'passed':
      return '';
    case 'skipped':
      return `<skipped message="${escapeAttribute(result.reason ?? 'skipped')}"/>`;
    case 'failed':
    case 'unexpected-pass':
      return `<failure ${headline(message)} type="${result.status}">${escapeText(message)}</failure>`;
    case 'error':
      return `<error ${headline(message)} type="error">${escapeText(message)}</error>`;
    case 'expected-failure': {
      const note = `expected failure${result.reason ? ` (${result.reason})` : ''}${message ? `:\n${message}` : ''}`;
      return `<system-out>${escapeText(note)}</system-out>`;
    }
  }
}

function headline(message: string): string {
  return `message="${escapeAttribute(truncate(firstLine(message), HEADLINE_CHARS))}"`;
}

/**
 * junit counts: `failures` are the gate's non-conformances (failed and unexpected passes), and an
 * expected failure is one of the passing tests.
 */
function junitCounts(counts: ResultCounts, ms: number): string {
  const tests = counts.passed + counts.failed + counts.error + counts.skipped + (counts.expectedFailures ?? 0);
  const failures = counts.failed + (counts.unexpectedPasses ?? 0);
  return `tests="${tests}" failures="${failures}" errors="${counts.error}" skipped="${counts.skipped}" time="${seconds(ms)}"`;
}

function sumDurations(results: VersionResult[]): number {
  return results.reduce((sum, result) => sum + (result.durationMs ?? 0), 0);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
