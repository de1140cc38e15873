/**
 * The two check levels as the reports name them (DESIGN.md, Two levels): spec-level checks give a
 * target's conformance, docker-level checks its Docker compatibility. Reports show both side by side.
 */
import type { CheckLevel, CheckReport } from './types.ts';

export const CHECK_LEVELS: readonly CheckLevel[] = ['spec', 'docker'];

/** What each level's figure is called in every report. */
export const LEVEL_FIGURE: Record<CheckLevel, string> = { spec: 'conformance', docker: 'Docker compatibility' };

/** The figure over every check, both levels: never called conformance, which is the spec checks' alone. */
export const OVERALL_FIGURE = 'overall';
export const OVERALL_HEAD = `${OVERALL_FIGURE} (all checks)`;

/** A report written before levels has none: its checks were all spec-level. */
export function levelOf(check: Pick<CheckReport, 'level'>): CheckLevel {
  return check.level ?? 'spec';
}

/** A level's figure and what it counts, as a column or row heading: `conformance (spec checks)`. */
export function levelHead(level: CheckLevel): string {
  return `${LEVEL_FIGURE[level]} (${level} checks)`;
}
