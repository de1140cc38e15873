/**
 * `shipshape merge`: the reports of the shards of one run (`run --shard I/N`, each on its own report
 * directory) back into the one report an unsharded run writes. vitest shards (version, file) pairs, so
 * one check's versions may come from several shards: results are joined per check and version.
 */
import { compareVersions } from '../versions.ts';
import { summarize } from './summarize.ts';
import type { CheckReport, Report } from './types.ts';

export class MergeError extends Error {}

export function mergeReports(reports: Report[]): Report {
  const [first, ...rest] = reports;
  if (!first) throw new MergeError('nothing to merge');
  for (const other of rest) {
    if (other.target.url !== first.target.url || other.seed !== first.seed) {
      throw new MergeError(`the reports are not shards of one run: ${first.target.url} seed ${first.seed} vs ${other.target.url} seed ${other.seed}`);
    }
  }
  const shards = reports.map((report) => report.shard).filter((shard): shard is string => shard !== undefined);
  const total = Number(shards[0]?.split('/')[1]);
  if (shards.length > 0 && (shards.length !== reports.length || new Set(shards).size !== total || shards.length !== total)) {
    throw new MergeError(`expected the ${total} shards of one run once each, got ${shards.join(', ')}`);
  }
  const versions = [...new Set(reports.flatMap((report) => report.versions))].sort(compareVersions);
  const checks = new Map<string, CheckReport>();
  for (const check of reports.flatMap((report) => report.checks)) {
    const joined = checks.get(check.id);
    checks.set(check.id, joined ? { ...joined, results: { ...joined.results, ...check.results } } : check);
  }
  const merged = [...checks.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((check) => ({ ...check, results: Object.fromEntries(Object.entries(check.results).sort(([a], [b]) => compareVersions(a, b))) }));
  const startedAt = reports.map((report) => report.startedAt).sort()[0] ?? first.startedAt;
  const finishedAt = reports.map((report) => report.finishedAt).sort().at(-1) ?? first.finishedAt;
  const timings = reports.map((report) => report.timing).filter((timing) => timing !== undefined);
  return {
    tool: first.tool,
    target: first.target,
    startedAt,
    finishedAt,
    durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
    seed: first.seed,
    versions,
    checks: merged,
    summary: summarize(merged, versions),
    ...(timings.length > 0 && {
      timing: {
        suiteWallMs: Math.max(...timings.map((timing) => timing.suiteWallMs)),
        checkMs: timings.reduce((sum, timing) => sum + timing.checkMs, 0),
        targetMs: timings.reduce((sum, timing) => sum + timing.targetMs, 0),
      },
    }),
  };
}
