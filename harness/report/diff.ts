/**
 * `shipshape diff A.json B.json`: per version both reports ran, every check whose status differs,
 * sorted into regressions, fixes, other changes, new and removed checks.
 */
import { compareVersions } from '../../protocol/versions.ts';
import { summaryAt } from './summarize.ts';
import { levelOf } from './check-levels.ts';
import { resultDetail } from './report-view.ts';
import { renderDiffMarkdown } from './render-diff-markdown.ts';
import { renderDiffHtml } from './render-diff-html.ts';
import type { ChangeKind, CheckChange, DiffStatus, ReportDiff, ReportLabel, VersionDiff } from './diff-model.ts';
import type { CheckReport, Report } from './types.ts';

export type { ReportDiff } from './diff-model.ts';

/** What the gate accepts: a regression leaves this set for failed or error. */
const GREEN: ReadonlySet<DiffStatus> = new Set(['passed', 'unexpected-pass', 'expected-failure']);
/** What does not conform (or could not be judged): a fix leaves this set for a pass. */
const FAILING: ReadonlySet<DiffStatus> = new Set(['failed', 'error', 'expected-failure']);
const PASSING: ReadonlySet<DiffStatus> = new Set(['passed', 'unexpected-pass']);
const BROKEN: ReadonlySet<DiffStatus> = new Set(['failed', 'error']);

export function diffReports(a: Report, b: Report): ReportDiff {
  const inB = new Set(b.versions);
  const inA = new Set(a.versions);
  const comparedVersions = a.versions.filter((version) => inB.has(version)).sort(compareVersions);
  const checksA = new Map(a.checks.map((check) => [check.id, check]));
  const checksB = new Map(b.checks.map((check) => [check.id, check]));
  const ids = [...new Set([...checksA.keys(), ...checksB.keys()])].sort();

  const versions = comparedVersions
    .map((version): VersionDiff => {
      const diff: VersionDiff = {
        version,
        summary: { a: summaryAt(a.checks, version), b: summaryAt(b.checks, version) },
        regressions: [], fixes: [], changes: [], added: [], removed: [],
      };
      for (const id of ids) {
        const change = compare(checksA.get(id), checksB.get(id), version);
        if (change) diff[change.kind].push(change.change);
      }
      return diff;
    })
    .filter((diff) => diff.regressions.length + diff.fixes.length + diff.changes.length + diff.added.length + diff.removed.length > 0);

  const onlyInA = a.versions.filter((version) => !inB.has(version)).sort(compareVersions);
  const onlyInB = b.versions.filter((version) => !inA.has(version)).sort(compareVersions);
  return {
    a: label(a),
    b: label(b),
    comparedVersions,
    onlyInA,
    onlyInB,
    versions,
    empty: versions.length === 0 && onlyInA.length === 0 && onlyInB.length === 0,
  };
}

export function renderDiff(diff: ReportDiff, format: 'md' | 'html' | 'json'): string {
  switch (format) {
    case 'md':
      return renderDiffMarkdown(diff);
    case 'html':
      return renderDiffHtml(diff);
    case 'json':
      return `${JSON.stringify(diff, null, 2)}\n`;
  }
}

function compare(a: CheckReport | undefined, b: CheckReport | undefined, version: string): { kind: ChangeKind; change: CheckChange } | undefined {
  const resultA = a?.results[version];
  const resultB = b?.results[version];
  const from: DiffStatus = resultA?.status ?? 'absent';
  const to: DiffStatus = resultB?.status ?? 'absent';
  const check = b ?? a;
  if (!check || from === to) return undefined;
  const detail = (resultB && resultDetail(resultB)) ?? (resultA && resultDetail(resultA));
  const change: CheckChange = { id: check.id, area: check.area, title: check.title, level: levelOf(check), from, to, ...(detail ? { detail } : {}) };
  return { kind: kindOf(a !== undefined, b !== undefined, from, to), change };
}

function kindOf(inA: boolean, inB: boolean, from: DiffStatus, to: DiffStatus): ChangeKind {
  if (!inA) return 'added';
  if (!inB) return 'removed';
  if (GREEN.has(from) && BROKEN.has(to)) return 'regressions';
  if (FAILING.has(from) && PASSING.has(to)) return 'fixes';
  return 'changes';
}

function label(report: Report): ReportLabel {
  const server = report.target.server;
  const serverText = server?.Version ? `server ${server.Version}${server.ApiVersion ? ` API ${server.ApiVersion}` : ''}` : undefined;
  return { url: report.target.url, kind: report.target.kind, ...(serverText ? { server: serverText } : {}), startedAt: report.startedAt };
}
