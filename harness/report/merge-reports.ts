/**
 * `shipshape merge`: the reports of the shards of one run (`run --shard I/N`, each on its own report
 * directory) back into the one report an unsharded run writes. vitest shards (version, file) pairs, so
 * one check's versions may come from several shards: results are joined per check and version.
 */
import { compareVersions } from '../../protocol/versions.ts';
import { summarize } from './summarize.ts';
import type { CheckReport, Report, VersionResult } from './types.ts';

export class MergeError extends Error {}

/** How a report's message begins when a check owed a result at a version and none came. */
export const NO_RESULT = 'no result: ';

/** A check × version result that went missing, as every report shows it: an error with the reason. */
export function missingResult(why: string): VersionResult {
  return { status: 'error', message: `${NO_RESULT}${why}` };
}

/** What a shard's daemon was: its kind, dialect and build (GET /version), not where it listened. */
function daemonOf(report: Report): string {
  const { kind, dialect, server } = report.target;
  return `${kind} ${dialect} daemon${server?.Version ? ` ${server.Version} (API ${server.ApiVersion})` : ''}`;
}

export function mergeReports(reports: Report[]): Report {
  const [first, ...rest] = reports;
  if (!first) throw new MergeError('nothing to merge');
  const versions = [...first.versions].sort(compareVersions);
  for (const other of rest) {
    // Each job of a CI matrix may start a daemon of its own: the shards' daemons need not be one, but one build, checked alike.
    if (other.seed !== first.seed) throw new MergeError(`the reports are not shards of one run: seed ${first.seed} vs ${other.seed} (give every shard the same --seed)`);
    if (daemonOf(other) !== daemonOf(first)) throw new MergeError(`the reports are not shards of one run: ${daemonOf(first)} vs ${daemonOf(other)}`);
    if ([...other.versions].sort(compareVersions).join() !== versions.join()) throw new MergeError(`the reports are not shards of one run: versions ${versions.join(', ')} vs ${other.versions.join(', ')}`);
    if (other.selection?.join() !== first.selection?.join()) throw new MergeError('the reports are not shards of one run: they select different checks (run every shard with the same shipshape and --only)');
  }
  const shards = reports.map((report) => report.shard).filter((shard): shard is string => shard !== undefined);
  const total = Number(shards[0]?.split('/')[1]);
  if (shards.length > 0 && (shards.length !== reports.length || new Set(shards).size !== total || shards.length !== total)) {
    throw new MergeError(`expected the ${total} shards of one run once each, got ${shards.join(', ')}`);
  }
  const checks = new Map<string, CheckReport>();
  const holder = new Map<string, string>();
  for (const report of reports) {
    for (const check of report.checks) {
      for (const version of Object.keys(check.results)) {
        // vitest's own sharding once gave two shards the same (version, file) and none the next one (version-file-shards.ts)
        const other = holder.get(`${check.id} ${version}`);
        if (other !== undefined) throw new MergeError(`${check.id} at ${version} is in two reports (${other} and ${report.shard ?? 'unsharded'}): the shards did not split the run alike`);
        holder.set(`${check.id} ${version}`, report.shard ?? 'unsharded');
      }
      const joined = checks.get(check.id);
      checks.set(check.id, joined ? { ...joined, results: { ...joined.results, ...check.results } } : check);
    }
  }
  const unreported = first.selection?.filter((id) => !checks.has(id)) ?? [];
  if (unreported.length > 0) throw new MergeError(`no shard reported ${unreported.join(', ')}, which the run selected: the shards did not split the run alike`);
  // A merged report accounts for every check at every version of the run: a result no shard holds is an error, never a gap.
  const merged = [...checks.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((check) => ({
      ...check,
      results: Object.fromEntries(versions.map((version) => [version, check.results[version] ?? missingResult(`no shard reported ${check.id} at ${version}`)])),
    }));
  const startedAt = reports.map((report) => report.startedAt).sort()[0] ?? first.startedAt;
  const finishedAt = reports.map((report) => report.finishedAt).sort().at(-1) ?? first.finishedAt;
  const timings = reports.map((report) => report.timing).filter((timing) => timing !== undefined);
  // One shard cut short makes the merged run cut short: the first cut tells why, with every shard's results not run.
  const cuts = reports.map((report) => report.cutShort).filter((cut) => cut !== undefined).sort((a, b) => a.at.localeCompare(b.at));
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
    ...(cuts[0] && { cutShort: { ...cuts[0], notRun: cuts.reduce((sum, cut) => sum + cut.notRun, 0) } }),
  };
}
