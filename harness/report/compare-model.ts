/**
 * `shipshape compare`: several runs (one per implementation) side by side. Rows are the checks grouped
 * by area; columns are target × version. Per area and target, a support level in the manner of MDN's
 * browser-compat-data: `full` when every check that ran there passed, `partial` (naming the checks
 * that did not) when some passed, `none` when none did. Skipped checks and versions a run did not
 * cover do not count; an expected failure is a deviation of the target, so it counts against it.
 * The support is given for all checks, and per check level: conformance (spec-level checks) and
 * Docker compatibility (docker-level checks) apart.
 */
import { compareVersions } from '../../protocol/versions.ts';
import { CHECK_LEVELS, levelOf } from './check-levels.ts';
import type { CheckLevel, Report, ResultStatus } from './types.ts';

export type SupportLevel = 'full' | 'partial' | 'none' | 'not-run';

export interface CompareTarget {
  /** what the column header says: the target and its server version */
  label: string;
  versions: string[];
}

export interface CompareCheck {
  id: string;
  title: string;
  /** as the first report that has the check gives it */
  level: CheckLevel;
  /** per target (in the order given), per version: the status, or absent */
  results: Record<string, ResultStatus | 'absent'>[];
}

export interface AreaSupport {
  level: SupportLevel;
  /** checks with a result that is not a pass at some version, and those versions */
  failing: { id: string; versions: string[] }[];
}

export interface CompareArea {
  area: string;
  checks: CompareCheck[];
  /** per target, in the order given: all the area's checks */
  support: AreaSupport[];
  /** per level, per target: the area's checks of that level only (`not-run` where it has none) */
  levels: Record<CheckLevel, AreaSupport[]>;
}

export interface Comparison {
  targets: CompareTarget[];
  /** every version any run covered, in order */
  versions: string[];
  areas: CompareArea[];
}

const PASSING: readonly ResultStatus[] = ['passed', 'unexpected-pass'];
const NOT_RUN: readonly (ResultStatus | 'absent')[] = ['skipped', 'absent'];

export function targetLabel(report: Report): string {
  const { url, server, dialect } = report.target;
  return server?.Version ? `${url} (${dialect} ${server.Version})` : `${url} (${dialect})`;
}

export function compareReports(reports: Report[]): Comparison {
  const labels = reports.map(targetLabel);
  // Two runs of one target stay apart: the later ones are numbered.
  const targets = reports.map((report, index) => {
    const earlier = labels.slice(0, index).filter((label) => label === labels[index]).length;
    return { label: earlier === 0 ? (labels[index] ?? '') : `${labels[index]} #${earlier + 1}`, versions: report.versions };
  });
  const versions = [...new Set(reports.flatMap((report) => report.versions))].sort(compareVersions);
  const byId = new Map<string, CompareCheck & { area: string }>();
  reports.forEach((report, index) => {
    for (const check of report.checks) {
      const row = byId.get(check.id) ?? { id: check.id, title: check.title, level: levelOf(check), area: check.area, results: reports.map(absentThroughout) };
      row.results[index] = Object.fromEntries(report.versions.map((version) => [version, check.results[version]?.status ?? 'absent']));
      byId.set(check.id, row);
    }
  });
  const areas = new Map<string, CompareCheck[]>();
  for (const { area, ...check } of [...byId.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    areas.set(area, [...(areas.get(area) ?? []), check]);
  }
  return {
    targets,
    versions,
    areas: [...areas.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([area, checks]) => ({
      area,
      checks,
      support: targets.map((_, index) => supportOf(checks, index)),
      levels: Object.fromEntries(CHECK_LEVELS.map((level) => {
        const ofLevel = checks.filter((check) => check.level === level);
        return [level, targets.map((_, index) => supportOf(ofLevel, index))];
      })) as Record<CheckLevel, AreaSupport[]>,
    })),
  };
}

/** A run that lacks a check: absent at each of its versions. */
function absentThroughout(report: Report): Record<string, 'absent'> {
  return Object.fromEntries(report.versions.map((version) => [version, 'absent' as const]));
}

function supportOf(checks: CompareCheck[], target: number): AreaSupport {
  let passes = 0;
  const failing: AreaSupport['failing'] = [];
  for (const check of checks) {
    const ran = Object.entries(check.results[target] ?? {}).filter(([, status]) => !NOT_RUN.includes(status));
    passes += ran.filter(([, status]) => PASSING.includes(status as ResultStatus)).length;
    const failedAt = ran.filter(([, status]) => !PASSING.includes(status as ResultStatus)).map(([version]) => version);
    if (failedAt.length > 0) failing.push({ id: check.id, versions: failedAt });
  }
  const level: SupportLevel = passes === 0 && failing.length === 0 ? 'not-run' : failing.length === 0 ? 'full' : passes === 0 ? 'none' : 'partial';
  return { level, failing };
}
