/**
 * What a person watching a run sees, so that a long live run never looks hung. Each failure is printed
 * the moment it happens (its first line). On a terminal, one status line is rewritten in place every
 * second: checks done of the total per version, failures so far, elapsed time and an estimate of what
 * is left. Elsewhere (CI logs, a pipe) a line per suite file and version as it finishes.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import path from 'node:path';
import { VERSION_PROJECT_PREFIX, type OwedResults } from './result-collector.ts';
import { compareVersions } from '../../protocol/versions.ts';

/** Where the status line goes: a terminal that can rewrite a line in place. */
export interface LiveTerminal {
  write(text: string): unknown;
  columns?: number;
}

/** Standard output when a person is watching it: a terminal that understands cursor movement, not CI. */
export function liveTerminal(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): LiveTerminal | undefined {
  return stream.isTTY && env.TERM !== 'dumb' && !env.CI ? stream : undefined;
}

export interface ProgressState {
  /** per API version: checks finished, and checks it owes */
  versions: ReadonlyMap<string, { done: number; total: number }>;
  /** failures and errors so far that the --expect file does not list */
  failures: number;
  elapsedMs: number;
}

function clock(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** `1.18 52/52  1.19 40/52 … · 3 failed · 0:42, about 1:10 left`, cut to the terminal's width. */
export function formatProgress(state: ProgressState, columns = 80): string {
  const versions = [...state.versions].sort(([a], [b]) => compareVersions(a, b));
  const done = versions.reduce((sum, [, counts]) => sum + counts.done, 0);
  const total = versions.reduce((sum, [, counts]) => sum + counts.total, 0);
  // before the first result (vitest's start-up) there is nothing to estimate from
  const left = done > 0 ? `about ${clock((state.elapsedMs / done) * (total - done))} left` : 'starting';
  const tail = ` · ${state.failures} failed · ${clock(state.elapsedMs)}, ${left}`;
  const perVersion = versions.map(([version, counts]) => `${version} ${counts.done}/${counts.total}`).join('  ');
  const line = perVersion.length + tail.length < columns ? perVersion + tail : `checks ${done}/${total} at ${versions.length} version(s)${tail}`;
  return line.length < columns ? line : `${line.slice(0, columns - 2)}…`;
}

export class ProgressReporter implements Reporter {
  private readonly versions = new Map<string, { done: number; total: number }>();
  private failures = 0;
  private startedAt = performance.now();
  private ticker: NodeJS.Timeout | undefined;
  /** the run was cut short: what its stopped checks report is no news */
  private quiet = false;
  /** failure lines held back until told whether they are news (see holdBack) */
  private held: string[] = [];

  constructor(
    private readonly write: (line: string) => void,
    private readonly root: string,
    /** failures the --expect file lists are shown as expected, so a reader sees only news */
    private readonly isExpected: (id: string, version: string) => boolean,
    /** what the run owes a result for (run-suite's ledger, collected before it starts): the totals */
    owed: readonly OwedResults[],
    /** where the live status line goes; none: a line per finished suite file instead */
    private readonly terminal: LiveTerminal | undefined = liveTerminal(),
    /** failures to hold back until `release` (news after all) or `quieten` (the run is cut short for them): a target gone away fails every check alike */
    private readonly holdBack: (message: string) => boolean = () => false,
  ) {
    for (const { version, checks } of owed) this.counts(version).total += checks.length;
  }

  onTestRunStart(): void {
    this.startedAt = performance.now();
    if (!this.terminal) return;
    this.ticker = setInterval(() => this.redraw(), 1000);
    this.ticker.unref();
  }

  /** The run is cut short and has said why: no more progress, no failure line for each check it stops. */
  quieten(): void {
    this.quiet = true;
    this.held = [];
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.terminal?.write('\r\x1b[K');
  }

  /** The failures held back are news after all: shown now. */
  release(): void {
    const held = this.held.splice(0);
    if (held.length === 0 || this.quiet) return;
    this.terminal?.write('\r\x1b[K');
    for (const line of held) this.write(line);
    if (this.ticker) this.redraw();
  }

  onTestCaseResult(testCase: TestCase): void {
    const descriptor = testCase.meta().check;
    // checks --only or --level leave out are reported too, skipped in collection: the run owes them nothing
    if (!descriptor || testCase.options.mode === 'skip' || this.quiet) return;
    this.counts(testCase.project.name.slice(VERSION_PROJECT_PREFIX.length)).done += 1;
    const result = testCase.result();
    if (result.state === 'failed') this.reportFailure(testCase, descriptor.id, result.errors[0]?.message ?? '');
    this.redraw();
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (this.terminal || this.quiet) return;
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testCase of testModule.children.allTests()) {
      const state = testCase.result().state;
      if (state === 'passed' || state === 'failed' || state === 'skipped') counts[state] += 1;
    }
    const done = [...this.versions.values()].reduce((sum, version) => sum + version.done, 0);
    const file = path.relative(this.root, testModule.moduleId);
    this.write(`[${String(done).padStart(5)}] ${testModule.project.name.padEnd(6)} ${file}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }

  onTestRunEnd(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.terminal?.write('\r\x1b[K');
  }

  private counts(version: string): { done: number; total: number } {
    let counts = this.versions.get(version);
    if (!counts) this.versions.set(version, (counts = { done: 0, total: 0 }));
    return counts;
  }

  private reportFailure(testCase: TestCase, id: string, message: string): void {
    const outcome = testCase.meta().outcome ?? 'error';
    const version = testCase.project.name.slice(VERSION_PROJECT_PREFIX.length);
    const expected = outcome === 'failed' && this.isExpected(id, version);
    if (!expected) this.failures += 1;
    const line = `  ${expected ? 'x (expected)' : outcome === 'failed' ? '✗' : '! error'} ${testCase.project.name} ${id}: ${message.split('\n')[0] ?? ''}`;
    if (this.holdBack(message)) {
      this.held.push(line);
      return;
    }
    // the status line is cleared first, so the failure takes its place and the status line follows it
    this.terminal?.write('\r\x1b[K');
    this.write(line);
  }

  private redraw(): void {
    if (!this.terminal) return;
    const state = { versions: this.versions, failures: this.failures, elapsedMs: performance.now() - this.startedAt };
    this.terminal.write(`\r\x1b[K${formatProgress(state, this.terminal.columns)}`);
  }
}
