/**
 * A certificate's verdict from report.json and a check list alone. Every check of the list owes a
 * result at each claimed version it applies to. The target conforms when every spec-level one passed
 * (a skip for a capability the target lacks is shown, not counted against it) and none failed, erred
 * or is missing; docker-level results give Docker compatibility beside it and never decide it.
 */
import type { CheckDescriptor, CheckLevel } from '../check.ts';
import { appliesAt, type ApiVersion } from '../../protocol/versions.ts';
import type { Report } from '../report/types.ts';

/** A result the verdict holds against the target: which check, at which version, and what it said. */
export interface MissedResult {
  id: string;
  version: ApiVersion;
  message: string;
}

export interface LevelTally {
  owed: number;
  passed: number;
  skipped: number;
  failed: MissedResult[];
  missing: MissedResult[];
}

export function tallyLevel(report: Report, checks: readonly CheckDescriptor[], versions: readonly ApiVersion[], level: CheckLevel): LevelTally {
  const byId = new Map(report.checks.map((check) => [check.id, check]));
  const tally: LevelTally = { owed: 0, passed: 0, skipped: 0, failed: [], missing: [] };
  for (const check of checks.filter((listed) => listed.level === level)) {
    for (const version of versions.filter((claimed) => appliesAt(claimed, check.since, check.until))) {
      tally.owed++;
      const result = byId.get(check.id)?.results[version];
      if (result === undefined) tally.missing.push({ id: check.id, version, message: 'no result' });
      else if (result.status === 'passed') tally.passed++;
      else if (result.status === 'skipped') tally.skipped++;
      else tally.failed.push({ id: check.id, version, message: `${result.status}: ${result.message ?? result.reason ?? ''}`.trim() });
    }
  }
  return tally;
}

export function conforms(spec: LevelTally): boolean {
  return spec.owed > 0 && spec.failed.length === 0 && spec.missing.length === 0;
}

/** `1.18–1.25`, or the one version. */
export function versionSpan(versions: readonly ApiVersion[]): string {
  return versions.length > 1 ? `${versions[0]}–${versions[versions.length - 1]}` : (versions[0] ?? '');
}

/** One line: the spec results and what became of them. */
export function tallyText(tally: LevelTally): string {
  const parts = [`${tally.passed} of ${tally.owed} passed`];
  if (tally.skipped > 0) parts.push(`${tally.skipped} skipped (a capability the target lacks)`);
  if (tally.failed.length > 0) parts.push(`${tally.failed.length} failed or erred`);
  if (tally.missing.length > 0) parts.push(`${tally.missing.length} missing`);
  return parts.join(', ');
}

/** What makes a run no certification whatever its results: it was narrowed, judged with expectations, sharded, or cut short. */
export function narrowedRun(report: Report): string[] {
  const problems: string[] = [];
  if (report.shard) problems.push(`it is shard ${report.shard} of a run`);
  if (report.cutShort) problems.push(`it was cut short: ${report.cutShort.message}`);
  if (report.profile === 'quick') problems.push('it is a quick run (run --profile quick), a sample of the suite');
  const judged = report.checks.flatMap((check) => Object.values(check.results)).filter((result) => result.status === 'expected-failure' || result.status === 'unexpected-pass');
  if (judged.length > 0) problems.push(`an expectations file judged ${judged.length} result(s)`);
  return problems;
}
