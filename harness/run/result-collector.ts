/**
 * A vitest reporter that gathers each check × version result into the report's shape. It keys on the
 * check metadata the `check()` wrapper attached, so anything that is not a check is ignored.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckReport, VersionResult } from '../report/types.ts';
import { compareVersions } from '../versions.ts';

export const VERSION_PROJECT_PREFIX = 'v';

export class ResultCollector implements Reporter {
  private readonly checks = new Map<string, CheckReport>();
  /** failures outside any check: a suite file that does not load, an unhandled rejection */
  readonly runErrors: string[] = [];
  /** summed over checks: time inside check functions, and the part of it spent waiting on the target */
  readonly timing = { checkMs: 0, targetMs: 0 };

  constructor(private readonly selected: (id: string) => boolean = () => true) {}

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta();
    const descriptor = meta.check;
    if (!descriptor || !this.selected(descriptor.id)) return;
    const version = testCase.project.name.slice(VERSION_PROJECT_PREFIX.length);
    const result = testCase.result();
    const durationMs = testCase.diagnostic()?.duration;
    this.timing.checkMs += durationMs ?? 0;
    this.timing.targetMs += meta.targetMs ?? 0;
    let entry: VersionResult;
    switch (result.state) {
      case 'passed':
        entry = { status: 'passed', durationMs };
        break;
      case 'skipped':
        entry = { status: 'skipped', reason: meta.skipReason ?? result.note ?? 'skipped' };
        break;
      case 'failed':
        entry = {
          status: meta.outcome ?? 'error',
          durationMs,
          message: result.errors.map((error) => error.message).join('\n') || 'failed without a message',
        };
        break;
      default:
        entry = { status: 'error', message: 'did not run to the end (the run was interrupted)' };
    }
    if (meta.attempts) entry = withAttempts(entry, meta.attempts);
    let report = this.checks.get(descriptor.id);
    if (!report) {
      report = {
        id: descriptor.id,
        title: descriptor.title,
        area: descriptor.area,
        spec: descriptor.spec,
        level: descriptor.level,
        ...(descriptor.seen ? { seen: descriptor.seen } : {}),
        since: descriptor.since,
        ...(descriptor.until ? { until: descriptor.until } : {}),
        tags: [...descriptor.tags],
        ...(descriptor.requires ? { requires: [...descriptor.requires] } : {}),
        ...(descriptor.covers ? { covers: [...descriptor.covers] } : {}),
        results: {},
      };
      this.checks.set(descriptor.id, report);
    }
    report.results[version] = entry;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const module of testModules) {
      for (const error of module.errors()) this.runErrors.push(`${module.moduleId}: ${error.message}`);
    }
    for (const error of unhandledErrors) this.runErrors.push(`unhandled: ${error.message ?? String(error)}`);
  }

  /** The checks, by id, each with one result per version of the run (sorted for stable reports). */
  results(): CheckReport[] {
    return [...this.checks.values()]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((check) => ({
        ...check,
        results: Object.fromEntries(Object.entries(check.results).sort(([a], [b]) => compareVersions(a, b))),
      }));
  }
}

/** A repeated check: its attempts, and when they differ, flaky, said first in the message so every report format shows it. */
export function withAttempts(entry: VersionResult, attempts: NonNullable<VersionResult['attempts']>): VersionResult {
  if (new Set(attempts).size === 1) return { ...entry, attempts };
  const note = `flaky: the ${attempts.length} attempts ended ${attempts.join(', ')}`;
  return { ...entry, attempts, flaky: true, message: entry.message ? `${note}\n${entry.message}` : note };
}
