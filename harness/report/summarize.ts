/**
 * Per-version counts and conformance, as report.json's `summary` holds them, also per check level.
 * The same counting serves any slice of results (one area at one version, in report.html and summary.md).
 */
import { CHECK_LEVELS, levelOf } from './check-levels.ts';
import type { CheckLevel, CheckReport, ResultCounts, VersionResult, VersionSummary } from './types.ts';

export function countResults(results: Iterable<VersionResult>): ResultCounts {
  let passed = 0;
  let failed = 0;
  let error = 0;
  let skipped = 0;
  let expectedFailures = 0;
  let unexpectedPasses = 0;
  for (const { status } of results) {
    switch (status) {
      case 'passed':
        passed += 1;
        break;
      // The target did conform, so an unexpected pass counts as passed; it is also counted apart
      // because it fails the gate until its expectation is removed.
      case 'unexpected-pass':
        passed += 1;
        unexpectedPasses += 1;
        break;
      case 'failed':
        failed += 1;
        break;
      case 'error':
        error += 1;
        break;
      case 'skipped':
        skipped += 1;
        break;
      case 'expected-failure':
        expectedFailures += 1;
        break;
    }
  }
  const judged = passed + failed + error + expectedFailures;
  // Nothing judged (every check skipped, or none ran) means nothing failed to conform: 1, not NaN,
  // which the schema's 0..1 number would reject. Readers tell "nothing ran" from the counts.
  const conformance = judged === 0 ? 1 : passed / judged;
  return { passed, failed, error, skipped, expectedFailures, unexpectedPasses, conformance };
}

/** One summary per version of the run; a check with no result at a version is not counted there. */
export function summarize(checks: CheckReport[], versions: string[]): Record<string, VersionSummary> {
  return Object.fromEntries(versions.map((version) => [version, summaryAt(checks, version)]));
}

/** A version's summary as this tool writes it: both levels always, zeros where a level has no check. */
export type LevelledSummary = VersionSummary & { levels: Record<CheckLevel, ResultCounts> };

/** The counts of the checks' results at one version, all together and per level. */
export function summaryAt(checks: CheckReport[], version: string): LevelledSummary {
  const levels = Object.fromEntries(CHECK_LEVELS.map((level) => [level, countResults(resultsAt(checks.filter((check) => levelOf(check) === level), version))])) as Record<CheckLevel, ResultCounts>;
  return { ...countResults(resultsAt(checks, version)), levels };
}

export function resultsAt(checks: Iterable<CheckReport>, version: string): VersionResult[] {
  const results: VersionResult[] = [];
  for (const check of checks) {
    const result = check.results[version];
    if (result) results.push(result);
  }
  return results;
}
