/**
 * What a run cut short keeps (issue 26 §6): the results that came before the cut, and for the rest an
 * error saying why. vitest's cancel reports the checks it stops as skipped (or leaves them pending): not
 * run, not skipped. A check the target's loss cut off is an error that says so, not a failure of the target.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { TestCase } from 'vitest/node';
import { ResultCollector } from '../../harness/run/result-collector.ts';
import { CUT_OFF, NOT_RUN_INTERRUPTED } from '../../harness/run/cut-short.ts';
import { descriptor } from './lost-results/checks.ts';

type State = 'passed' | 'failed' | 'skipped' | 'pending';

/** What the collector reads of a vitest TestCase: its check, version, state and errors. */
function testCase(id: string, state: State, options: { message?: string; skipReason?: string; outcome?: 'failed' | 'error' } = {}): TestCase {
  return {
    meta: () => ({ check: descriptor(id), ...(options.skipReason && { skipReason: options.skipReason }), ...(options.outcome && { outcome: options.outcome }) }),
    project: { name: 'v1.25' },
    result: () => (state === 'failed' ? { state, errors: [{ message: options.message ?? '' }] } : { state, ...(state === 'skipped' && { note: options.skipReason ?? 'The test run was aborted by the user.' }) }),
    diagnostic: () => ({ duration: 5 }),
  } as unknown as TestCase;
}

function at(ms: number, collector: ResultCollector, event: 'ready' | 'result', test: TestCase): void {
  vi.setSystemTime(ms);
  if (event === 'ready') collector.onTestCaseReady(test);
  else collector.onTestCaseResult(test);
}

function resultsOf(collector: ResultCollector): Record<string, unknown> {
  return Object.fromEntries(collector.results().map((check) => [check.id, check.results['1.25']]));
}

describe('a run cut short', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('interrupted: what reported before is kept; the checks vitest stopped and those it never started are not run', () => {
    const collector = new ResultCollector();
    const [passed, selfSkipped, stopped, pending] = [
      testCase('lost.cut.passed', 'passed'),
      testCase('lost.cut.self-skipped', 'skipped', { skipReason: 'the target lacks swarm' }),
      testCase('lost.cut.stopped', 'skipped'),
      testCase('lost.cut.pending', 'pending'),
    ];
    for (const test of [passed, stopped, pending]) collector.onTestCaseReady(test);
    collector.onTestCaseResult(passed);
    expect(collector.running()).toEqual([{ id: 'lost.cut.stopped', version: '1.25' }, { id: 'lost.cut.pending', version: '1.25' }]);
    collector.markCut();
    for (const test of [selfSkipped, stopped, pending]) collector.onTestCaseResult(test);
    const owed = [{ version: '1.25', file: 'cut.suite.ts', moduleId: '/cut.suite.ts', checks: ['passed', 'self-skipped', 'stopped', 'pending', 'never-started'].map((name) => descriptor(`lost.cut.${name}`)) }];
    expect(collector.recordMissing(owed, NOT_RUN_INTERRUPTED)).toBe(3);
    expect(collector.reported).toBe(2);
    const notRun = { status: 'error', message: 'not run: interrupted' };
    expect(resultsOf(collector)).toEqual({
      'lost.cut.passed': { status: 'passed', durationMs: 5 },
      'lost.cut.self-skipped': { status: 'skipped', reason: 'the target lacks swarm' },
      'lost.cut.stopped': notRun,
      'lost.cut.pending': notRun,
      'lost.cut.never-started': notRun,
    });
  });

  test('the target lost at T: a check that started after T and could not connect was not run; one running at T, or ending after it, failing was cut off', () => {
    vi.useFakeTimers();
    const collector = new ResultCollector();
    const connectionRefused = 'connect ECONNREFUSED /tmp/x.sock';
    const checks = {
      before: testCase('lost.cut.failed-before', 'failed', { message: 'expected 200, got 500', outcome: 'failed' }),
      passed: testCase('lost.cut.passed-across', 'passed'),
      across: testCase('lost.cut.stream-cut', 'failed', { message: "expected 'hello\\r\\n' to be 'hello\\r\\n6\\r\\n'", outcome: 'failed' }),
      after: testCase('lost.cut.refused-after', 'failed', { message: connectionRefused, outcome: 'error' }),
      afterFailed: testCase('lost.cut.failed-after', 'failed', { message: 'expected 204', outcome: 'failed' }),
      firstSign: testCase('lost.cut.first-sign', 'failed', { message: 'read ECONNRESET', outcome: 'error' }),
    };
    // when each check started (ready) and reported (result); the target is lost at 2000, and first-sign's
    // failure, a moment before, is what the run took as the first sign
    const timeline: [number, 'ready' | 'result', keyof typeof checks][] = [
      [500, 'ready', 'before'], [900, 'result', 'before'], [1000, 'ready', 'passed'], [1000, 'ready', 'across'],
      [1500, 'ready', 'firstSign'], [1999, 'result', 'firstSign'], [2100, 'ready', 'after'], [2100, 'ready', 'afterFailed'],
      [2200, 'result', 'after'], [2300, 'result', 'afterFailed'], [2400, 'result', 'passed'], [2500, 'result', 'across'],
    ];
    for (const [ms, event, name] of timeline) at(ms, collector, event, checks[name]);
    const notRun = 'not run: target unreachable since 00:00:02, during lost.cut.stream-cut at 1.25';
    expect(collector.afterTargetLost({ at: new Date(2000), running: [{ id: 'lost.cut.first-sign', version: '1.25' }] }, notRun, (message) => message.includes('ECONNREFUSED'))).toBe(1);
    expect(resultsOf(collector)).toEqual({
      'lost.cut.failed-before': { status: 'failed', durationMs: 5, message: 'expected 200, got 500' },
      'lost.cut.passed-across': { status: 'passed', durationMs: 5 },
      'lost.cut.stream-cut': { status: 'error', durationMs: 5, message: `${CUT_OFF}expected 'hello\\r\\n' to be 'hello\\r\\n6\\r\\n'` },
      'lost.cut.refused-after': { status: 'error', message: notRun },
      'lost.cut.failed-after': { status: 'error', durationMs: 5, message: `${CUT_OFF}expected 204` },
      'lost.cut.first-sign': { status: 'error', durationMs: 5, message: `${CUT_OFF}read ECONNRESET` },
    });
  });
});
