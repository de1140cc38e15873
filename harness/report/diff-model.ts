/**
 * What `shipshape diff` finds between two reports, and how its renderers (md, html) group it. Each
 * check whose status differs at a version lands in exactly one kind, so nothing that changed is lost.
 */
import { CHECK_LEVELS } from './check-levels.ts';
import type { LevelledSummary } from './summarize.ts';
import type { CheckLevel, ResultStatus } from './types.ts';

/** `absent`: the check exists in that report but has no result at this version. */
export type DiffStatus = ResultStatus | 'absent';

export interface CheckChange {
  id: string;
  area: string;
  title: string;
  /** as B gives it, else as A did */
  level: CheckLevel;
  from: DiffStatus;
  to: DiffStatus;
  /** why, as B tells it (its failure message or reason), else as A did */
  detail?: string;
}

export type ChangeKind = 'regressions' | 'fixes' | 'changes' | 'added' | 'removed';

export type VersionDiff = { version: string; summary: { a: LevelledSummary; b: LevelledSummary } } & Record<ChangeKind, CheckChange[]>;

export interface ReportLabel {
  url: string;
  kind: 'reference' | 'live';
  server?: string;
  startedAt: string;
}

export interface ReportDiff {
  a: ReportLabel;
  b: ReportLabel;
  /** the versions both reports ran */
  comparedVersions: string[];
  onlyInA: string[];
  onlyInB: string[];
  /** the compared versions where anything differs, oldest first */
  versions: VersionDiff[];
  empty: boolean;
}

export const CHANGE_KINDS: { kind: ChangeKind; title: string; meaning: string }[] = [
  { kind: 'regressions', title: 'Regressions', meaning: 'passing (or an expected failure) in A, failed or error in B' },
  { kind: 'fixes', title: 'Fixes', meaning: 'failing in A, passing in B' },
  { kind: 'changes', title: 'Other status changes', meaning: 'any other difference of status' },
  { kind: 'added', title: 'New checks', meaning: 'in B, not in A' },
  { kind: 'removed', title: 'Removed checks', meaning: 'in A, not in B' },
];

/** How many changes of each kind, over all versions; with `level`, of that level's checks only. */
export function changeTotals(diff: ReportDiff | VersionDiff[], level?: CheckLevel): Record<ChangeKind, number> {
  const totals: Record<ChangeKind, number> = { regressions: 0, fixes: 0, changes: 0, added: 0, removed: 0 };
  for (const version of Array.isArray(diff) ? diff : diff.versions) {
    for (const { kind } of CHANGE_KINDS) totals[kind] += version[kind].filter((change) => level === undefined || change.level === level).length;
  }
  return totals;
}

/** The totals per level, both levels always. */
export function changeTotalsByLevel(diff: ReportDiff | VersionDiff[]): Record<CheckLevel, Record<ChangeKind, number>> {
  return Object.fromEntries(CHECK_LEVELS.map((level) => [level, changeTotals(diff, level)])) as Record<CheckLevel, Record<ChangeKind, number>>;
}

export function labelText(label: ReportLabel): string {
  return `${label.url} (${label.kind}${label.server ? `, ${label.server}` : ''}), run ${label.startedAt}`;
}
