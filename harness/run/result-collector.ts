/**
 * A vitest reporter that gathers each check × version result into the report's shape. It keys on the
 * check metadata the `check()` wrapper attached, so anything that is not a check is ignored.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckDescriptor } from '../check.ts';
import type { CheckReport, VersionResult } from '../report/types.ts';
import { missingResult } from '../report/merge-reports.ts';
import { compareVersions } from '../../protocol/versions.ts';
import type { RunningCheck, TargetLoss } from './target-watch.ts';
import { CUT_OFF } from './cut-short.ts';

export const VERSION_PROJECT_PREFIX = 'v';

/** One suite file at one version, as the run owes results for it: its selected checks. */
export interface OwedResults {
  version: string;
  /** relative to the repository, for messages */
  file: string;
  moduleId: string;
  checks: readonly CheckDescriptor[];
}

function moduleKey(version: string, moduleId: string): string {
  return `${version} ${moduleId}`;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

export class ResultCollector implements Reporter {
  private readonly checks = new Map<string, CheckReport>();
  /** failures outside any check: a suite file that does not load, an unhandled rejection */
  readonly runErrors: string[] = [];
  /** summed over checks: time inside check functions, and the part of it spent waiting on the target */
  readonly timing = { checkMs: 0, targetMs: 0 };
  /** each suite file vitest ran, per version: what went wrong loading it and which checks it declared */
  private readonly modules = new Map<string, { errors: string[]; finished: boolean; declared: Set<string> }>();
  /** the checks started and not yet reported, by version and id */
  private readonly inFlight = new Map<string, RunningCheck>();
  /** when each check started and ended (Date.now()), by version and id */
  private readonly startedAt = new Map<string, number>();
  private readonly endedAt = new Map<string, number>();
  /** set once the run is cut short: vitest then reports the checks it stops as skipped, which they were not */
  private cut = false;
  /** the results vitest reported that the run keeps */
  reported = 0;
  /** the last check to report */
  lastFinished: RunningCheck | undefined;

  constructor(private readonly selected: (id: string) => boolean = () => true) {}

  onTestCaseReady(testCase: TestCase): void {
    const id = testCase.meta().check?.id;
    if (id === undefined || !this.selected(id)) return;
    const version = testCase.project.name.slice(VERSION_PROJECT_PREFIX.length);
    this.inFlight.set(moduleKey(version, id), { id, version });
    this.startedAt.set(moduleKey(version, id), Date.now());
  }

  /**
   * The target went away at `loss.at`. A check that started after that and ended in an error
   * `isConsequence` recognises (it could not connect) never reached the target: not run either, it
   * says `notRun` like the checks that never started. One running then (`loss.running`, the check whose
   * failure was the first sign among them) or ending after it, failed or in error, may have ended so
   * for that (a stream cut off): an `error` whose message says so first (CUT_OFF), so no failure is
   * blamed on the target for it. Returns how many were not run.
   */
  afterTargetLost(loss: Pick<TargetLoss, 'at' | 'running'>, notRun: string, isConsequence: (message: string) => boolean): number {
    const since = loss.at.getTime();
    const running = new Set(loss.running.map(({ id, version }) => moduleKey(version, id)));
    let count = 0;
    for (const check of this.checks.values()) {
      for (const [version, result] of Object.entries(check.results)) {
        const key = moduleKey(version, check.id);
        const started = this.startedAt.get(key) ?? 0;
        const ended = this.endedAt.get(key) ?? 0;
        if ((ended < since && !running.has(key)) || (result.status !== 'failed' && result.status !== 'error')) continue;
        if (started >= since && result.status === 'error' && isConsequence(result.message ?? '')) {
          check.results[version] = { status: 'error', message: notRun };
          count += 1;
        } else {
          check.results[version] = { ...result, status: 'error', message: `${CUT_OFF}${result.message ?? ''}` };
        }
      }
    }
    return count;
  }

  /** The checks running now, those that started first first. */
  running(): RunningCheck[] {
    return [...this.inFlight.values()];
  }

  /** The run is being cut short: a check stopped from now on is not run, not skipped (recordMissing says why). */
  markCut(): void {
    this.cut = true;
  }

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta();
    const descriptor = meta.check;
    if (!descriptor || !this.selected(descriptor.id)) return;
    const version = testCase.project.name.slice(VERSION_PROJECT_PREFIX.length);
    const result = testCase.result();
    this.inFlight.delete(moduleKey(version, descriptor.id));
    this.endedAt.set(moduleKey(version, descriptor.id), Date.now());
    // A check skips itself with a reason (the wrapper keeps it); vitest's cancel skips the checks it stops without one, or leaves them pending.
    if (this.cut && (result.state === 'pending' || (result.state === 'skipped' && meta.skipReason === undefined))) return;
    this.reported += 1;
    this.lastFinished = { id: descriptor.id, version };
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
          ...(meta.exchanges?.length ? { exchanges: meta.exchanges } : {}),
        };
        break;
      default:
        entry = { status: 'error', message: 'did not run to the end (the run was interrupted)' };
    }
    if (meta.attempts) entry = withAttempts(entry, meta.attempts);
    this.reportOf(descriptor).results[version] = entry;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const module of testModules) {
      for (const error of module.errors()) this.runErrors.push(`${module.moduleId}: ${error.message}`);
      this.modules.set(moduleKey(module.project.name.slice(VERSION_PROJECT_PREFIX.length), module.moduleId), {
        errors: module.errors().map((error) => error.message),
        finished: module.state() !== 'pending' && module.state() !== 'queued',
        declared: new Set([...module.children.allTests()].flatMap((testCase) => testCase.meta().check?.id ?? [])),
      });
    }
    for (const error of unhandledErrors) this.runErrors.push(`unhandled: ${error.message ?? String(error)}`);
  }

  /**
   * Every check the run owed a result and did not get one from gets an `error` saying why, so that no
   * result vanishes from a report: a suite file that did not load, a worker that exited mid-file, a file
   * vitest never ran. `owed` comes from the collection before the run (run-suite's ledger). A run cut
   * short gives `notRun` as the message of every result it did not get. Returns how many were missing.
   */
  recordMissing(owed: readonly OwedResults[], notRun?: string): number {
    let missing = 0;
    for (const { version, file, moduleId, checks } of owed) {
      for (const descriptor of checks) {
        const report = this.reportOf(descriptor);
        if (report.results[version]) continue;
        missing += 1;
        report.results[version] = notRun === undefined ? missingResult(this.whyMissing(version, file, moduleId, descriptor.id)) : { status: 'error', message: notRun };
      }
    }
    return missing;
  }

  private whyMissing(version: string, file: string, moduleId: string, id: string): string {
    const module = this.modules.get(moduleKey(version, moduleId));
    const unhandled = this.runErrors.find((error) => error.startsWith('unhandled: '));
    const during = unhandled ? ` (the run's first unhandled error: ${firstLine(unhandled.slice('unhandled: '.length))})` : '';
    if (!module) return `vitest did not run ${file} at ${version}${during}`;
    const [loadError] = module.errors;
    if (loadError !== undefined) return `${file} failed at ${version}: ${firstLine(loadError)}`;
    if (!module.finished) return `${file} stopped at ${version} before this check reported: its worker exited or the run was cut short${during}`;
    if (!module.declared.has(id)) return `${file} did not declare ${id} at ${version}`;
    return `${file} finished at ${version} without reporting this check${during}`;
  }

  private reportOf(descriptor: CheckDescriptor): CheckReport {
    let report = this.checks.get(descriptor.id);
    if (!report) {
      report = {
        id: descriptor.id,
        title: descriptor.title,
        area: descriptor.area,
        spec: descriptor.spec,
        level: descriptor.level,
        ...(descriptor.seen ? { seen: descriptor.seen } : {}),
        ...(descriptor.quote?.length ? { quote: [...descriptor.quote] } : {}),
        since: descriptor.since,
        ...(descriptor.until ? { until: descriptor.until } : {}),
        tags: [...descriptor.tags],
        ...(descriptor.requires ? { requires: [...descriptor.requires] } : {}),
        ...(descriptor.covers ? { covers: [...descriptor.covers] } : {}),
        results: {},
      };
      this.checks.set(descriptor.id, report);
    }
    return report;
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
