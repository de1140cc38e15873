/**
 * How each status reads in the rendered reports: a text symbol as well as a colour, so a matrix
 * stays legible in print, to colour-blind readers and in plain-text diffs.
 */
import type { ResultStatus } from './types.ts';

export const STATUSES: readonly ResultStatus[] = ['passed', 'failed', 'error', 'skipped', 'expected-failure', 'unexpected-pass'];

export const STATUS_SYMBOL: Record<ResultStatus, string> = {
  passed: '✓',
  failed: '✗',
  error: '⚠',
  skipped: '–',
  'expected-failure': 'xf',
  'unexpected-pass': 'XP',
};

export const STATUS_LABEL: Record<ResultStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
  skipped: 'skipped',
  'expected-failure': 'expected failure',
  'unexpected-pass': 'unexpected pass',
};

/** Symbol and words; `absent` is a check with no result at a version (a diff shows it appearing or going). */
export function statusText(status: ResultStatus | 'absent'): string {
  return status === 'absent' ? '· absent' : `${STATUS_SYMBOL[status]} ${STATUS_LABEL[status]}`;
}

/** What fails the gate of a run: the target did not conform, the check could not run, or an expectation is stale. */
export function failsGate(status: ResultStatus): boolean {
  return status === 'failed' || status === 'error' || status === 'unexpected-pass';
}
