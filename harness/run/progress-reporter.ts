/**
 * What a person watching a run sees: one line per suite file and version as it finishes, and each
 * failure the moment it happens (its first line), so a long live run is never silent.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import path from 'node:path';
import { VERSION_PROJECT_PREFIX } from './result-collector.ts';

export class ProgressReporter implements Reporter {
  private done = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly root: string,
    /** failures the --expect file lists are shown as expected, so a reader sees only news */
    private readonly isExpected: (id: string, version: string) => boolean = () => false,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    this.done += 1;
    const result = testCase.result();
    const descriptor = testCase.meta().check;
    if (result.state !== 'failed' || !descriptor) return;
    const outcome = testCase.meta().outcome ?? 'error';
    const version = testCase.project.name.slice(VERSION_PROJECT_PREFIX.length);
    const expected = outcome === 'failed' && this.isExpected(descriptor.id, version);
    const firstLine = result.errors[0]?.message.split('\n')[0] ?? '';
    this.write(`  ${expected ? 'x (expected)' : outcome === 'failed' ? '✗' : '! error'} ${testCase.project.name} ${descriptor.id}: ${firstLine}`);
  }

  onTestModuleEnd(testModule: TestModule): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testCase of testModule.children.allTests()) {
      const state = testCase.result().state;
      if (state === 'passed' || state === 'failed' || state === 'skipped') counts[state] += 1;
    }
    const file = path.relative(this.root, testModule.moduleId);
    this.write(`[${String(this.done).padStart(5)}] ${testModule.project.name.padEnd(6)} ${file}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
