/**
 * The progress a person watching `shipshape run` sees: on a terminal one status line rewritten in place
 * (per-version counts, failures, elapsed, time left), elsewhere a line per finished suite file.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import type { CheckDescriptor } from '../../harness/check.ts';
import { formatProgress, liveTerminal, ProgressReporter } from '../../harness/run/progress-reporter.ts';

function testCase(project: string, id: string, state: 'passed' | 'failed', mode: 'run' | 'skip' = 'run'): TestCase {
  return {
    project: { name: project },
    options: { mode },
    meta: () => ({ check: { id }, ...(state === 'failed' ? { outcome: 'failed' } : {}) }),
    result: () => ({ state, errors: state === 'failed' ? [{ message: 'expected 200, got 500\nthe request: GET /v1.25/_ping' }] : [] }),
  } as unknown as TestCase;
}

function testModule(project: string, cases: TestCase[]): TestModule {
  return { project: { name: project }, moduleId: '/pkg/suites/system/ping.check.ts', children: { allTests: () => cases } } as unknown as TestModule;
}

/** what a terminal shows after a write that returns to the line's start and clears it first */
const CLEAR_LINE = '\r\x1b[K';
function statusLine(screen: string[]): string {
  const last = screen.at(-1) ?? '';
  expect(last.startsWith(CLEAR_LINE), JSON.stringify(last)).toBe(true);
  return last.slice(CLEAR_LINE.length);
}

describe('formatProgress', () => {
  const versions = new Map([['1.25', { done: 2, total: 8 }], ['1.24', { done: 4, total: 8 }]]);

  it('gives each version its count, oldest first, then failures, elapsed time and the time left', () => {
    // 6 of 16 done in 12 s: 10 more at 2 s each
    expect(formatProgress({ versions, failures: 1, elapsedMs: 12_000 }, 120)).toBe('1.24 4/8  1.25 2/8 · 1 failed · 0:12, about 0:20 left');
  });

  it('before the first result: no estimate, it is starting', () => {
    const none = new Map([['1.25', { done: 0, total: 8 }]]);
    expect(formatProgress({ versions: none, failures: 0, elapsedMs: 65_000 })).toBe('1.25 0/8 · 0 failed · 1:05, starting');
  });

  it('fits a narrow terminal: all versions summed, then cut with an ellipsis', () => {
    const eight = new Map(['1.18', '1.19', '1.20', '1.21', '1.22', '1.23', '1.24', '1.25'].map((version, index) => [version, { done: index * 5, total: 52 }]));
    // 140 of 416 in 28 s: 276 more at 0.2 s each
    expect(formatProgress({ versions: eight, failures: 0, elapsedMs: 28_000 }, 80)).toBe('checks 140/416 at 8 version(s) · 0 failed · 0:28, about 0:55 left');
    const cut = formatProgress({ versions: eight, failures: 0, elapsedMs: 28_000 }, 30);
    expect(cut).toHaveLength(29);
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('ProgressReporter', () => {
  const checks = (count: number) => Array.from({ length: count }, () => ({ id: 'system.ping.ok' }) as CheckDescriptor);
  const owed = (version: string, count: number) => ({ version, file: 'suites/system/ping.check.ts', moduleId: '/pkg/suites/system/ping.check.ts', checks: checks(count) });

  it('on a terminal: rewrites one status line in place, prints each failure above it, and clears it at the end', () => {
    const screen: string[] = [];
    const lines: string[] = [];
    const reporter = new ProgressReporter((line) => lines.push(line), '/pkg', () => false, [owed('1.25', 2), owed('1.24', 2)], { write: (text: string) => screen.push(text), columns: 120 });
    reporter.onTestRunStart();
    // --only left the third check out: reported in mode skip, not owed
    const cases = [testCase('v1.25', 'system.ping.ok', 'passed'), testCase('v1.25', 'system.ping.head', 'failed'), testCase('v1.25', 'system.version.ok', 'passed', 'skip')];
    for (const c of cases) reporter.onTestCaseResult(c);
    expect(lines).toEqual(['  ✗ v1.25 system.ping.head: expected 200, got 500']);
    expect(statusLine(screen)).toMatch(/^1\.24 0\/2 {2}1\.25 2\/2 · 1 failed · 0:0\d, about 0:0\d left$/);
    reporter.onTestModuleEnd(testModule('v1.25', cases));
    expect(lines).toHaveLength(1);
    reporter.onTestRunEnd();
    expect(screen.at(-1)).toBe(CLEAR_LINE);
  });

  it('redraws every second even when no result comes, so a long check never looks hung', async () => {
    vi.useFakeTimers();
    try {
      const screen: string[] = [];
      const reporter = new ProgressReporter(() => undefined, '/pkg', () => false, [owed('1.25', 10)], { write: (text: string) => screen.push(text) });
      reporter.onTestRunStart();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(screen).toHaveLength(3);
      expect(statusLine(screen)).toMatch(/^1\.25 0\/10 · 0 failed · 0:0\d, starting$/);
      reporter.onTestRunEnd();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(screen).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('elsewhere: a line per finished suite file and version, failures (expected ones marked) as they happen', () => {
    const lines: string[] = [];
    const reporter = new ProgressReporter((line) => lines.push(line), '/pkg', (id) => id === 'system.ping.head', [owed('1.25', 2)], undefined);
    const cases = [testCase('v1.25', 'system.ping.ok', 'passed'), testCase('v1.25', 'system.ping.head', 'failed')];
    reporter.onTestRunStart();
    for (const c of cases) reporter.onTestCaseResult(c);
    reporter.onTestModuleEnd(testModule('v1.25', cases));
    reporter.onTestRunEnd();
    expect(lines).toEqual(['  x (expected) v1.25 system.ping.head: expected 200, got 500', '[    2] v1.25  suites/system/ping.check.ts: 1 passed, 1 failed, 0 skipped']);
  });

  it('shows the live line only on a terminal that can rewrite it, never on CI', () => {
    const tty = { isTTY: true } as NodeJS.WriteStream;
    expect(liveTerminal(tty, { TERM: 'xterm-256color' })).toBe(tty);
    expect(liveTerminal(tty, { TERM: 'xterm', CI: 'true' })).toBeUndefined();
    expect(liveTerminal(tty, { TERM: 'dumb' })).toBeUndefined();
    expect(liveTerminal({ isTTY: false } as NodeJS.WriteStream, {})).toBeUndefined();
  });
});
